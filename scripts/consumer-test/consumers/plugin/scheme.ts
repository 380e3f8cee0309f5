// A third party's store registered for a URL scheme and a kvstore driver (scheme-driver.ts): it
// opens through openLocation of @z/core and openSpec of @z/spec, as z's own stores do (the Node
// entries and the zarr command: scheme-node.mjs).
import { openArray, openLocation } from "@z/core";
import { registerStoreDriver } from "@z/meta";
import { openSpec, openSpecStore, SpecError } from "@z/spec";
import { keyedStoreDriver, storeDriver } from "./scheme-driver.js";

registerStoreDriver(storeDriver);
registerStoreDriver(keyedStoreDriver);

const expect = (what: string, got: unknown, want: unknown): void => {
  if (JSON.stringify(got) !== JSON.stringify(want))
    throw new Error(`${what}: got ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
  console.log(`${what}: ${JSON.stringify(got)}`);
};

const { store, path, location } = await openLocation("map://one|zarr2:a");
const array = await openArray(store, { path, mode: "r" });
expect(`openLocation of @z/core (${location.kind})`, Array.from((await array.get()).data as Int32Array), [7, 8, 9]);

const spec = { driver: "zarr2", kvstore: { driver: "map", name: "two" }, path: "a" };
expect(
  "openSpec of @z/spec, a map kvstore",
  Array.from((await (await openSpec(spec)).get()).data as Int32Array),
  [7, 8, 9],
);
expect("openSpec of @z/spec, a map: URL", (await openSpec("map://two|zarr2:a")).shape, [3]);

// The keyed driver's kvstore spec hook: @z/spec reads, checks and writes back its kvstore.
const keyed = { driver: "zarr2", kvstore: { driver: "keyed", store: "two", path: "a/" } };
expect(
  "openSpec of @z/spec, a keyed kvstore (a store's own kvstore spec hook)",
  Array.from((await (await openSpec(keyed)).get()).data as Int32Array),
  [7, 8, 9],
);
expect("openSpec of @z/spec, a keyed: URL", (await openSpec("keyed://two/a|zarr2:")).shape, [3]);
const opened = await openSpecStore(keyed);
expect("openSpecStore of @z/spec: the keyed kvstore as its hook read it", opened.kvstore, {
  driver: "keyed",
  store: "two",
  path: "a/",
});
try {
  await openSpec({ driver: "zarr2", kvstore: { driver: "keyed", store: "two", shelf: 1 } });
  throw new Error("a keyed kvstore with an extra member opened");
} catch (error) {
  expect(
    "a keyed kvstore's extra member, refused by the spec's reader",
    [error instanceof SpecError, (error as SpecError).member],
    [true, "kvstore.shelf"],
  );
}
