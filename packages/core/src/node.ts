/**
 * `@z/core/node`: opening locations on the local file system too. Everything else is in `@z/core`;
 * this entry adds what only Node has: directories and local zip files.
 */
import { DirectoryStore, fileByteSource } from "@z/store-fs";
import { open, openGroup, type Group } from "./group.js";
import { openArray, type OpenArrayOptions, type OpenMode } from "./create.js";
import { openLocation as openAnyLocation, type LocationOptions, type OpenedLocation } from "./location.js";
import type { ZarrArray } from "./array.js";
import { enableEncoders } from "./encoders.js";

// Writing works in Node without asking, as it does through `@z/core`'s Node entry.
enableEncoders();

/** Node's ways of opening local directories and files. */
export const nodeLocations: Pick<LocationOptions, "directory" | "file"> = {
  directory: (path) => new DirectoryStore(path),
  file: (path, writable) => fileByteSource(path, { writable }),
};

/**
 * The store a location names (a directory, `.zip` file, `file://` or `http(s)://` URL, or
 * TensorStore URL). Call `close()` when done: it writes a zip's directory and releases its file.
 */
export function openLocation(text: string, options: LocationOptions = {}): Promise<OpenedLocation> {
  return openAnyLocation(text, { ...nodeLocations, ...options });
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

export { DirectoryStore, fileByteSource };

export { WorkerPool, type WorkerPoolOptions } from "./node/worker-pool.js";
