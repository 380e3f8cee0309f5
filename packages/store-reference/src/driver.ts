import type { StoreDriver } from "@z/meta";
import { referenceLocations } from "./locations.js";

/**
 * `@z/store-reference` in the store registry of `@z/meta` (`registerStoreDriver`): reference sets
 * (`reference://...`, `.json` and `.parq` paths) for `openLocation`, with default options.
 */
export const referenceStoreDriver: StoreDriver = {
  packageName: "@z/store-reference",
  locations: /* @__PURE__ */ referenceLocations(),
};
