/// <reference types="node" />
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { registerStoreDriver, type StoreDriver } from "@z/meta";
import { fsStoreDriver } from "@z/store-fs";
import { httpStoreDriver } from "@z/store-http";
import { referenceStoreDriver } from "@z/store-reference";
import { s3StoreDriver } from "@z/store-s3";
import { zipStoreDriver } from "@z/store-zip";
import { UsageError } from "./command.js";

// The CLI opens every STORE through `@z/meta`'s store registry: its own store packages' drivers are
// registered here first, then those of the modules `ZARR_STORES` names (a third party's store),
// which thereby open their URL schemes and kvstore drivers in every command.

let registered = false;

/** Registers the drivers of the store packages the CLI depends on (once). */
export function registerCliStoreDrivers(): void {
  if (registered) return;
  registered = true;
  registerStoreDriver(fsStoreDriver);
  registerStoreDriver(zipStoreDriver);
  registerStoreDriver(httpStoreDriver);
  registerStoreDriver(referenceStoreDriver);
  // AWS_* given explicitly: the package's Node entry reads them too, but tests load its sources.
  registerStoreDriver(s3StoreDriver.withEnvironment?.(process.env) ?? s3StoreDriver);
}

/**
 * Imports the store modules `list` names (`ZARR_STORES`: module specifiers or paths, separated by
 * `,`; paths and package names are resolved from `cwd`) and registers the drivers each exports as
 * `storeDriver` or `storeDrivers` (a module may also register its own on import).
 */
export async function loadStoreModules(list: string | undefined, cwd: string): Promise<void> {
  registerCliStoreDrivers();
  for (const name of (list ?? "").split(",").map((s) => s.trim())) {
    if (name === "") continue;
    let module: { storeDriver?: StoreDriver; storeDrivers?: readonly StoreDriver[] };
    try {
      module = await import(resolveModule(name, cwd));
    } catch (cause) {
      throw new UsageError(
        `ZARR_STORES: cannot load ${name}: ${cause instanceof Error ? cause.message : String(cause)}`,
      );
    }
    const drivers = [...(module.storeDrivers ?? []), ...(module.storeDriver ? [module.storeDriver] : [])];
    for (const driver of drivers) registerStoreDriver(driver);
  }
}

/** A module specifier as `import()` takes it, resolved from `cwd` (a bare name: the project's package). */
function resolveModule(name: string, cwd: string): string {
  if (/^[./]/.test(name)) return pathToFileURL(join(cwd, name)).href;
  try {
    return pathToFileURL(createRequire(join(cwd, "package.json")).resolve(name)).href;
  } catch {
    return name; // an ESM-only package without a `require` or `default` export: Node resolves it from here
  }
}
