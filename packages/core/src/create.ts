import type { CodecRegistry } from "@z/codecs/registry";
import { defaultCodecRegistry } from "./codec-registry.js";
import {
  dataTypeFromUser,
  encodeArrayMetadata,
  encodeAttributes,
  isWritable,
  normalizeStoragePath,
  type ArrayMetadata,
  type CodecConfig,
  type DataType,
  type JsonValue,
  type TypedArray,
} from "@z/meta";
import { normalizeChunks, normalizeFillValue } from "@z/meta/create";
import { createdLayout, storeSeparator, ZarrArray } from "./array.js";
import { ArgumentError, ReadOnlyError } from "./errors.js";
import { prepareNewNode } from "./hierarchy.js";
import { arrayMetaKey, attrsKey } from "./keys.js";
import { MemoryStore } from "@z/meta";
import type { NdArrayLike } from "./nd-array.js";
import { DEFAULT_COMPRESSOR } from "./defaults.js";
import { objectFilters, objectShorthand } from "./object-create.js";
import type { CreateOptions } from "./create-options.js";

export type { CodecSpec, CreateOptions } from "./create-options.js";

/** Creates an array, with every ancestor group, and returns it opened. */
export async function create(options: CreateOptions): Promise<ZarrArray> {
  if (options.zarrFormat === 3) return import("./create-v3.js").then(({ createV3 }) => createV3(options));
  if (options.zarrFormat !== undefined && options.zarrFormat !== 2) {
    throw new ArgumentError(`zarrFormat must be 2 or 3, got ${JSON.stringify(options.zarrFormat)}`);
  }
  const store = options.store ?? new MemoryStore();
  if (!isWritable(store)) throw new ReadOnlyError("the store");
  const path = normalizeStoragePath(options.path);
  const dimensionSeparator = options.dimensionSeparator ?? storeSeparator(store);
  const meta = await withCodecDefaults(
    arrayMetadataFor({ ...options, dimensionSeparator }),
    options.registry ?? defaultCodecRegistry(),
    arrayMetaKey(path),
  );
  await prepareNewNode(store, path, options.overwrite ?? false, options.signal);
  await store.set(arrayMetaKey(path), encodeArrayMetadata(meta), { signal: options.signal });
  if (options.attributes !== undefined) {
    await store.set(attrsKey(path), encodeAttributes(options.attributes), { signal: options.signal });
  }
  return createdLayout(await ZarrArray.open(store, path, options));
}

/**
 * Codec configs as the codecs themselves write them (defaults filled, floats as floats), as
 * zarr-python writes `codec.get_config()`; a bad config fails here, before anything is stored.
 */
async function withCodecDefaults(meta: ArrayMetadata, registry: CodecRegistry, key: string): Promise<ArrayMetadata> {
  const normalize = async (config: CodecConfig): Promise<CodecConfig> =>
    (await registry.create(config, { key })).toJSON();
  return {
    ...meta,
    compressor: meta.compressor === null ? null : await normalize(meta.compressor),
    filters: meta.filters === null ? null : await Promise.all(meta.filters.map(normalize)),
  };
}

/** The metadata zarr-python's `init_array` would write for the same arguments. */
export function arrayMetadataFor(options: CreateOptions): ArrayMetadata {
  const shorthand = objectShorthand(options.dtype, options.objectCodec);
  const dtype = shorthand?.dtype ?? resolveDataType(options.dtype ?? "<f8");
  const shape = normalizeShape(options.shape);
  const chunks = normalizeChunks(options.chunks, shape, dtype.itemsize);
  const order = options.order ?? "C";
  if (order !== "C" && order !== "F") throw new ArgumentError(`order must be "C" or "F", got ${JSON.stringify(order)}`);
  // zarr-python never compresses a 0-d array: its one element gains nothing from it.
  const compressor =
    shape.length === 0 ? null : options.compressor === undefined ? DEFAULT_COMPRESSOR : options.compressor;
  const filters = objectFilters(dtype, options.filters, shorthand?.objectCodec ?? options.objectCodec);
  const fillValue = normalizeFillValue(options.fillValue === undefined ? 0 : options.fillValue, dtype);
  return {
    zarrFormat: 2,
    shape,
    chunks,
    dtype,
    compressor,
    fillValue,
    order,
    filters,
    ...(options.dimensionSeparator === undefined ? {} : { dimensionSeparator: options.dimensionSeparator }),
  };
}

const isDataType = (d: unknown): d is DataType =>
  typeof d === "object" && d !== null && !Array.isArray(d) && "kind" in d && "itemsize" in d;

export const resolveDataType = (d: string | JsonValue | DataType): DataType =>
  isDataType(d) ? d : dataTypeFromUser(d as string | JsonValue);

function normalizeShape(shape: number | readonly number[]): number[] {
  const dims = typeof shape === "number" ? [shape] : [...shape];
  for (const s of dims) {
    if (!Number.isSafeInteger(s) || s < 0) {
      throw new ArgumentError(`shape must be non-negative integers, got [${dims.join(", ")}]`);
    }
  }
  return dims;
}

type WithoutFill = Omit<CreateOptions, "fillValue">;

/** An array without a fill value: unwritten regions are undefined (read as zeros here). */
export const empty = (options: WithoutFill): Promise<ZarrArray> => create({ ...options, fillValue: null });
export const zeros = (options: WithoutFill): Promise<ZarrArray> => create({ ...options, fillValue: 0 });
export const ones = (options: WithoutFill): Promise<ZarrArray> => create({ ...options, fillValue: 1 });
export const full = (options: CreateOptions & { fillValue: unknown }): Promise<ZarrArray> => create(options);

/** Creates an array holding `data` (its shape and, unless given, its dtype). */
export async function array(
  data: NdArrayLike | TypedArray,
  options: Omit<CreateOptions, "shape"> & { shape?: CreateOptions["shape"] } = {},
): Promise<ZarrArray> {
  const typed = ArrayBuffer.isView(data);
  const shape = options.shape ?? (typed ? [(data as TypedArray).length] : (data as NdArrayLike).shape);
  const dtype = options.dtype ?? (typed ? dtypeOfTypedArray(data as TypedArray) : "<f8");
  const z = await create({ ...options, shape, dtype });
  await z.set(undefined, typed ? { data: data as TypedArray, shape } : data, options);
  return z;
}

function dtypeOfTypedArray(data: TypedArray): string {
  const names: [abstract new (...args: never[]) => TypedArray, string][] = [
    [Int8Array, "|i1"],
    [Uint8Array, "|u1"],
    [Int16Array, "<i2"],
    [Uint16Array, "<u2"],
    [Int32Array, "<i4"],
    [Uint32Array, "<u4"],
    [BigInt64Array, "<i8"],
    [BigUint64Array, "<u8"],
    [Float32Array, "<f4"],
    [Float64Array, "<f8"],
  ];
  const found = names.find(([Ctor]) => data instanceof Ctor);
  if (!found) throw new ArgumentError(`cannot infer a dtype from ${data.constructor.name}; pass dtype`);
  return found[1];
}

/** What the `*Like` functions take from an existing array, as zarr-python's `_like_args`. */
const likeOptions = (a: ZarrArray, options: Partial<CreateOptions>): CreateOptions => ({
  shape: a.shape,
  chunks: a.chunks,
  dtype: a.dtype,
  compressor: a.compressor,
  order: a.order,
  filters: a.filters,
  ...options,
});

export const emptyLike = (a: ZarrArray, options: Partial<CreateOptions> = {}): Promise<ZarrArray> =>
  create({ ...likeOptions(a, options), fillValue: null });
export const zerosLike = (a: ZarrArray, options: Partial<CreateOptions> = {}): Promise<ZarrArray> =>
  create({ ...likeOptions(a, options), fillValue: 0 });
export const onesLike = (a: ZarrArray, options: Partial<CreateOptions> = {}): Promise<ZarrArray> =>
  create({ ...likeOptions(a, options), fillValue: 1 });
export const fullLike = (a: ZarrArray, options: Partial<CreateOptions> = {}): Promise<ZarrArray> =>
  create({ fillValue: a.fillValue, ...likeOptions(a, options) });
