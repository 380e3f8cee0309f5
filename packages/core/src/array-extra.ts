/*
 * The parts of `ZarrArray` a page reading arrays seldom uses, loaded by their first call: `digest`
 * (and the hashes), `info`, the stored chunk counts, `islice`, and the metadata of `view`s and
 * `astype`s.
 */
import {
  dataTypeFromUser,
  dataTypeToJSON,
  isListable,
  keyPrefix,
  normalizeChunks,
  normalizeFillValue,
  parseChunkKey,
  valuesPerElement,
  type ArrayMetadata,
  type CodecConfig,
  type DataType,
  type TypedArray,
} from "@z/meta";
import type { ArrayFace, ArrayInternals, ViewOptions } from "./array-internals.js";
import { arrayInfo } from "./array-info.js";
import { forEachConcurrent, type RunOptions } from "./concurrency.js";
import { ArgumentError } from "./errors.js";
import { gridCoords } from "./grid-coords.js";
import { createHash, type HashName } from "./hash.js";
import { product, type NdArray, type NdData } from "./nd-array.js";

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

/** The chunk keys of the array present in the store (needs a listable store). */
export async function initializedChunkKeys(self: ArrayInternals, options: RunOptions): Promise<string[]> {
  const { array } = self;
  if (!isListable(array.store)) throw new ArgumentError("the store cannot list its keys");
  await self.settleNested(undefined, options.signal);
  const prefix = keyPrefix(array.path);
  const grid = array.cdataShape;
  const keys = await array.store.list(prefix, { signal: options.signal });
  return keys.filter((key) => {
    const coords = parseChunkKey(key.slice(prefix.length), array.ndim, array.dimensionSeparator);
    return coords?.every((c, i) => c < grid[i]!);
  });
}

/** Bytes stored for the array: metadata, attributes and chunks; `undefined` when the store cannot list. */
export async function nbytesStored(self: ArrayInternals, options: RunOptions): Promise<number | undefined> {
  const { array } = self;
  if (!isListable(array.store)) return undefined;
  const keys = [self.metaKey, array.attrs.key, ...(await array.initializedChunkKeys(options))];
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

/**
 * The items along the first dimension from `start` to `end`, as zarr-python's `islice`: each a
 * result of the remaining dimensions (shape `[]` for a 1-d array). Chunks along the first
 * dimension are read one block at a time, so memory stays one block.
 */
export async function* islice<T extends NdData = TypedArray>(
  array: ArrayFace,
  start: number,
  end: number | undefined,
  options: RunOptions,
): AsyncGenerator<NdArray<T>> {
  if (array.ndim === 0) throw new ArgumentError("a 0-d array cannot be iterated");
  const length = array.shape[0]!;
  const stop = Math.min(end ?? length, length);
  const step = array.chunks[0]!;
  for (let block = Math.max(0, start); block < stop; block = (Math.floor(block / step) + 1) * step) {
    const blockEnd = Math.min(stop, (Math.floor(block / step) + 1) * step);
    const rows = await array.get<NdData>([{ kind: "slice", start: block, stop: blockEnd, step: 1 }], options);
    const rowSize = product(rows.shape.slice(1)) * valuesPerElement(array.dtype);
    for (let i = 0; i < blockEnd - block; i++) {
      const data = (
        Array.isArray(rows.data)
          ? rows.data.slice(i * rowSize, (i + 1) * rowSize)
          : rows.data.subarray(i * rowSize, (i + 1) * rowSize)
      ) as T;
      yield { data, shape: rows.shape.slice(1), strides: rows.strides.slice(1), dtype: rows.dtype };
    }
  }
}

const resolveViewDtype = (dtype: string | DataType): DataType =>
  typeof dtype === "string" ? dataTypeFromUser(dtype) : dtype;

/** The metadata of a view of an array of `meta` (see `ZarrArray.view`). */
export function viewMetadata(meta: ArrayMetadata, options: ViewOptions): ArrayMetadata {
  const dtype = options.dtype === undefined ? meta.dtype : resolveViewDtype(options.dtype);
  const shape =
    options.shape === undefined ? meta.shape : typeof options.shape === "number" ? [options.shape] : [...options.shape];
  const chunks = options.chunks === undefined ? meta.chunks : normalizeChunks(options.chunks, shape, dtype.itemsize);
  return {
    ...meta,
    dtype,
    shape,
    chunks,
    fillValue: options.fillValue === undefined ? meta.fillValue : normalizeFillValue(options.fillValue, dtype),
    filters: options.filters === undefined ? meta.filters : options.filters,
  };
}

/** The view `astype(dtype)` is (see `ZarrArray.astype`): an `astype` filter, read-only. */
export function astypeView(meta: ArrayMetadata, dtype: string | DataType): ViewOptions {
  const target = resolveViewDtype(dtype);
  const cast: CodecConfig = {
    id: "astype",
    encode_dtype: dataTypeToJSON(meta.dtype) as string,
    decode_dtype: dataTypeToJSON(target) as string,
  };
  return { dtype: target, filters: [cast, ...(meta.filters ?? [])], readOnly: true };
}
