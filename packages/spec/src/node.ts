/// <reference types="node" />
/**
 * `@z/spec/node`: `openSpec` in Node. The openers a spec's kvstore needs that the caller did not
 * pass come from the store packages installed (optional peers of `@z/spec`, imported when first
 * needed: `file` needs `@z/store-fs`, `http` `@z/store-http`, `zip` `@z/store-zip`, `s3`
 * `@z/store-s3`).
 * Everything else is in `@z/spec`.
 *
 * @packageDocumentation
 */
import {
  registeredLocationOpener,
  storePackageForKvStore,
  storePackageForOpener,
  type JsonValue,
  type StoreDriver,
} from "@z/meta";
import { LocationError } from "@z/core";
import { openersForKvStore, prepareKvStores, type SpecStores } from "./kvstore.js";
import { parseSpec } from "./parse.js";
import {
  openSpec as openAnySpec,
  openSpecStore as openAnySpecStore,
  type OpenSpecOptions,
  type SpecArray,
  type SpecStore,
} from "./index.js";
import { installedStoreDriver } from "@z/core/node";

/** The driver of the installed store package of z's that reads the kvstore driver or URL scheme `name`. */
async function installedDriver(name: string): Promise<StoreDriver | undefined> {
  const pkg = storePackageForKvStore(name);
  if (pkg === undefined || pkg === "@z/store-reference") return undefined;
  return await installedStoreDriver(pkg);
}

/**
 * One opener from a registered store driver, else from the store package that has it (its driver
 * in `@z/meta`'s registry), or `undefined` when that is not installed.
 */
async function installedOpener(name: keyof SpecStores): Promise<unknown> {
  const registered = registeredLocationOpener(name);
  if (registered !== undefined) return registered;
  const pkg = storePackageForOpener(name);
  // No kvstore of TensorStore's is a reference set: the spec front end never loads that package.
  if (pkg === "@z/store-reference") return undefined;
  return (await installedStoreDriver(pkg))?.locations?.[name];
}

/**
 * The openers the kvstore of `spec` needs, from `options` or else the store packages installed; a
 * package that is not installed is a `LocationError` naming it.
 */
export async function nodeSpecStores(spec: JsonValue, options: SpecStores = {}): Promise<SpecStores> {
  const filled: Record<string, unknown> = { ...options };
  await prepareKvStores(spec, installedDriver);
  for (const name of openersForKvStore(parseSpec(spec).kvstore)) {
    if (typeof filled[name] === "function") continue;
    const opener = await installedOpener(name);
    const pkg = storePackageForOpener(name);
    if (opener === undefined)
      throw new LocationError(`this spec's kvstore needs ${pkg} (npm install ${pkg})`, { packageName: pkg });
    filled[name] = opener;
  }
  return filled as SpecStores;
}

/**
 * `openSpec` with local directories, files, HTTP, zip files and S3 buckets opened by the store packages
 * installed (see `@z/spec`'s `openSpec`); openers in `options` take precedence.
 */
export async function openSpec(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecArray> {
  return openAnySpec(spec, { ...options, ...(await nodeSpecStores(spec, options)) });
}

/** `openSpecStore` with the Node store openers (see `openSpec`). */
export async function openSpecStore(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecStore> {
  return openAnySpecStore(spec, { ...options, ...(await nodeSpecStores(spec, options)) });
}
