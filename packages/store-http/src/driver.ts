import type { StoreDriver } from "@z/meta";
import { httpLocations } from "./locations.js";

/**
 * `@z/store-http` in the store registry of `@z/meta` (`registerStoreDriver`): http(s) URLs for
 * `openLocation` (`httpLocations()`, with default options) and a spec's `http` kvstore.
 */
export const httpStoreDriver: StoreDriver = {
  packageName: "@z/store-http",
  kvstoreDrivers: ["http"],
  kvstoreSpec: async () => (await import("./kvstore-spec.js")).httpKvStoreSpec,
  locations: /* @__PURE__ */ httpLocations(),
};
