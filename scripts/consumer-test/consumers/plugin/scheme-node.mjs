// A third party's store (scheme-driver.ts, built to out/plugin/scheme-driver.js) in Node: the Node
// entries of @z/core and @z/spec open its map: URLs and map kvstores once it is registered, and
// the installed zarr command does when ZARR_STORES names the driver's module. JavaScript, as the
// project has no @types/node.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { openArray } from "@z/core";
import { openLocation } from "@z/core/node";
import { registerStoreDriver } from "@z/meta";
import { openSpec } from "@z/spec/node";
import { keyedStoreDriver, storeDriver } from "./scheme-driver.js";

registerStoreDriver(storeDriver);
registerStoreDriver(keyedStoreDriver);
const { store, path } = await openLocation("map://one|zarr2:a");
const data = Array.from((await (await openArray(store, { path, mode: "r" })).get()).data);
if (data.join() !== "7,8,9") throw new Error(`openLocation of @z/core/node read ${data}`);
console.log("openLocation of @z/core/node: [7, 8, 9]");
const shape = (await openSpec({ driver: "zarr2", kvstore: { driver: "map", name: "two" }, path: "a" })).shape;
if (shape.join() !== "3") throw new Error(`openSpec of @z/spec/node: shape ${shape}`);
console.log("openSpec of @z/spec/node: shape [3]");
const keyed = (await openSpec("keyed://two/a|zarr2:")).shape;
if (keyed.join() !== "3") throw new Error(`openSpec of @z/spec/node, a keyed: URL: shape ${keyed}`);
console.log("openSpec of @z/spec/node, a keyed: URL (its driver's kvstore spec hook): shape [3]");

const zarr = (...args) => {
  const result = spawnSync(join("node_modules", ".bin", "zarr"), args, {
    encoding: "utf8",
    env: { ...process.env, ZARR_STORES: "./out/plugin/scheme-driver.js" },
  });
  if (result.status !== 0) throw new Error(`zarr ${args.join(" ")}: exit ${result.status}: ${result.stderr}`);
  return result.stdout.trim();
};

const got = zarr("get", "map://one|zarr2:a");
if (got !== "array([7, 8, 9], dtype=int32)") throw new Error(`zarr get map://one|zarr2:a printed ${got}`);
console.log(`zarr get map://one|zarr2:a: ${got}`);
const spec = JSON.stringify({ driver: "zarr2", kvstore: { driver: "map", name: "two" }, path: "a" });
const info = zarr("info", spec, "--json");
if (JSON.stringify(JSON.parse(info).shape) !== "[3]") throw new Error(`zarr info of a map kvstore spec: ${info}`);
console.log("zarr info of a map kvstore spec: shape [3]");
const keyedSpec = JSON.stringify({ driver: "zarr2", kvstore: { driver: "keyed", store: "two", path: "a" } });
const keyedInfo = zarr("info", keyedSpec, "--json");
if (JSON.stringify(JSON.parse(keyedInfo).shape) !== "[3]")
  throw new Error(`zarr info of a keyed kvstore spec: ${keyedInfo}`);
console.log("zarr info of a keyed kvstore spec (its driver's kvstore spec hook): shape [3]");
