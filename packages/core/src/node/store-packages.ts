/// <reference types="node" />
import { importOptional, STORE_PACKAGES, type StoreDriver, type StorePackageName } from "@z/meta";

/**
 * The driver of one of z's store packages (`fsStoreDriver` of `@z/store-fs`, ...), imported by
 * the name the store registry of `@z/meta` gives (`STORE_PACKAGES`) when a Node entry first needs
 * it, with its settings (credentials, endpoints) read from this process's environment; `undefined`
 * when the package is not installed. The packages are optional peers of `@z/core` and `@z/spec`:
 * installing either installs none of them. A bundler does not follow these imports, so a bundled
 * app registers the drivers of the stores it uses itself (`registerStoreDriver` of `@z/meta`).
 */
export async function installedStoreDriver(pkg: StorePackageName): Promise<StoreDriver | undefined> {
  const module = await importOptional<Readonly<Record<string, unknown>>>(pkg, () => import(pkg));
  const driver = module?.[STORE_PACKAGES[pkg].driver] as StoreDriver | undefined;
  // The environment given explicitly: the package's Node entry reads it too, but a bundler or a
  // test runner may hand this its browser entry.
  return driver?.withEnvironment?.(process.env) ?? driver;
}
