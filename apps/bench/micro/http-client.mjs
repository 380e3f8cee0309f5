// One process of the HTTP micro-benchmark (http.mjs starts it): reads R1 over HTTP `--reps` times
// with one transport and prints one JSON line of times. The first repetition is the process's
// cold one, the others warm (as `pnpm bench` counts them).
//   --transport ours            @z/store-http's default in Node (@z/http-client/node, http-client/src/node/)
//               fetch           HttpStore({ fetch: globalThis.fetch }): Node's bundled undici fetch
//               undici-fetch    HttpStore({ fetch: undici.fetch }), undici 7 from npm
//               undici-request  HttpStore over undici.request()
//               undici-dispatch HttpStore over undici's Agent.dispatch() (body into one buffer)
//   --mode fetch   GETs every chunk (the store's concurrency, 6) and drops each body: the client's cost
//          read    openArray + get(): the whole H1 case (Blosc LZ4 decoding too)
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import * as codecs from "@z/codecs";
import { blosc } from "@z/codecs-wasm";
import { openArray } from "@z/core";
import { HttpStore, setDefaultTransport } from "@z/store-http";
import { fetch as undiciFetch } from "undici";
import { undiciDispatchTransport, undiciRequestTransport } from "./undici-transports.mjs";

const argv = process.argv.slice(2);
const args = {};
for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, "")] = argv[i + 1];
const reps = Number(args.reps ?? 5);
const url = `${args.url}/r1.zarr`;

if (!codecs.defaultRegistry.has("blosc")) codecs.defaultRegistry.register("blosc", () => blosc);

function makeStore() {
  switch (args.transport) {
    case "ours":
      return new HttpStore(url);
    case "fetch":
      return new HttpStore(url, { fetch: globalThis.fetch });
    case "undici-fetch":
      return new HttpStore(url, { fetch: undiciFetch });
    case "undici-request":
      setDefaultTransport(undiciRequestTransport);
      return new HttpStore(url);
    case "undici-dispatch":
      setDefaultTransport(undiciDispatchTransport);
      return new HttpStore(url);
    default:
      throw new Error(`no transport ${args.transport}`);
  }
}

const store = makeStore();
const keys = [];
for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) keys.push(`${i}.${j}`);

async function once() {
  if (args.mode === "read") {
    const array = await openArray(store, { mode: "r" });
    const { data } = await array.get();
    return createHash("sha256")
      .update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
      .digest("hex")
      .slice(0, 16);
  }
  const sizes = await Promise.all(keys.map((key) => store.get(key).then((bytes) => bytes.length)));
  return String(sizes.reduce((a, b) => a + b, 0));
}

const runs = [];
for (let r = 0; r < reps; r++) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const check = await once();
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  runs.push({ seconds, cpuSeconds: (used.user + used.system) / 1e6, check });
}
process.stdout.write(`${JSON.stringify({ transport: args.transport, mode: args.mode, runs })}\n`);
