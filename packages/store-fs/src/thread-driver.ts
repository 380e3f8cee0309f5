import { StoreError, type StoreDriver, type ThreadStoreSpec } from "@z/meta";
import { DirectoryStore } from "./directory-store.js";

/**
 * How a chunk pool thread of `@z/core` reopens a `DirectoryStore` from its `threadStore()` spec
 * (kind `directory`). A thread imports it from the spec's `module`: from `dist` that is this file
 * bundled with what it uses into `dist/thread/thread-driver.js` (scripts/bundle-thread.mjs), so a
 * thread loads one file, not this package's and `@z/meta`'s modules.
 */
export const threadStoreDriver: StoreDriver = {
  packageName: "@z/store-fs",
  threadKinds: ["directory"],
  openThreadStore: (spec) => new DirectoryStore(rootOf(spec), { fsync: spec.fsync === true }),
};

function rootOf(spec: ThreadStoreSpec): string {
  if (typeof spec.root !== "string" || spec.root === "")
    throw new StoreError(`a directory thread spec needs its root (got ${JSON.stringify(spec.root)})`);
  return spec.root;
}
