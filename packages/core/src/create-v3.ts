/*
 * `create({ zarrFormat: 3, ... })`: the `zarr.json` zarr-python 3's `create_array` writes for the
 * same arguments. Loaded only when a program creates a v3 array.
 */
import {
  dataTypeFromUser,
  isWritable,
  normalizeStoragePath,
  roundToExtension,
  typedArrayConstructor,
  type ArrayMetadataV3,
  type CodecConfig,
  type DataType,
  type DataTypeV3,
  type JsonObject,
  type JsonValue,
  type NamedConfig,
} from "@z/meta";
import { normalizeChunks, normalizeFillValue } from "@z/meta/create";
import {
  arrayMetadataV3ToJson,
  dataTypeToV3,
  parseArrayMetadataV3,
  parseChunkKeyEncoding,
  parseDataTypeV3,
  serializeArrayMetadataV3,
} from "@z/meta/v3";
import { ZarrArray } from "./array.js";
import type { CodecSpec, CreateOptions } from "./create-options.js";
import { ArgumentError, ReadOnlyError } from "./errors.js";
import { prepareNewNode } from "./hierarchy.js";
import { zarrJsonKey } from "./keys.js";
import { MemoryStore } from "@z/meta";

/** zarr-python 3's default compressor for every data type. */
const ZSTD_DEFAULT: NamedConfig = { name: "zstd", configuration: { level: 0, checksum: false } };

/** Creates a v3 array (and, where missing, v3 groups above it) and returns it opened. */
export async function createV3(options: CreateOptions): Promise<ZarrArray> {
  const store = options.store ?? new MemoryStore();
  if (!isWritable(store)) throw new ReadOnlyError("the store");
  const path = normalizeStoragePath(options.path);
  const key = zarrJsonKey(path);
  // Read back from its JSON: the fill value and codecs as a reader will see them.
  const meta = parseArrayMetadataV3(arrayMetadataV3ToJson(arrayMetadataV3For(options, key)), key);
  // The chain first: codecs that cannot be built (unknown, misplaced, a bad configuration) are
  // refused before anything is written, rather than after a zarr.json nothing can read.
  const array = await ZarrArray.fromMetadata(store, path, meta, options);
  await prepareNewNode(store, path, options.overwrite ?? false, options.signal, 3);
  await store.set(key, new TextEncoder().encode(serializeArrayMetadataV3(meta)), { signal: options.signal });
  return array;
}

/** The metadata zarr-python 3's `create_array` writes for the same arguments. */
export function arrayMetadataV3For(options: CreateOptions, key = "zarr.json"): ArrayMetadataV3 {
  const type = dataTypeV3For(options.dtype ?? "float64", options.objectCodec, key);
  const shape = normalizeShape(options.shape);
  const chunks = normalizeChunks(options.chunks, shape, type.dtype.itemsize);
  const shards = options.shards === undefined ? undefined : normalizeShards(options.shards, shape, chunks);
  const inner = options.codecs?.map(v3Codec) ?? defaultChain(options, type.dtype, shape.length);
  if (options.codecs !== undefined && (options.serializer ?? options.compressors ?? options.filters) !== undefined) {
    throw new ArgumentError("codecs is the whole chain: give it, or filters/serializer/compressors, not both");
  }
  // As create_array(shards=…): the grid is of shards, each one sharding_indexed of inner chunks.
  const codecs: NamedConfig[] =
    shards === undefined
      ? inner
      : [
          {
            name: "sharding_indexed",
            configuration: {
              chunk_shape: chunks,
              codecs: inner.map(toJson),
              index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
              index_location: "end",
            },
          },
        ];
  const fill = options.fillValue ?? null;
  const fillValue = fill === null ? defaultFill(type) : fillValueV3(fill, type.dtype);
  const encoding = options.chunkKeyEncoding ?? "default";
  const separator = options.dimensionSeparator ?? (encoding === "v2" ? "." : "/");
  const chunkKeyEncoding = parseChunkKeyEncoding(
    typeof encoding === "string"
      ? { name: encoding, configuration: { separator } }
      : (encoding as unknown as JsonValue),
    key,
  );
  const dimensionNames = options.dimensionNames;
  if (dimensionNames !== undefined && dimensionNames.length !== shape.length) {
    throw new ArgumentError(
      `dimensionNames must name each of the ${shape.length} dimensions, got ${dimensionNames.length}`,
    );
  }
  const chunkShape = shards ?? chunks;
  return {
    zarrFormat: 3,
    nodeType: "array",
    shape,
    dataType: type.dataType,
    dtype: type.dtype,
    chunkGrid: { name: "regular", configuration: { chunk_shape: chunkShape } },
    chunkShape,
    chunkKeyEncoding: chunkKeyEncoding.config,
    chunkKeys: chunkKeyEncoding.encoding,
    fillValue,
    codecs,
    attributes: options.attributes ?? {},
    ...(dimensionNames === undefined ? {} : { dimensionNames: [...dimensionNames] }),
    storageTransformers: [],
  };
}

/**
 * The `data_type` for `create`'s `dtype`: a v3 name or object (`"float32"`, `"string"`,
 * `{"name": "numpy.datetime64", ...}`), or what v2 takes (`"<f4"`, `"i2"`, `"str"`, a parsed
 * `DataType`), as zarr-python 3 maps numpy dtypes.
 */
function dataTypeV3For(dtype: CreateOptions["dtype"], objectCodec: CodecConfig | undefined, key: string): DataTypeV3 {
  if (dtype === "str" || dtype === "string" || objectCodec?.id === "vlen-utf8") return parseDataTypeV3("string", key);
  if (dtype === "bytes" || objectCodec?.id === "vlen-bytes") return parseDataTypeV3("bytes", key);
  if (typeof dtype === "object" && dtype !== null && "kind" in dtype && "itemsize" in dtype) {
    return parseDataTypeV3(dataTypeToV3(dtype as DataType) as JsonValue, key);
  }
  try {
    return parseDataTypeV3(dtype as JsonValue, key);
  } catch {
    return parseDataTypeV3(dataTypeToV3(dataTypeFromUser(dtype as string | JsonValue)) as JsonValue, key);
  }
}

/** filters, then the serializer, then the compressors, each with zarr-python 3's default where not given. */
function defaultChain(options: CreateOptions, dtype: DataType, ndim: number): NamedConfig[] {
  const filters = (options.filters ?? []).map(v3Codec);
  const serializer = options.serializer === undefined ? defaultSerializer(options, dtype) : v3Codec(options.serializer);
  const compressors =
    options.compressors === undefined
      ? options.compressor === undefined
        ? ndim === 0
          ? []
          : [ZSTD_DEFAULT]
        : options.compressor === null
          ? []
          : [v3Codec(options.compressor)]
      : options.compressors === null
        ? []
        : options.compressors.map(v3Codec);
  return [...filters, serializer, ...compressors];
}

/** `bytes` (little-endian where the type has a byte order), or the vlen codec of a string or bytes type. */
function defaultSerializer(options: CreateOptions, dtype: DataType): NamedConfig {
  if (dtype.kind === "O") {
    const bytes = options.dtype === "bytes" || options.objectCodec?.id === "vlen-bytes";
    return { name: bytes ? "vlen-bytes" : "vlen-utf8", configuration: {} };
  }
  const multiByte =
    dtype.kind === "structured"
      ? dtype.fields.some((f) => f.dtype.itemsize > 1)
      : dtype.itemsize > 1 && hasOrder(dtype);
  return multiByte ? { name: "bytes", configuration: { endian: "little" } } : { name: "bytes" };
}

/** Whether elements of `dtype` have a byte order (not raw bytes or text of one-byte units). */
const hasOrder = (dtype: DataType): boolean => dtype.kind !== "S" && dtype.kind !== "V";

/** A codec given as v3's `{name, configuration}`, or as a v2 config `{id, ...}`: zarr-python 3's `numcodecs.<id>`. */
function v3Codec(codec: CodecSpec): NamedConfig {
  if (typeof codec === "string") return { name: codec };
  if ("name" in codec && typeof codec.name === "string") return codec as NamedConfig;
  const { id, ...configuration } = codec as CodecConfig;
  if (typeof id !== "string")
    throw new ArgumentError(`a codec must have a "name" (v3) or an "id" (v2), got ${JSON.stringify(codec)}`);
  return { name: `numcodecs.${id}`, configuration: configuration as JsonObject };
}

const toJson = (codec: NamedConfig): JsonValue =>
  (codec.configuration === undefined
    ? { name: codec.name }
    : { name: codec.name, configuration: codec.configuration }) as JsonValue;

/**
 * A given fill value, as zarr-python 3 casts it with NumPy: as v2's rules (zarr-python 2.13's
 * `normalize_fill_value`), except that a negative zero keeps its sign in a float type, where 2.13
 * made every value equal to 0 the zero element. TensorStore keeps it too.
 */
function fillValueV3(fill: unknown, dtype: DataType): unknown {
  if (Object.is(fill, -0)) {
    if (dtype.kind === "f") return -0;
    if (dtype.kind === "c") return [-0, 0];
    if (dtype.kind === "x" && typedArrayConstructor(dtype) === Float32Array)
      return roundToExtension(dtype.extension!, -0);
  }
  return normalizeFillValue(fill, dtype);
}

/** zarr-python 3's fill value when none is given: the type's zero (`""` for strings, no bytes for bytes). */
function defaultFill(type: DataTypeV3): unknown {
  if (type.dtype.kind === "O") return type.dataType === "string" ? "" : new Uint8Array(0);
  return normalizeFillValue(0, type.dtype);
}

function normalizeShape(shape: number | readonly number[]): number[] {
  const dims = typeof shape === "number" ? [shape] : [...shape];
  if (dims.some((s) => !Number.isSafeInteger(s) || s < 0)) {
    throw new ArgumentError(`shape must be non-negative integers, got [${dims.join(", ")}]`);
  }
  return dims;
}

/** Shards: one length per dimension, each a multiple of the chunk's (as zarr-python 3 requires). */
function normalizeShards(shards: readonly number[], shape: readonly number[], chunks: readonly number[]): number[] {
  if (
    shards.length !== shape.length ||
    shards.some((s, i) => !Number.isSafeInteger(s) || s < 1 || s % chunks[i]! !== 0)
  ) {
    throw new ArgumentError(
      `shards [${shards.join(", ")}] must be ${shape.length} lengths, each a multiple of the chunk shape [${chunks.join(", ")}]`,
    );
  }
  return [...shards];
}
