import { dataTypeToJSON, parseDataType, type CodecConfig, type DataType, type JsonValue } from "@z/meta";
import type { CodecKindV3, StageChunk } from "./types.js";

/**
 * The kind of each codec id z has, when an array's `codecs` name it `numcodecs.<id>` (or by its bare
 * id): zarr-python 3's `zarr.codecs.numcodecs` classes, which make the v2 filters array → array
 * codecs and the compressors and checksums bytes → bytes; the object codecs (and numcodecs' pcodec
 * and zfpy) are array → bytes. `categorize`, which zarr-python 3 does not register, is a filter
 * (array → array) as in v2. Ids not listed are bytes → bytes unless their factory declares a kind
 * (`CodecFactory.v3`).
 */
export const NUMCODECS_KINDS: Readonly<Record<string, CodecKindV3>> = {
  delta: "array-array",
  fixedscaleoffset: "array-array",
  quantize: "array-array",
  bitround: "array-array",
  packbits: "array-array",
  astype: "array-array",
  categorize: "array-array",
  "vlen-utf8": "array-bytes",
  "vlen-bytes": "array-bytes",
  "vlen-array": "array-bytes",
  json2: "array-bytes",
  msgpack2: "array-bytes",
  pcodec: "array-bytes",
  zfpy: "array-bytes",
};

type Configuration = { readonly [k: string]: JsonValue };

/** The dtype string numcodecs' configs take for `dtype` (`<i4`), when it has one. */
function typestr(dtype: DataType): string | undefined {
  if (dtype.kind === "structured" || dtype.kind === "O" || dtype.kind === "x") return undefined;
  const json = dataTypeToJSON(dtype);
  return typeof json === "string" ? json : undefined;
}

/**
 * What zarr-python 3 fills in of a numcodecs config from the array (its `evolve_from_array_spec`):
 * `shuffle`'s `elementsize`, `fixedscaleoffset`'s and `quantize`'s `dtype`, `astype`'s
 * `decode_dtype`, each when missing (or null), from the dtype of the data the codec receives.
 */
export function evolvedConfig(id: string, configuration: Configuration, input: StageChunk): Configuration {
  const missing = (member: string) => configuration[member] === undefined || configuration[member] === null;
  const fill = (member: string, value: JsonValue | undefined): Configuration =>
    missing(member) && value !== undefined ? { ...configuration, [member]: value } : configuration;
  switch (id) {
    case "shuffle":
      return fill("elementsize", input.dtype.kind === "O" ? 1 : input.itemsize);
    case "fixedscaleoffset":
    case "quantize":
      return fill("dtype", typestr(input.dtype));
    case "astype":
      return fill("decode_dtype", typestr(input.dtype));
    default:
      return configuration;
  }
}

const parse = (json: JsonValue | undefined, fallback: DataType): DataType => {
  if (typeof json !== "string") return fallback;
  try {
    return parseDataType(json);
  } catch {
    return fallback;
  }
};

/**
 * The array an array → array numcodecs codec hands on (zarr-python 3's `resolve_metadata`, and what
 * numcodecs' `encode` returns): `delta`, `fixedscaleoffset` and `quantize` give their `astype` (else
 * their `dtype`), `astype` its `encode_dtype`, `categorize` its `astype`, `packbits` one byte of
 * padding count then the bits, 8 to a byte; others the array they received. `config` is the codec's
 * `toJSON()`.
 */
export function arrayOutput(config: CodecConfig, input: StageChunk): StageChunk {
  const withDtype = (dtype: DataType): StageChunk => ({ ...input, dtype, itemsize: dtype.itemsize });
  switch (config.id) {
    case "delta":
    case "fixedscaleoffset":
    case "quantize":
      return withDtype(parse(config.astype ?? config.dtype, input.dtype));
    case "astype":
      return withDtype(parse(config.encode_dtype, input.dtype));
    case "categorize":
      return withDtype(parse(config.astype, input.dtype));
    case "packbits": {
      const length = 1 + Math.ceil(input.elements / 8);
      return { dtype: { kind: "u", byteOrder: "|", itemsize: 1 }, itemsize: 1, elements: length, shape: [length] };
    }
    default:
      return input;
  }
}
