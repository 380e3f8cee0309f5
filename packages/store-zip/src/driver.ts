import type { StoreDriver } from "@z/meta";
import { zipLocations } from "./locations.js";

/**
 * `@z/store-zip` in the store registry of `@z/meta` (`registerStoreDriver`): zip files for
 * `openLocation` (`zipLocations`, over the bytes another driver opens) and a spec's `zip` kvstore.
 */
export const zipStoreDriver: StoreDriver = {
  packageName: "@z/store-zip",
  kvstoreDrivers: ["zip"],
  kvstoreSpec: async () => (await import("./kvstore-spec.js")).zipKvStoreSpec,
  locations: zipLocations,
};
