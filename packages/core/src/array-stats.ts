/*
 * `ZarrArray.digest` and `ZarrArray.info`, loaded by their first call (a page that only reads never
 * loads them, nor the hashes).
 */
import type { ArrayInternals } from "./array-internals.js";
import { arrayInfo } from "./array-info.js";
import type { RunOptions } from "./concurrency.js";
import { gridCoords } from "./grid-coords.js";
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
  for (const key of [self.metaKey, array.attrs.key]) {
    const value = await array.store.get(key, { signal });
    if (value !== undefined) hash.update(value);
  }
  return hash.digest();
}

/** A text report like zarr-python's `Array.info`. */
export async function info(self: ArrayInternals, options: RunOptions): Promise<string> {
  const { array } = self;
  await self.settleNested(undefined, options.signal);
  return arrayInfo(
    array,
    await array.nbytesStored(options),
    await array.nchunksInitialized(options).catch(() => undefined),
  );
}
