import type { CodecConfig, DataType, JsonValue } from "@z/meta";
import { ObjectCodecError } from "./errors.js";

/**
 * The codec ids that turn an object array's values into bytes, as zarr-python's object codecs
 * (`object_codec=`, or `dtype=str`/`bytes`/`"array:<dtype>"`). One of them must be the first filter
 * of an object array.
 */
export const OBJECT_CODEC_IDS: ReadonlySet<string> = new Set([
  "vlen-utf8",
  "vlen-bytes",
  "vlen-array",
  "json2",
  "msgpack2",
]);

/** zarr-python's dtype shorthands for object arrays and the object codec each implies. */
const SHORTHANDS: Readonly<Record<string, string>> = { str: "vlen-utf8", bytes: "vlen-bytes", array: "vlen-array" };

const OBJECT: DataType = { kind: "O", byteOrder: "|", itemsize: 8 };

/**
 * zarr-python's `normalize_dtype` for object arrays: `"str"`, `"bytes"` and `"array:<dtype>"`
 * (e.g. `"array:i4"`) mean dtype `|O` with vlen-utf8, vlen-bytes or vlen-array as the object codec,
 * unless one is given. Anything else is left to the dtype parser (`undefined`).
 */
export function objectShorthand(
  dtype: unknown,
  objectCodec: CodecConfig | undefined,
): { dtype: DataType; objectCodec: CodecConfig } | undefined {
  if (typeof dtype !== "string") return undefined;
  const [name = "", args] = dtype.split(/:(.*)/s);
  const id = SHORTHANDS[name];
  if (id === undefined) return undefined;
  if (objectCodec !== undefined) return { dtype: OBJECT, objectCodec };
  if (id === "vlen-array") {
    if (args === undefined || args === "") {
      throw new ObjectCodecError(`dtype "array" needs the item dtype, as "array:<dtype>" (e.g. "array:i4")`);
    }
    return { dtype: OBJECT, objectCodec: { id, dtype: args } };
  }
  if (args !== undefined) throw new ObjectCodecError(`dtype ${JSON.stringify(dtype)}: "${name}" takes no arguments`);
  return { dtype: OBJECT, objectCodec: { id } };
}

/**
 * The filters an array is created with, as zarr-python's `init_array` makes them: an object
 * array's object codec goes first. An object array needs one (given as `objectCodec`, or already
 * the first filter); unlike zarr-python, which only warns when some other filter might be one,
 * this refuses, since its chunks could not be written.
 */
export function objectFilters(
  dtype: DataType,
  filters: readonly CodecConfig[] | null | undefined,
  objectCodec: CodecConfig | undefined,
): CodecConfig[] | null {
  const list = filters ? [...filters] : [];
  if (dtype.kind !== "O") {
    if (objectCodec !== undefined) throw new ObjectCodecError("objectCodec is only for object arrays (dtype |O)");
    return list.length > 0 ? list : null;
  }
  if (objectCodec !== undefined) {
    if (!isObjectCodec(objectCodec))
      throw new ObjectCodecError(
        `objectCodec ${describe(objectCodec)} is not an object codec; expected one of ${[...OBJECT_CODEC_IDS].join(", ")}`,
      );
    return [objectCodec, ...list];
  }
  if (list[0] !== undefined && isObjectCodec(list[0])) return list;
  throw new ObjectCodecError(
    `missing object_codec for object array: pass objectCodec (e.g. { id: "vlen-utf8" }), a dtype of "str", "bytes" or "array:<dtype>", or an object codec (${[...OBJECT_CODEC_IDS].join(", ")}) as the first filter`,
  );
}

const isObjectCodec = (config: CodecConfig): boolean => OBJECT_CODEC_IDS.has(config.id);

const describe = (config: CodecConfig): string =>
  JSON.stringify(config as unknown as JsonValue, (_, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
