// The array options `create` and `import` share, read from flags in the forms `.zarray` uses, so
// what is given is what gets written.

import { create, MemoryStore, OBJECT_CODEC_IDS, ObjectCodecError, objectShorthand, type CreateOptions } from "@z/core";
import {
  dataTypeFromUser,
  decodeFillValue,
  JsonFloat,
  parseJson,
  ZarrError,
  type CodecConfig,
  type DataType,
  type JsonObject,
  type JsonValue,
} from "@z/meta";
import { parseIntegerList, stringFlag, trueFalseFlag, UsageError, type FlagKind, type ParsedArgs } from "./command.js";

export const V3_FLAGS: Readonly<Record<string, FlagKind>> = {
  "zarr-format": "string",
  shards: "string",
  codecs: "string",
  "dimension-names": "string",
  "chunk-key-encoding": "string",
  separator: "string",
};

export const V3_FLAGS_HELP = `  --zarr-format 2|3          the format to write (default 2); the flags below are Zarr v3's
  --shards 100,100           with --zarr-format 3: the shard shape, a multiple of --chunks in each
                             dimension: each shard is one key, a sharding_indexed codec of --chunks
                             inner chunks (index: bytes + crc32c, at the end), as zarr-python 3's
                             create_array(shards=...) writes it
  --codecs JSON              the codecs as in zarr.json, e.g. '[{"name": "bytes", "configuration":
                             {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 5}}]'
                             (with --shards: the inner chunks' codecs); default bytes, then zstd
                             level 0 (zarr-python 3's); a v3 array takes these instead of
                             --compressor, --filters and --order
  --dimension-names a,b      a name for each dimension (an empty one is null), or a JSON list
  --chunk-key-encoding E     default (c/0/0) or v2 (0.0)
  --separator /|.            the chunk key separator (default / for default, . for v2)`;

export const ARRAY_FLAGS: Readonly<Record<string, FlagKind>> = {
  ...V3_FLAGS,
  path: "string",
  chunks: "string",
  dtype: "string",
  compressor: "string",
  filters: "string",
  "object-codec": "string",
  order: "string",
  "fill-value": "string",
  "dimension-separator": "string",
  attrs: "string",
  "write-empty-chunks": "string",
  overwrite: "boolean",
};

export const ARRAY_FLAGS_HELP = `  --path P                   where the array goes in the store (parent groups are created)
  --chunks 10,10             chunk shape (-1 or null: the whole dimension); default: guessed as zarr-python does
  --dtype D                  <f8, int32, |S10, <M8[ns], a structured descr as JSON, or an object
                             array: |O (with --object-codec), or zarr-python's str, bytes, array:<dtype>
  --compressor JSON          compressor config as in .zarray, e.g. '{"id": "zlib", "level": 1}', or null;
                             default zarr-python's: blosc with lz4, level 5, byte shuffle
  --filters JSON             list of filter configs as in .zarray, or null
  --object-codec JSON        an object array's codec, e.g. '{"id": "vlen-utf8"}' (also vlen-bytes,
                             vlen-array with "dtype", json2, msgpack2): written as the first filter
  --order C|F                memory layout of chunks (default C)
  --fill-value JSON          fill value as .zarray writes it, e.g. 0, 1.5, "NaN", true, null (default 0)
  --dimension-separator ./   chunk key separator (written to .zarray only when given)
  --attrs JSON               attributes object written to .zattrs
  --write-empty-chunks B     true (default) or false: skip storing chunks equal to the fill value
  --overwrite                replace whatever is at the path
${V3_FLAGS_HELP}
With --zarr-format 3, --dtype also takes v3's names (int32, string, bfloat16, ...), and --fill-value
the forms zarr.json takes ("NaN", "0x7fc00001", [re, im], ...).`;

/** Parses a JSON flag value; syntax errors are usage errors naming the flag. */
export function jsonFlag(args: ParsedArgs, name: string): JsonValue | undefined {
  const text = stringFlag(args, name);
  if (text === undefined) return undefined;
  return parseJsonArg(text, `--${name}`);
}

export function parseJsonArg(text: string, what: string): JsonValue {
  try {
    return parseJson(text, undefined, { keepFloats: true });
  } catch (error) {
    if (error instanceof ZarrError) throw new UsageError(`${what}: ${error.message.replace(/^JSON text /, "")}`);
    throw error;
  }
}

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);

function codecConfig(value: JsonValue, what: string): CodecConfig {
  if (!isObject(value) || typeof value.id !== "string")
    throw new UsageError(`${what} must be a codec config: an object with a string "id"`);
  return value as CodecConfig;
}

/**
 * `--dtype` (a type string, a numpy name, or a descr list as JSON; zarr-python's shorthands `str`,
 * `bytes` and `array:<dtype>` are object arrays, whose codec `objectCodecFlag` gives).
 */
export function dtypeFlag(args: ParsedArgs): DataType | undefined {
  const text = stringFlag(args, "dtype");
  if (text === undefined) return undefined;
  const shorthand = dtypeShorthand(text);
  if (shorthand !== undefined) return shorthand.dtype;
  const spec = text.trim().startsWith("[") ? parseJsonArg(text, "--dtype") : text.trim();
  try {
    return dataTypeFromUser(spec);
  } catch (error) {
    if (error instanceof ZarrError) throw new UsageError(`--dtype: ${error.message}`);
    throw error;
  }
}

function dtypeShorthand(text: string): ReturnType<typeof objectShorthand> {
  try {
    return objectShorthand(text.trim(), undefined);
  } catch (error) {
    if (error instanceof ZarrError) throw new UsageError(`--dtype: ${error.message}`);
    throw error;
  }
}

/**
 * The object codec the flags name: `--object-codec`, else the one a `--dtype` shorthand implies,
 * else the first of `--filters` when it is one. `fromFilters` says it is already a filter.
 */
export function objectCodecFlag(args: ParsedArgs): { codec: CodecConfig; fromFilters: boolean } | undefined {
  const given = jsonFlag(args, "object-codec");
  if (given !== undefined) {
    const codec = codecConfig(given, "--object-codec");
    if (!OBJECT_CODEC_IDS.has(codec.id))
      throw new UsageError(
        `--object-codec must be an object codec (${[...OBJECT_CODEC_IDS].join(", ")}), got ${JSON.stringify(codec.id)}`,
      );
    return { codec, fromFilters: false };
  }
  const dtype = stringFlag(args, "dtype");
  const shorthand = dtype === undefined ? undefined : dtypeShorthand(dtype);
  if (shorthand !== undefined) return { codec: shorthand.objectCodec, fromFilters: false };
  const filters = jsonFlag(args, "filters");
  const first = Array.isArray(filters) ? filters[0] : undefined;
  if (isObject(first) && typeof first.id === "string" && OBJECT_CODEC_IDS.has(first.id))
    return { codec: first as CodecConfig, fromFilters: true };
  return undefined;
}

/** The options both formats take: chunks, attributes, writing empty chunks, overwriting. */
export function commonArrayFlags(args: ParsedArgs, ndim: number): Partial<CreateOptions> {
  const options: Partial<CreateOptions> & Record<string, unknown> = {};
  const chunks = stringFlag(args, "chunks");
  if (chunks !== undefined) {
    const list = parseIntegerList(chunks, "--chunks", { allowFull: true });
    if (list.length !== ndim)
      throw new UsageError(`--chunks has ${list.length} values, the array has ${ndim} dimensions`);
    if (list.some((c) => c === 0)) throw new UsageError("--chunks must be positive (or -1 for a whole dimension)");
    options.chunks = list.map((c) => (c === -1 ? null : c)) as CreateOptions["chunks"];
  }
  const attrs = jsonFlag(args, "attrs");
  if (attrs !== undefined) {
    if (!isObject(attrs)) throw new UsageError("--attrs must be a JSON object");
    options.attributes = attrs;
  }
  const writeEmpty = trueFalseFlag(args, "write-empty-chunks");
  if (writeEmpty !== undefined) options.writeEmptyChunks = writeEmpty;
  if (args.flags.has("overwrite")) options.overwrite = true;
  return options;
}

/** The creation options the flags give, for a v2 array of `dtype` and `ndim` dimensions. */
export function arrayFlags(args: ParsedArgs, dtype: DataType, ndim: number): Partial<CreateOptions> {
  const options: Partial<CreateOptions> & Record<string, unknown> = { dtype, ...commonArrayFlags(args, ndim) };
  const compressor = jsonFlag(args, "compressor");
  if (compressor !== undefined)
    options.compressor = compressor === null ? null : codecConfig(compressor, "--compressor");
  const filters = jsonFlag(args, "filters");
  if (filters !== undefined) {
    if (filters !== null && !Array.isArray(filters))
      throw new UsageError("--filters must be a list of codec configs, or null");
    options.filters =
      filters === null ? null : (filters as JsonValue[]).map((f, i) => codecConfig(f, `--filters item ${i}`));
  }
  const objectCodec = objectCodecFlag(args);
  if (objectCodec !== undefined && !objectCodec.fromFilters) options.objectCodec = objectCodec.codec;
  const order = stringFlag(args, "order");
  if (order !== undefined) {
    if (order !== "C" && order !== "F") throw new UsageError(`--order must be C or F, got ${JSON.stringify(order)}`);
    options.order = order;
  }
  const fill = jsonFlag(args, "fill-value");
  if (fill !== undefined) {
    try {
      options.fillValue = decodeFillValue(fill, dtype, "--fill-value");
    } catch (error) {
      if (error instanceof ZarrError) throw new UsageError(error.message.replace(`"--fill-value" `, "--fill-value "));
      throw error;
    }
  }
  const separator = stringFlag(args, "dimension-separator");
  if (separator !== undefined) {
    if (separator !== "." && separator !== "/")
      throw new UsageError(`--dimension-separator must be . or /, got ${JSON.stringify(separator)}`);
    options.dimensionSeparator = separator;
  }
  return options;
}

/**
 * Checks, before anything is written, that the codecs exist and accept their configs (by making a
 * throwaway array in memory). Without `--compressor`, arrays get zarr-python's default (blosc/lz4).
 */
export async function settleCodecs(options: Partial<CreateOptions>): Promise<Partial<CreateOptions>> {
  try {
    await create({
      ...options,
      store: new MemoryStore(),
      path: "",
      shape: [1],
      chunks: [1],
      attributes: undefined,
      overwrite: false,
      dimensionSeparator: undefined,
    });
  } catch (error) {
    if (error instanceof ObjectCodecError) {
      throw new UsageError(
        options.objectCodec === undefined && (options.dtype as DataType | undefined)?.kind === "O"
          ? `an object array (dtype |O) needs an object codec: --object-codec '{"id": "vlen-utf8"}' (or vlen-bytes, vlen-array, json2, msgpack2), or --dtype str, bytes or array:<dtype>`
          : error.message,
      );
    }
    throw error;
  }
  return options;
}
