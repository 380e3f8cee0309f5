import type { ByteOrder, SimpleDataType, SimpleKind } from "./dtype-model.js";
import { extensionItemsize, isExtensionName } from "./extension-dtypes.js";

/** A parsed simple dtype, or a description of what was expected instead. */
export type TypestrResult = SimpleDataType | string;

/** Above this NumPy 1.x refuses (its item sizes are C ints). */
const MAX_ITEMSIZE = 2 ** 31 - 1;

const EXPECTED =
  'a type string: byte order <, > or |, then b1, i1/i2/i4/i8, u1/u2/u4/u8, f2/f4/f8, c8/c16, M8[unit], m8[unit], S<n>, U<n>, V<n> or O (e.g. "<f8", "|S12", "<M8[ns]"), or one of TensorStore\'s extension dtypes (bfloat16, float8_e3m4, float8_e4m3fn, float8_e4m3fnuz, float8_e4m3b11fnuz, float8_e5m2, float8_e5m2fnuz, int4, int2)';

const TYPESTR = /^([<>|=]?)([biufcmMSUVO])([0-9]*)(\[[^\]]*\])?$/;
const UNIT = /^\[([0-9]*)(generic|Y|M|W|D|h|m|s|ms|us|μs|ns|ps|fs|as)\]$/u;
const DATETIME_NAME = /^([<>|=]?)(datetime64|timedelta64)(\[[^\]]*\])?$/;
const CHAR_CODE = /^([<>|=]?)([?bBhHiIlLqQefdFDO])$/;

/** NumPy's one-character type codes, as on 64-bit Linux (where `l` is 8 bytes). */
const CHAR_CODES: Readonly<Record<string, string>> = {
  "?": "b1",
  b: "i1",
  B: "u1",
  h: "i2",
  H: "u2",
  i: "i4",
  I: "u4",
  l: "i8",
  L: "u8",
  q: "i8",
  Q: "u8",
  e: "f2",
  f: "f4",
  d: "f8",
  F: "c8",
  D: "c16",
  O: "O",
};

/** NumPy's type names (as on 64-bit Linux, where `int` is 8 bytes). */
const NAMES: Readonly<Record<string, string>> = {
  bool: "|b1",
  bool_: "|b1",
  bool8: "|b1",
  int8: "|i1",
  int16: "<i2",
  int32: "<i4",
  int64: "<i8",
  int: "<i8",
  int_: "<i8",
  uint8: "|u1",
  uint16: "<u2",
  uint32: "<u4",
  uint64: "<u8",
  uint: "<u8",
  float16: "<f2",
  float32: "<f4",
  float64: "<f8",
  half: "<f2",
  single: "<f4",
  double: "<f8",
  float: "<f8",
  float_: "<f8",
  complex64: "<c8",
  complex128: "<c16",
  complex: "<c16",
  complex_: "<c16",
  object: "|O",
  object_: "|O",
  bytes_: "|S0",
  str_: "<U0",
  void: "|V0",
};

/** Reads a `.zarray` type string such as `<f8`, `|b1`, `>M8[10s]`, `|S12`, `<U5`, `|O`. */
export function parseTypestr(text: string): TypestrResult {
  if (isExtensionName(text)) return extensionDataType(text);
  const match = TYPESTR.exec(text);
  if (match === null) return EXPECTED;
  const [, order = "", kind = "", digits = "", unit] = match;
  return build(order, kind as SimpleKind, digits, unit, false);
}

/** What `parseTypestr` reads, plus NumPy's names (`float32`, `datetime64[ns]`) and type codes (`f`, `?`). */
export function parseUserTypestr(text: string): TypestrResult {
  if (isExtensionName(text)) return extensionDataType(text);
  const named = NAMES[text];
  if (named !== undefined) return parseTypestr(named);
  const datetime = DATETIME_NAME.exec(text);
  if (datetime !== null) {
    const [, order = "", name, unit] = datetime;
    return build(order, name === "datetime64" ? "M" : "m", "8", unit, true);
  }
  const code = CHAR_CODE.exec(text);
  if (code !== null) {
    const [, order = "", char = ""] = code;
    return parseTypestr(order + CHAR_CODES[char]!);
  }
  const match = TYPESTR.exec(text);
  if (match === null) {
    if (text === "str" || text === "bytes" || text === "array") {
      return `a dtype; "${text}" is zarr-python's shorthand for an object dtype with an object codec, which this does not take`;
    }
    return `${EXPECTED}, or a NumPy name such as "float32", "int64", "bool" or "datetime64[ns]"`;
  }
  const [, order = "", kind = "", digits = "", unit] = match;
  return build(order, kind as SimpleKind, digits, unit, true);
}

/** The type string NumPy writes as `dtype.str` (generic datetimes have no brackets: `<M8`). */
export function typestr(dtype: SimpleDataType): string {
  if (dtype.kind === "O") return "|O";
  if (dtype.kind === "x") return dtype.extension!;
  const size = dtype.kind === "U" ? dtype.itemsize / 4 : dtype.itemsize;
  const unit =
    (dtype.kind === "M" || dtype.kind === "m") && dtype.unit !== undefined && dtype.unit !== "generic"
      ? `[${dtype.unit}]`
      : "";
  return `${dtype.byteOrder}${dtype.kind}${size}${unit}`;
}

/**
 * One of TensorStore's extension dtypes (`"bfloat16"`, `"float8_e4m3fn"`, `"int4"`, ...): little-endian,
 * as TensorStore reads and writes them (the name has no byte order).
 */
function extensionDataType(name: Parameters<typeof extensionItemsize>[0]): SimpleDataType {
  const itemsize = extensionItemsize(name);
  return { kind: "x", byteOrder: itemsize === 1 ? "|" : "<", itemsize, extension: name };
}

function build(
  order: string,
  kind: SimpleKind,
  digits: string,
  unit: string | undefined,
  user: boolean,
): TypestrResult {
  if (unit !== undefined && kind !== "M" && kind !== "m") return `${EXPECTED}; only M8 and m8 take a [unit]`;
  const size = digits === "" ? undefined : Number(digits);
  const simple = (itemsize: number): SimpleDataType => ({
    kind,
    byteOrder: byteOrder(kind, itemsize, order),
    itemsize,
  });
  switch (kind) {
    case "b":
      return size === 1 ? simple(1) : "b1 (booleans take 1 byte)";
    case "i":
    case "u":
      return size === 1 || size === 2 || size === 4 || size === 8
        ? simple(size)
        : `${kind}1, ${kind}2, ${kind}4 or ${kind}8 (integers take 1, 2, 4 or 8 bytes)`;
    case "f":
      return size === 2 || size === 4 || size === 8 ? simple(size) : "f2, f4 or f8 (floats take 2, 4 or 8 bytes)";
    case "c":
      return size === 8 || size === 16 ? simple(size) : "c8 or c16 (complex numbers take 8 or 16 bytes)";
    case "M":
    case "m": {
      if (size !== 8) return `${kind}8 (datetimes and timedeltas take 8 bytes)`;
      const parsed = parseUnit(unit);
      if (parsed === undefined) {
        return `${kind}8 or ${kind}8[unit] with an optional positive multiplier and a unit of Y, M, W, D, h, m, s, ms, us, ns, ps, fs, as or generic (e.g. "<${kind}8[ns]", "<${kind}8[10s]")`;
      }
      return { ...simple(8), unit: parsed };
    }
    case "S":
    case "V":
    case "U": {
      const length = size ?? (user ? 0 : undefined);
      const itemsize = length === undefined ? undefined : kind === "U" ? length * 4 : length;
      if (itemsize === undefined) return `${kind}<n> with a length (e.g. "${kind === "U" ? "<" : "|"}${kind}12")`;
      if (itemsize > MAX_ITEMSIZE) return `${kind}<n> of at most ${MAX_ITEMSIZE} bytes`;
      return simple(itemsize);
    }
    case "O":
      return size === undefined || size === 8 ? simple(8) : "O or O8 (object references take 8 bytes)";
    case "x":
      return EXPECTED;
  }
}

/**
 * The unit as NumPy normalises it: no brackets means `generic`, a multiplier of 1 is dropped,
 * `μs` is `us`, and a generic unit ignores its multiplier.
 */
function parseUnit(bracket: string | undefined): string | undefined {
  if (bracket === undefined) return "generic";
  const match = UNIT.exec(bracket);
  if (match === null) return undefined;
  const [, digits = "", rawUnit = ""] = match;
  const unit = rawUnit === "μs" ? "us" : rawUnit;
  if (unit === "generic") return unit;
  const multiplier = digits === "" ? 1 : Number(digits);
  if (multiplier < 1 || multiplier > MAX_ITEMSIZE) return undefined;
  return multiplier === 1 ? unit : `${multiplier}${unit}`;
}

function byteOrder(kind: SimpleKind, itemsize: number, order: string): ByteOrder {
  if (kind === "b" || kind === "S" || kind === "V" || kind === "O" || itemsize === 1) return "|";
  return order === ">" ? ">" : "<";
}
