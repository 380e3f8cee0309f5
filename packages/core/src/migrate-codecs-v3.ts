/*
 * The v3 `codecs` of a v2 array, as zarr-python 3's migration converts them
 * (`zarr/metadata/migrate_v3.py`: `_convert_array_metadata`, `_convert_filters`,
 * `_convert_compressor`, `_find_numcodecs_zarr3`): a `transpose` for `order: "F"`, the filters as
 * `numcodecs.<id>` array→array codecs, `bytes` in the dtype's byte order, then the compressor
 * (`blosc`, `zstd`, `gzip` as v3's own codecs, the other numcodecs bytes→bytes codecs as
 * `numcodecs.<id>`). What zarr-python 3 cannot convert is refused here with its reasons
 * (`MigrationError`, naming the codec and the member).
 */
import type { CodecRegistry } from "@z/codecs/registry";
// MigrationError rather than @z/codecs' CodecConfigError: importing that barrel from this lazily
// loaded module would split the registry off into a chunk of its own in every page
import { MigrationError } from "./migration-error.js";
import {
  ZarrError,
  type ArrayMetadata,
  type CodecConfig,
  type DataType,
  type JsonObject,
  type NamedConfig,
} from "@z/meta";
import { CODEC_CLASS } from "./codec-repr.js";

type Kind = "array-array" | "array-bytes" | "bytes-bytes";

/**
 * The `numcodecs.<id>` codecs zarr-python 3 registers (`zarr/codecs/__init__.py`, the codecs
 * "formerly contained in numcodecs.zarr3"), by kind (`zarr/codecs/numcodecs/_codecs.py`). A v2
 * codec with another id has no v3 codec there.
 */
const NUMCODECS_V3: Readonly<Record<string, Kind>> = {
  blosc: "bytes-bytes",
  lz4: "bytes-bytes",
  zstd: "bytes-bytes",
  zlib: "bytes-bytes",
  gzip: "bytes-bytes",
  bz2: "bytes-bytes",
  lzma: "bytes-bytes",
  shuffle: "bytes-bytes",
  crc32: "bytes-bytes",
  crc32c: "bytes-bytes",
  adler32: "bytes-bytes",
  fletcher32: "bytes-bytes",
  jenkins_lookup3: "bytes-bytes",
  delta: "array-array",
  bitround: "array-array",
  fixedscaleoffset: "array-array",
  quantize: "array-array",
  packbits: "array-array",
  astype: "array-array",
  pcodec: "array-bytes",
  zfpy: "array-bytes",
};

/** What migrating one array's codecs needs. */
export interface CodecsV3Source {
  readonly meta: ArrayMetadata;
  /** The `.zarray` key, named in errors. */
  readonly key: string;
  /** Completes configs as numcodecs' `get_config()` does (the registry's `toJSON`); as stored when it lacks the codec. */
  readonly registry: CodecRegistry;
}

/** The `codecs` member of the migrated `zarr.json`. */
export async function migratedCodecs({ meta, key, registry }: CodecsV3Source): Promise<NamedConfig[]> {
  const codecs: NamedConfig[] = [];
  const ndim = meta.shape.length;
  if (meta.order === "F")
    codecs.push({ name: "transpose", configuration: { order: Array.from({ length: ndim }, (_, i) => ndim - 1 - i) } });
  for (const [i, filter] of (meta.filters ?? []).entries()) {
    const field = `filters[${i}]`;
    const kind = numcodecsKind(filter, key, field);
    if (kind !== "array-array") {
      throw new MigrationError(
        `${key}: filter ${JSON.stringify(filter.id)} (${field}) works on ${kind === "bytes-bytes" ? "bytes" : "the array, making bytes of it"}, not array to array: zarr-python 3 refuses to migrate it (Filter ${CODEC_CLASS[filter.id]} is not an ArrayArrayCodec), and so does z`,
        { codecId: filter.id, field, key },
      );
    }
    codecs.push(numcodecs(await complete(filter, registry, key)));
  }
  codecs.push(bytesCodec(meta.dtype, key));
  if (meta.compressor !== null) codecs.push(await compressorV3(meta.compressor, meta.dtype, key, registry));
  return codecs;
}

function numcodecsKind(config: CodecConfig, key: string, field: string): Kind {
  const kind = NUMCODECS_V3[config.id];
  if (kind === undefined) {
    throw new MigrationError(
      `${key}: ${field} is codec ${JSON.stringify(config.id)}, which has no Zarr v3 codec in zarr-python 3 (it knows numcodecs.${Object.keys(NUMCODECS_V3).sort().join(", numcodecs.")}): "Couldn't find corresponding zarr.codecs.numcodecs codec for ${config.id}"`,
      { codecId: config.id, field, key },
    );
  }
  return kind;
}

/** The config numcodecs' `get_config()` gives: defaults filled in by the registry's codec, when it has it. */
async function complete(config: CodecConfig, registry: CodecRegistry, key: string): Promise<CodecConfig> {
  if (!registry.has(config.id)) return config;
  try {
    return (await registry.create(config, { key })).toJSON();
  } catch (error) {
    // a config the codec refuses is reported where the array is opened; it is migrated as written
    if (error instanceof ZarrError) return config;
    throw error;
  }
}

/** `numcodecs.<id>` with the config less its `id`, as zarr-python 3's `_NumcodecsCodec.to_dict`. */
function numcodecs(config: CodecConfig): NamedConfig {
  const { id, ...configuration } = config;
  return { name: `numcodecs.${id}`, configuration: configuration as JsonObject };
}

/**
 * `bytes` with the dtype's byte order, as `BytesCodec(endian=dtype.endianness)` for the types
 * zarr-python 3 gives one (multi-byte numbers, datetimes, `U`); none for one-byte types, `S`, `V`.
 * A structured dtype: the byte order of its multi-byte fields (zarr-python 3 assumes little-endian,
 * which misreads big-endian records; z writes theirs), none when it has none; mixed orders have no
 * v3 form.
 */
function bytesCodec(dtype: DataType, key: string): NamedConfig {
  const orders = byteOrders(dtype);
  if (orders.size === 0) return { name: "bytes" };
  if (orders.size > 1) {
    throw new MigrationError(
      `${key}: the structured dtype has both little- and big-endian fields; a Zarr v3 array stores every field in one byte order`,
      { codecId: "bytes", field: "dtype", key },
    );
  }
  return { name: "bytes", configuration: { endian: orders.has(">") ? "big" : "little" } };
}

function byteOrders(dtype: DataType, out = new Set<string>()): Set<string> {
  if (dtype.kind === "structured") {
    for (const field of dtype.fields) byteOrders(field.dtype, out);
    return out;
  }
  const ordered = dtype.itemsize > 1 && dtype.kind !== "b" && dtype.kind !== "S" && dtype.kind !== "V";
  if (ordered && dtype.byteOrder !== "|") out.add(dtype.byteOrder);
  return out;
}

const BLOSC_SHUFFLE: Readonly<Record<number, string>> = { 0: "noshuffle", 1: "shuffle", 2: "bitshuffle" };

/** `_convert_compressor`: blosc, zstd and gzip become v3's codecs; other bytes→bytes codecs `numcodecs.<id>`. */
async function compressorV3(
  given: CodecConfig,
  dtype: DataType,
  key: string,
  registry: CodecRegistry,
): Promise<NamedConfig> {
  const field = "compressor";
  const config = await complete(given, registry, key);
  // numcodecs' defaults, for a config the registry could not complete
  const number = (name: string, fallback: number): number => {
    const value = config[name];
    return typeof value === "number" ? value : fallback;
  };
  switch (config.id) {
    case "blosc": {
      const shuffle = BLOSC_SHUFFLE[number("shuffle", 1)];
      if (shuffle === undefined) {
        throw new MigrationError(
          `${key}: blosc shuffle ${JSON.stringify(config.shuffle)} has no Zarr v3 name (zarr-python 3's BloscShuffle.from_int takes 0, 1 or 2: "Value must be between 0 and 2")`,
          { codecId: "blosc", field: "compressor.shuffle", key },
        );
      }
      return {
        name: "blosc",
        configuration: {
          // zarr-python 3 takes the element size of the dtype, not the config's
          typesize: dtype.itemsize,
          cname: typeof config.cname === "string" ? config.cname : "lz4",
          clevel: number("clevel", 5),
          shuffle,
          blocksize: number("blocksize", 0),
        },
      };
    }
    case "zstd":
      return { name: "zstd", configuration: { level: number("level", 1), checksum: config.checksum === true } };
    case "gzip":
      return { name: "gzip", configuration: { level: number("level", 1) } };
    default: {
      const kind = numcodecsKind(config, key, field);
      if (kind !== "bytes-bytes") {
        throw new MigrationError(
          `${key}: compressor ${JSON.stringify(config.id)} is not a bytes to bytes codec: zarr-python 3 refuses to migrate it (Compressor ${CODEC_CLASS[config.id]} is not a BytesBytesCodec), and so does z`,
          { codecId: config.id, field, key },
        );
      }
      return numcodecs(config);
    }
  }
}
