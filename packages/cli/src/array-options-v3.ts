// The Zarr v3 array flags `create` and `import` take with --zarr-format 3, in the forms zarr.json
// uses, as zarr-python 3's `create_array` takes them: --shards makes the chunk grid the shard shape
// and the array's one codec `sharding_indexed` of --chunks inner chunks through --codecs (@z/core's
// create does that from `shards` and `codecs`); without it, --codecs are the array's codecs.

import { create, MemoryStore, type CreateOptions } from "@z/core";
import {
  dataTypeFromUser,
  JsonFloat,
  ZarrError,
  type DataType,
  type JsonObject,
  type JsonValue,
  type NamedConfig,
} from "@z/meta";
import { dataTypeToV3, decodeFillValueV3, parseDataTypeV3, type DataTypeV3 } from "@z/meta/v3";
import { jsonFlag, parseJsonArg } from "./array-options.js";
import { parseIntegerList, stringFlag, UsageError, type ParsedArgs } from "./command.js";

const V2_ONLY = ["compressor", "filters", "order", "object-codec"] as const;

/** 2 or 3, from --zarr-format (default 2). */
export function zarrFormatFlag(args: ParsedArgs): 2 | 3 {
  const text = stringFlag(args, "zarr-format");
  if (text === undefined || text === "2") return 2;
  if (text === "3") return 3;
  throw new UsageError(`--zarr-format must be 2 or 3, got ${JSON.stringify(text)}`);
}

/** Refuses the v3 flags for a v2 array, naming them. */
export function refuseV3Flags(args: ParsedArgs): void {
  const given = ["shards", "codecs", "dimension-names", "chunk-key-encoding", "separator"].filter((f) =>
    args.flags.has(f),
  );
  if (given.length > 0)
    throw new UsageError(
      `${given.map((f) => `--${f}`).join(", ")} ${given.length === 1 ? "is" : "are"} for Zarr v3 arrays: add --zarr-format 3${given.includes("separator") ? " (a v2 array's separator is --dimension-separator)" : ""}`,
    );
}

/**
 * `--dtype` for a v3 array: a v3 `data_type` (`int32`, `string`, `bfloat16`, or its JSON object),
 * or anything v2 takes (`<f8`, `float32`, a structured descr, zarr-python's `str` and `bytes`).
 */
export function dtypeV3Flag(args: ParsedArgs): DataTypeV3 | undefined {
  const text = stringFlag(args, "dtype")?.trim();
  if (text === undefined) return undefined;
  if (text === "str") return parseDataTypeV3("string", "--dtype");
  const json = text.startsWith("{") || text.startsWith("[") ? parseJsonArg(text, "--dtype") : text;
  try {
    return parseDataTypeV3(json, "--dtype");
  } catch (first) {
    if (!(first instanceof ZarrError)) throw first;
    try {
      return parseDataTypeV3(dataTypeToV3(dataTypeFromUser(json)) as JsonValue, "--dtype");
    } catch (error) {
      if (error instanceof ZarrError) throw new UsageError(`--dtype: ${first.message}`);
      throw error;
    }
  }
}

/** The v3 type of a v2 dtype (a file's): `string`/`bytes` for object arrays of text or bytes. */
export function v3TypeOf(dtype: DataType, objectCodecId: string | undefined): DataTypeV3 {
  if (dtype.kind === "O") {
    if (objectCodecId === "vlen-utf8") return parseDataTypeV3("string");
    if (objectCodecId === "vlen-bytes") return parseDataTypeV3("bytes");
    throw new UsageError(
      `a Zarr v3 array holds text (string) or bytes (bytes) objects, not those of ${objectCodecId ?? "no object codec"}: use --zarr-format 2`,
    );
  }
  try {
    return parseDataTypeV3(dataTypeToV3(dtype) as JsonValue, "--dtype");
  } catch (error) {
    if (error instanceof ZarrError) throw new UsageError(`--zarr-format 3: ${error.message}`);
    throw error;
  }
}

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);

/** `--codecs`: a list of codecs as `zarr.json` holds them (a bare name is `{"name": ...}`). */
export function codecsFlag(args: ParsedArgs): NamedConfig[] | undefined {
  const value = jsonFlag(args, "codecs");
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new UsageError('--codecs must be a JSON list of codecs, e.g. [{"name": "bytes"}]');
  return (value as JsonValue[]).map((item, i) => {
    if (typeof item === "string") return { name: item };
    if (!isObject(item) || typeof item.name !== "string")
      throw new UsageError(
        `--codecs item ${i} must be a codec: an object with a string "name" (and a "configuration")`,
      );
    const extra = Object.keys(item).find((k) => k !== "name" && k !== "configuration");
    if (extra !== undefined) throw new UsageError(`--codecs item ${i} has an unknown member ${JSON.stringify(extra)}`);
    if (item.configuration !== undefined && !isObject(item.configuration))
      throw new UsageError(`--codecs item ${i}: "configuration" must be an object`);
    return item.configuration === undefined
      ? { name: item.name }
      : { name: item.name, configuration: item.configuration as JsonObject };
  });
}

/** `--dimension-names a,,c` (an empty name is null) or a JSON list of strings and nulls. */
function dimensionNamesFlag(args: ParsedArgs, ndim: number): (string | null)[] | undefined {
  const text = stringFlag(args, "dimension-names");
  if (text === undefined) return undefined;
  let names: (string | null)[];
  if (text.trim().startsWith("[")) {
    const value = parseJsonArg(text, "--dimension-names");
    if (!Array.isArray(value) || !value.every((v) => typeof v === "string" || v === null))
      throw new UsageError("--dimension-names as JSON must be a list of strings and nulls");
    names = value as (string | null)[];
  } else names = ndim === 0 && text === "" ? [] : text.split(",").map((n) => (n.trim() === "" ? null : n.trim()));
  if (names.length !== ndim)
    throw new UsageError(`--dimension-names has ${names.length} names, the array has ${ndim} dimensions`);
  return names;
}

/**
 * The creation options of the v3 flags, for an array of `type` and `ndim` dimensions (the v2
 * options `arrayFlags` read, less those a v3 array has no place for, are the caller's).
 */
export function arrayFlagsV3(args: ParsedArgs, type: DataTypeV3, ndim: number): Partial<CreateOptions> {
  const given = V2_ONLY.filter((f) => args.flags.has(f));
  if (given.length > 0) {
    const hints = ["a Zarr v3 array has codecs instead: give them with --codecs"];
    if (given.includes("order"))
      hints.push(
        `an F order is a transpose codec before the serializer, {"name": "transpose", "configuration": {"order": [${Array.from({ length: ndim }, (_, i) => ndim - 1 - i).join(", ")}]}}`,
      );
    if (given.includes("object-codec")) hints.push("text and bytes objects are --dtype string and --dtype bytes");
    throw new UsageError(`${given.map((f) => `--${f}`).join(", ")}: ${hints.join("; ")}`);
  }
  const options: Partial<CreateOptions> & Record<string, unknown> = { zarrFormat: 3 };
  if (type.dtype.kind === "O") options.objectCodec = { id: type.dataType === "string" ? "vlen-utf8" : "vlen-bytes" };
  else options.dtype = type.dataType as JsonValue;
  const shards = stringFlag(args, "shards");
  if (shards !== undefined) {
    const list = parseIntegerList(shards, "--shards");
    if (list.length !== ndim)
      throw new UsageError(`--shards has ${list.length} values, the array has ${ndim} dimensions`);
    if (list.some((s) => s === 0)) throw new UsageError("--shards must be positive");
    const chunks = stringFlag(args, "chunks");
    if (chunks === undefined) throw new UsageError("--shards needs --chunks: the inner chunks each shard is made of");
    const inner = parseIntegerList(chunks, "--chunks");
    const bad = list.findIndex((s, i) => inner[i]! > 0 && s % inner[i]! !== 0);
    if (bad !== -1)
      throw new UsageError(
        `--shards [${list.join(", ")}] must be a multiple of --chunks [${inner.join(", ")}] in each dimension (dimension ${bad}: ${list[bad]} is not a multiple of ${inner[bad]})`,
      );
    options.shards = list;
  }
  const codecs = codecsFlag(args);
  if (codecs !== undefined) options.codecs = codecs;
  const fill = jsonFlag(args, "fill-value");
  if (fill !== undefined) {
    let value: unknown;
    try {
      value = decodeFillValueV3(fill, type, "--fill-value");
    } catch (error) {
      if (error instanceof ZarrError) throw new UsageError(error.message.replace(`"--fill-value" `, "--fill-value "));
      throw error;
    }
    // what z reads of a float's hex form when it is not the type's "NaN": the element's bits
    if (value instanceof Uint8Array && type.dtype.kind !== "S" && type.dtype.kind !== "V" && type.dtype.kind !== "O")
      throw new UsageError(
        `--fill-value ${JSON.stringify(fill)}: a NaN with a payload, a sign or a signalling bit cannot be created: a float fill is a number, "NaN", "Infinity" or "-Infinity" (zarr-python 3 writes every NaN as "NaN"; z reads the bits of arrays that have one)`,
      );
    options.fillValue = value;
  }
  const names = dimensionNamesFlag(args, ndim);
  if (names !== undefined) options.dimensionNames = names;
  const encoding = stringFlag(args, "chunk-key-encoding");
  if (encoding !== undefined) {
    if (encoding !== "default" && encoding !== "v2")
      throw new UsageError(`--chunk-key-encoding must be default or v2, got ${JSON.stringify(encoding)}`);
    options.chunkKeyEncoding = encoding;
  }
  const separator = stringFlag(args, "separator");
  const legacy = stringFlag(args, "dimension-separator");
  if (separator !== undefined && legacy !== undefined && separator !== legacy)
    throw new UsageError("--separator and --dimension-separator name the same thing: give one");
  const sep = separator ?? legacy;
  if (sep !== undefined) {
    if (sep !== "." && sep !== "/") throw new UsageError(`--separator must be / or ., got ${JSON.stringify(sep)}`);
    options.dimensionSeparator = sep;
  }
  return options;
}

/**
 * Checks, before anything is written, that the codecs exist and accept their configs for an array
 * of `shape` (by creating it in memory: metadata only).
 */
export async function settleCodecsV3(options: Partial<CreateOptions>, shape: readonly number[]): Promise<void> {
  try {
    await create({ ...options, store: new MemoryStore(), path: "", shape, overwrite: false, attributes: undefined });
  } catch (error) {
    // the throwaway array's key says nothing to the user: the flag does
    const field = (error as { field?: unknown }).field;
    if (error instanceof ZarrError && typeof field === "string" && field.startsWith("codecs") && options.codecs)
      throw new UsageError(`--codecs: ${error.message.replace(/^"zarr\.json" (has |names )?/, "")}`);
    throw error;
  }
}
