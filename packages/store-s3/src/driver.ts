import type { StoreDriver } from "@z/meta";
import { s3Locations } from "./locations.js";

/**
 * `@z/store-s3` in the store registry of `@z/meta` (`registerStoreDriver`): `s3://` URLs for
 * `openLocation` (`s3Locations()`, `AWS_*` read where the package reads them by default) and a
 * spec's `s3` kvstore; `withEnvironment(env)` reads `AWS_*` from `env` instead.
 */
export const s3StoreDriver: StoreDriver = /* @__PURE__ */ driverWith(undefined);

function driverWith(environment: Readonly<Record<string, string | undefined>> | undefined): StoreDriver {
  return {
    packageName: "@z/store-s3",
    kvstoreDrivers: ["s3"],
    kvstoreSpec: async () => (await import("./kvstore-spec.js")).s3KvStoreSpec,
    locations: s3Locations(environment === undefined ? {} : { environment }),
    withEnvironment: driverWith,
  };
}
