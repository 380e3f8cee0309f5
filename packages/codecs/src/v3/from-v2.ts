import type { CodecConfig, DataType, JsonObject, JsonValue, NamedConfig } from "@z/meta";
import { CodecConfigError } from "../errors.js";
import { bloscShuffleName } from "./core-codecs.js";
import { NUMCODECS_KINDS } from "./numcodecs.js";

/** A v2 config without its `id`: the `configuration` of its v3 codec. */
function rest(config: CodecConfig): JsonObject {
  const { id: _id, ...configuration } = config;
  return configuration;
}

const numcodecs = (config: CodecConfig): NamedConfig => ({
  name: `numcodecs.${config.id}`,
  configuration: rest(config),
});

/** The byte orders of the multi-byte parts of `dtype` (`<`, `>`). */
function byteOrders(dtype: DataType, out = new Set<string>()): Set<string> {
  if (dtype.kind === "structured") {
    for (const field of dtype.fields) byteOrders(field.dtype, out);
  } else if (dtype.byteOrder !== "|" && dtype.itemsize > 1) {
    out.add(dtype.byteOrder);
  }
  return out;
}

/** zarr-python 3's `bytes` codec for a v2 dtype: the dtype's byte order, none for types without one. */
function bytesFor(dtype: DataType): NamedConfig {
  const orders = byteOrders(dtype);
  if (orders.size === 0) return { name: "bytes" };
  if (orders.size > 1) {
    throw new CodecConfigError(
      "a structured dtype with both little- and big-endian fields has no Zarr v3 bytes codec: v3 stores every field in one byte order",
      { codecId: "bytes", field: "dtype" },
    );
  }
  return { name: "bytes", configuration: { endian: orders.has(">") ? "big" : "little" } };
}

const num = (value: JsonValue | undefined, fallback: number): number => (typeof value === "number" ? value : fallback);

/**
 * The v3 codec zarr-python 3 writes for a v2 compressor (`zarr.metadata.migrate_v3`'s
 * `_convert_compressor`): `blosc`, `zstd` and `gzip` become the v3 core codecs (numcodecs' defaults
 * for fields the config leaves out), anything else `numcodecs.<id>` with the config as its
 * configuration.
 */
function compressorV3(config: CodecConfig, dtype: DataType): NamedConfig {
  switch (config.id) {
    case "blosc": {
      // zarr-python 3 takes the dtype's item size; numcodecs 0.16's `typesize`, when set, is what the
      // chunks were shuffled by.
      const typesize = num(config.typesize ?? undefined, dtype.itemsize);
      const shuffle = bloscShuffleName(num(config.shuffle, 1), typesize);
      if (shuffle === undefined) {
        throw new CodecConfigError(`blosc shuffle ${String(config.shuffle)} has no Zarr v3 name`, {
          codecId: "blosc",
          field: "shuffle",
          expected: "-1, 0, 1 or 2",
        });
      }
      return {
        name: "blosc",
        configuration: {
          typesize,
          cname: config.cname ?? "lz4",
          clevel: num(config.clevel, 5),
          shuffle,
          blocksize: num(config.blocksize, 0),
        },
      };
    }
    case "zstd":
      return { name: "zstd", configuration: { level: num(config.level, 1), checksum: config.checksum === true } };
    case "gzip":
      return { name: "gzip", configuration: { level: num(config.level, 1) } };
    default:
      return numcodecs(config);
  }
}

/**
 * The v3 `codecs` member for v2-style `filters` and `compressor` (what zarr-python 3's
 * `zarr.metadata.migrate_v3` writes converting an array, and `create(zarr_format=3)` with numcodecs
 * codecs): a `transpose` reversing the axes for `order: "F"`; the filters as `numcodecs.<id>`
 * codecs (array → array ones before the serializer, bytes → bytes ones after it); the serializer,
 * `bytes` in the dtype's byte order (none for types without one), or for an object dtype the object
 * codec among the filters (`vlen-utf8`, `vlen-bytes`, as zarr-python 3 names them; other object
 * codecs by their id); then the compressor (`blosc`, `zstd`, `gzip` as v3 core codecs, others
 * `numcodecs.<id>`).
 *
 * zarr-python 3 refuses a v2 filter that is not array → array (`shuffle`, a checksum); z puts it
 * after the serializer, where it reads the same stored bytes (for fixed-size types the v2 filters
 * work on the bytes the `bytes` codec gives).
 *
 * Throws `CodecConfigError` for filters v3 cannot chain (an array → array filter after a
 * bytes → bytes one or after the object codec, two object codecs, an object dtype without one), a
 * compressor that is not bytes → bytes, or a structured dtype of mixed byte orders.
 */
export function codecsV3FromV2(args: {
  readonly dtype: DataType;
  readonly order?: "C" | "F";
  readonly filters?: readonly CodecConfig[] | null;
  readonly compressor?: CodecConfig | null;
  readonly ndim: number;
}): NamedConfig[] {
  const { dtype, ndim } = args;
  const before: NamedConfig[] = [];
  const after: NamedConfig[] = [];
  let serializer: NamedConfig | undefined;
  if (args.order === "F")
    before.push({ name: "transpose", configuration: { order: Array.from({ length: ndim }, (_, i) => ndim - 1 - i) } });
  for (const [index, filter] of (args.filters ?? []).entries()) {
    const kind = NUMCODECS_KINDS[filter.id] ?? "bytes-bytes";
    const field = `filters[${index}]`;
    if (kind === "array-array") {
      if (serializer !== undefined || after.length > 0) {
        throw new CodecConfigError(
          `filter ${JSON.stringify(filter.id)} (${field}) works on the array, but comes after a filter that made bytes of it: Zarr v3 cannot chain that`,
          { codecId: filter.id, field },
        );
      }
      before.push(numcodecs(filter));
    } else if (kind === "array-bytes") {
      if (serializer !== undefined || after.length > 0) {
        throw new CodecConfigError(`filter ${JSON.stringify(filter.id)} (${field}) is a second object codec`, {
          codecId: filter.id,
          field,
        });
      }
      serializer = { name: filter.id, configuration: rest(filter) };
    } else {
      if (serializer === undefined && dtype.kind === "O") {
        throw new CodecConfigError(
          `filter ${JSON.stringify(filter.id)} (${field}) works on bytes, but comes before the object codec that makes bytes of the values`,
          { codecId: filter.id, field },
        );
      }
      serializer ??= bytesFor(dtype);
      after.push(numcodecs(filter));
    }
  }
  if (serializer === undefined) {
    if (dtype.kind === "O") {
      throw new CodecConfigError(
        "an object dtype needs an object codec (vlen-utf8, vlen-bytes, ...) among its filters",
        {
          field: "filters",
        },
      );
    }
    serializer = bytesFor(dtype);
  }
  if (args.compressor) {
    const kind = NUMCODECS_KINDS[args.compressor.id] ?? "bytes-bytes";
    if (kind !== "bytes-bytes") {
      throw new CodecConfigError(`compressor ${JSON.stringify(args.compressor.id)} is not a bytes -> bytes codec`, {
        codecId: args.compressor.id,
        field: "compressor",
      });
    }
    after.push(compressorV3(args.compressor, dtype));
  }
  return [...before, serializer, ...after];
}
