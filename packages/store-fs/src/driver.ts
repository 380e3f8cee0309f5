import type { StoreDriver } from "@z/meta";
import { threadStoreDriver } from "./thread-driver.js";
import { fsLocations } from "./locations.js";

/**
 * `@z/store-fs` in the store registry of `@z/meta` (`registerStoreDriver`): local directories and
 * files for `openLocation` (`fsLocations`), a spec's `file` kvstore, and the `directory` thread
 * spec a `DirectoryStore` gives (`threadStore()`), which a chunk pool thread opens again here.
 */
export const fsStoreDriver: StoreDriver = {
  packageName: "@z/store-fs",
  kvstoreDrivers: ["file"],
  kvstoreSpec: async () => (await import("./kvstore-spec.js")).fileKvStoreSpec,
  threadKinds: threadStoreDriver.threadKinds,
  locations: fsLocations,
  openThreadStore: threadStoreDriver.openThreadStore,
};
