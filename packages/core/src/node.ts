/**
 * `@z/core/node`: opening locations in Node with whatever store packages are installed. Everything
 * else is in `@z/core`; this entry's `openLocation` finds the openers the caller did not pass (see
 * `LocationStores`) in the optional peer dependencies `@z/store-fs` (directories, local zip files),
 * `@z/store-zip`, `@z/store-http` and `@z/store-s3` (`s3://` URLs, with `AWS_*` from the
 * environment), imported when a location first needs them.
 *
 * @packageDocumentation
 */

import {
  describeLocationKind,
  LocationError,
  openLocation as openWith,
  parseLocation,
  storePackageForOpener,
  targetStorePackages,
  withRegisteredOpeners,
  type LocationOptions,
  type LocationStores,
  type OpenedLocation,
  type StorePackageName,
} from "@z/meta";
import { openArray, type OpenArrayOptions, type OpenMode } from "./open-array.js";
import { open, openGroup, type Group } from "./group.js";
import type { ZarrArray } from "./array.js";
import { installedStoreDriver } from "./node/store-packages.js";
import { enableEncoders } from "./encoders.js";

// Writing works in Node without asking, as it does through `@z/core`'s Node entry.
enableEncoders();

/** The openers of a store package (its driver in `@z/meta`'s registry), or `undefined` when it is not installed. */
async function installedOpeners(pkg: StorePackageName): Promise<LocationStores | undefined> {
  return (await installedStoreDriver(pkg))?.locations;
}

/**
 * The store a location names (a directory, `.zip` file, `file://`, `http(s)://` or `s3://` URL,
 * or TensorStore URL), and the node path inside it. Openers given in `options` are used; the others
 * come from the store packages, imported when needed: a location whose package is not installed is
 * a `LocationError` naming it (`x.zip: local zip files need @z/store-zip (npm install @z/store-zip)`).
 * Call `close()` when done: it writes a zip's directory and releases its file.
 */
export async function openLocation(text: string, options: LocationOptions = {}): Promise<OpenedLocation> {
  const location = parseLocation(text);
  const { openers: filled, missing } = withRegisteredOpeners(location, options);
  for (const opener of missing) {
    const pkg = storePackageForOpener(opener);
    const openers = await installedOpeners(pkg);
    if (openers?.[opener] === undefined)
      throw new LocationError(`${text}: ${describeLocationKind(location)} need ${pkg} (npm install ${pkg})`, {
        packageName: pkg,
      });
    filled[opener] = openers[opener];
  }
  // A reference set's targets may be anywhere: every installed store package's openers, for them.
  if (location.kind === "reference")
    for (const pkg of targetStorePackages())
      for (const [name, opener] of Object.entries((await installedOpeners(pkg)) ?? {})) filled[name] ??= opener;
  return openWith(text, filled as LocationOptions);
}

const writes = (mode: OpenMode | undefined): boolean => mode !== undefined && mode !== "r";

/**
 * `open` from a location string: the array or group it names. For zip files prefer
 * `openLocation`, whose `close()` releases the file when you are done.
 */
export async function openPath(
  text: string,
  options: { mode?: OpenMode; path?: string } & LocationOptions = {},
): Promise<ZarrArray | Group> {
  const { store, path } = await openLocation(text, { ...options, writable: writes(options.mode) });
  return open(store, { ...options, path: joinPaths(path, options.path) });
}

/** `openArray` from a location string. */
export async function openArrayPath(
  text: string,
  options: OpenArrayOptions & LocationOptions = {},
): Promise<ZarrArray> {
  const { store, path } = await openLocation(text, { ...options, writable: writes(options.mode) });
  return openArray(store, { ...options, path: joinPaths(path, options.path) });
}

/** `openGroup` from a location string. */
export async function openGroupPath(
  text: string,
  options: { mode?: OpenMode; path?: string } & LocationOptions = {},
): Promise<Group> {
  const { store, path } = await openLocation(text, { ...options, writable: writes(options.mode) });
  return openGroup(store, { mode: options.mode, path: joinPaths(path, options.path) });
}

const joinPaths = (a: string, b: string | undefined): string => [a, b ?? ""].filter((p) => p !== "").join("/");

export { WorkerPool, type WorkerPoolOptions } from "./node/worker-pool.js";
export { installedStoreDriver } from "./node/store-packages.js";
