/*
 * What `ZarrArray` says about what is stored, loaded by their first call (a page reading arrays
 * seldom uses them): `digest` (and the hashes), `info`, and the stored chunk counts.
 */
import { gridCoords } from "@z/meta";
import { isListable, keyPrefix } from "@z/meta";
import type { ArrayInternals } from "./array-internals.js";
import { arrayInfo } from "./array-info.js";
import { forEachConcurrent, type RunOptions } from "./concurrency.js";
import { ArgumentError } from "./errors.js";
import { arrayMetaKey } from "./keys.js";
import { createHash, type HashName } from "./hash.js";

/**
 * A checksum of the stored array, as zarr-python's `digest`: every chunk's stored bytes in chunk
 * order (nothing for a missing chunk), then `.zarray`, then `.zattrs` (a v1 array's `meta` and
 * `attrs`).
 */
export async function digest(self: ArrayInternals, hashname: HashName, options: RunOptions): Promise<Uint8Array> {
  const { array } = self;
  const hash = createHash(hashname);
  const signal = options.signal;
  for (const coords of gridCoords(array.cdataShape)) {
    let value = await array.store.get(array.chunkKey(coords), { signal });
    if (self.nested === undefined && value !== undefined) self.nested = false;
    if (self.nested === undefined && (await self.nestedAfter(false, coords, signal)))
      value = await array.store.get(array.chunkKey(coords), { signal });
    if (value !== undefined) hash.update(value);
  }
  // A v3 array's attributes are in its zarr.json: one document, hashed once.
  for (const key of new Set([self.metaKey, array.attrs.key])) {
    const value = await array.store.get(key, { signal });
    if (value !== undefined) hash.update(value);
  }
  return hash.digest();
}

/** A text report like zarr-python's `Array.info`. */
export async function info(self: ArrayInternals, options: RunOptions): Promise<string> {
  const { array } = self;
  await self.settleNested(undefined, options.signal);
  // A v3 array with a .zarray beside its zarr.json (a store `zarr migrate v3` left): read as v3, said so.
  const alsoV2 = array.zarrFormat === 3 && (await array.store.get(arrayMetaKey(array.path), options)) !== undefined;
  return arrayInfo(
    array,
    await array.nbytesStored(options),
    await array.nchunksInitialized(options).catch(() => undefined),
    alsoV2,
  );
}

/** The chunk keys of the array present in the store (needs a listable store). */
export async function initializedChunkKeys(self: ArrayInternals, options: RunOptions): Promise<string[]> {
  const { array } = self;
  if (!isListable(array.store)) throw new ArgumentError("the store cannot list its keys");
  await self.settleNested(undefined, options.signal);
  const prefix = keyPrefix(array.path);
  const grid = array.cdataShape;
  const keys = await array.store.list(prefix, { signal: options.signal });
  return keys.filter((key) => {
    const coords = self.format.chunkCoords(key.slice(prefix.length), array.ndim, array.dimensionSeparator);
    return coords?.every((c, i) => c < grid[i]!);
  });
}

/** Bytes stored for the array: metadata, attributes and chunks; `undefined` when the store cannot list. */
export async function nbytesStored(self: ArrayInternals, options: RunOptions): Promise<number | undefined> {
  const { array } = self;
  if (!isListable(array.store)) return undefined;
  const keys = [...new Set([self.metaKey, array.attrs.key]), ...(await array.initializedChunkKeys(options))];
  const sizes: number[] = [];
  await forEachConcurrent(
    keys,
    async (key) => {
      sizes.push((await array.store.get(key, { signal: options.signal }))?.length ?? 0);
    },
    options,
  );
  return sizes.reduce((a, b) => a + b, 0);
}
