// Reading and writing object arrays (dtype `|O`): chunks are JS arrays of values in the array's
// order, decoded and encoded by the object codec (vlen-utf8, vlen-bytes, vlen-array, json2,
// msgpack2) that is the array's first filter. Selections use the same projection kernels as
// typed chunks, through `asKernelValues`.

import {
  copyProjection,
  coversChunk,
  stridesFor,
  type AnyChunkProjection,
  type Indexer,
  type StridedView,
} from "@z/indexing";
import { withLock, type FillValue, type Store, type Synchronizer, type TypedArray, type WritableStore } from "@z/meta";
import { forEachConcurrent } from "./concurrency.js";
import { ArgumentError, FieldError, ValueError } from "./errors.js";
import { cStrides, product, type NdArray, type NdArrayLike } from "./nd-array.js";
import type { ObjectChunkCodec } from "./object-codec.js";

export { ObjectChunkCodec } from "./object-codec.js";
import { asKernelValues, filledValues } from "./object-values.js";
import { broadcast } from "./values.js";
import type { SelectionOptions } from "./selection-options.js";
import type { DataType } from "@z/meta";

/** What reading and writing an object array needs of the array. */
export interface ObjectArrayHost {
  readonly store: Store;
  readonly shape: readonly number[];
  readonly chunks: readonly number[];
  readonly order: "C" | "F";
  readonly dtype: DataType;
  readonly fillValue: FillValue;
  readonly writeEmptyChunks: boolean;
  readonly synchronizer: Synchronizer | undefined;
  chunkKey(coords: readonly number[]): string;
}

/**
 * The elements `indexer` selects, as a JS array in C order. Regions of chunks that are not stored
 * read as the fill value itself (`null` when there is none), as zarr-python fills them: with
 * `fill_value: 0` a string array reads `0` there, not `""`. With `layout`, chunks found missing are
 * read again once it says the array's chunks are nested (see `ZarrArray.dimensionSeparatorFound`):
 * it is told whether any chunk was found, and where one was missing.
 */
export async function readObjects(
  host: ObjectArrayHost,
  codec: ObjectChunkCodec,
  indexer: Indexer,
  key: string,
  options: SelectionOptions,
  layout?: (found: boolean, missing: readonly number[], signal?: AbortSignal) => Promise<boolean>,
): Promise<NdArray<unknown[]>> {
  if (options.fields !== undefined) throw new FieldError(`an object array has no fields (${key})`, { key });
  if (options.out !== undefined)
    throw new ArgumentError("out takes a typed array, which cannot hold the values of an object array");
  const size = product(indexer.shape);
  const out = filledValues(size, host.fillValue ?? null);
  const outView: StridedView<TypedArray> = {
    data: out,
    offset: 0,
    shape: indexer.shape,
    strides: cStrides(indexer.shape),
  };
  const absent: AnyChunkProjection[] = [];
  const read = async (p: AnyChunkProjection): Promise<void> => {
    const chunk = await readChunk(host, codec, p.chunkCoords, options.signal);
    if (chunk !== undefined) copyProjection(outView, chunkView(host, chunk), p, "read", 1);
    else if (layout !== undefined) absent.push(p);
  };
  await forEachConcurrent(indexer, read, options, indexer.nchunks);
  if (absent.length > 0 && (await layout!(absent.length < indexer.nchunks, absent[0]!.chunkCoords, options.signal))) {
    await forEachConcurrent(absent.splice(0), read, options);
  }
  return {
    data: Array.from(out as unknown as unknown[]),
    shape: indexer.shape,
    strides: outView.strides,
    dtype: host.dtype,
  };
}

/**
 * Writes `value` into what `indexer` selects. The value is one element (a string, a `Uint8Array`
 * for vlen-bytes, a typed array for vlen-array, any JSON value), a plain JS array of elements (one
 * dimension, broadcast as numpy broadcasts), or `{ data, shape }` with `data` a JS array of
 * elements in C order. Every value is checked by the object codec before any chunk is written.
 */
export async function writeObjects(
  host: ObjectArrayHost,
  store: WritableStore,
  codec: ObjectChunkCodec,
  indexer: Indexer,
  value: unknown,
  key: string,
  options: SelectionOptions,
): Promise<void> {
  if (options.fields !== undefined) throw new FieldError(`an object array has no fields (${key})`, { key });
  const source = objectSource(value, indexer.shape, key);
  await codec.check(source.data as unknown as unknown[], key, options.signal);
  await forEachConcurrent(
    indexer,
    (p: AnyChunkProjection) => {
      const chunkKey = host.chunkKey(p.chunkCoords);
      return withLock(
        host.synchronizer,
        chunkKey,
        () => updateChunk(host, store, codec, chunkKey, p, source, options.signal),
        options.signal,
      );
    },
    options,
    indexer.nchunks,
  );
}

async function updateChunk(
  host: ObjectArrayHost,
  store: WritableStore,
  codec: ObjectChunkCodec,
  key: string,
  p: AnyChunkProjection,
  source: StridedView<TypedArray>,
  signal?: AbortSignal,
): Promise<void> {
  const whole = coversChunk(p, host.chunks);
  // Elements a write leaves alone in a new chunk hold the fill value, or None without one (numpy's
  // empty object array), as zarr-python builds it.
  const stored = whole ? undefined : await readChunk(host, codec, p.chunkCoords, signal);
  const values = stored ?? (filledValues(codec.elements, host.fillValue ?? null) as unknown as unknown[]);
  copyProjection(source, chunkView(host, values), p, "write", 1);
  if (!host.writeEmptyChunks && host.fillValue !== null && values.every((v) => sameValue(v, host.fillValue))) {
    await store.delete(key, { signal });
    return;
  }
  await store.set(key, await codec.encode(values, key, signal), { signal });
}

async function readChunk(
  host: ObjectArrayHost,
  codec: ObjectChunkCodec,
  coords: readonly number[],
  signal?: AbortSignal,
): Promise<unknown[] | undefined> {
  const key = host.chunkKey(coords);
  const stored = await host.store.get(key, { signal });
  if (stored === undefined) return undefined;
  return codec.decode(stored, key, signal);
}

function chunkView(host: ObjectArrayHost, values: unknown[]): StridedView<TypedArray> {
  return { data: asKernelValues(values), offset: 0, shape: host.chunks, strides: stridesFor(host.chunks, host.order) };
}

/** The value to write as a view of the selection's shape (stride 0 where it repeats). */
function objectSource(value: unknown, shape: readonly number[], key: string): StridedView<TypedArray> {
  let data: unknown[];
  let valueShape: readonly number[];
  if (isNdLike(value)) {
    if (!Array.isArray(value.data)) {
      throw new ValueError(`the data of a value for the object array ${key} must be a JS array of elements`, { key });
    }
    data = [...(value.data as readonly unknown[])];
    valueShape = value.shape;
    if (data.length !== product(valueShape)) {
      throw new ValueError(
        `value for ${key} has ${data.length} elements but its shape [${valueShape.join(", ")}] needs ${product(valueShape)}`,
        { key },
      );
    }
  } else if (Array.isArray(value)) {
    data = [...(value as readonly unknown[])];
    valueShape = [data.length];
  } else {
    // One element, repeated over the whole selection.
    return { data: asKernelValues([value]), offset: 0, shape, strides: shape.map(() => 0) };
  }
  const strides = isNdLike(value) && value.strides !== undefined ? value.strides : cStrides(valueShape);
  return broadcast({ data: asKernelValues(data), offset: 0, shape: valueShape, strides }, shape, key);
}

function isNdLike(value: unknown): value is NdArrayLike {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !ArrayBuffer.isView(value) &&
    "data" in value &&
    "shape" in value
  );
}

/**
 * Whether an element equals the fill value, for `writeEmptyChunks: false`: primitives by `===`
 * (NaN equal to NaN), typed arrays by their values, JSON lists and objects deeply. (zarr-python
 * also counts `""` and `b""` as equal to a fill value of 0, and so loses them; this does not.)
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b) || a.constructor !== b.constructor) return false;
    const x = a as unknown as ArrayLike<unknown>;
    const y = b as unknown as ArrayLike<unknown>;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameValue(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}
