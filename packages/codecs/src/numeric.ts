/*
 * A small model of NumPy 1.24 arithmetic on one-dimensional arrays of booleans, integers and
 * floats, for the numcodecs filters that compute (delta, fixedscaleoffset, quantize, astype,
 * categorize, vlen-array): element types and byte orders, `astype` casts (including what this
 * platform's NumPy does with floats out of an integer's range), the value-based promotion NumPy
 * applies to `array op python_scalar`, and element-wise `+ - * /` rounded or wrapped in the result
 * type, as NumPy's loops do. Internal to the package.
 */

/** `b` bool, `i` signed, `u` unsigned, `f` IEEE float. */
export type NumericKind = "b" | "i" | "u" | "f";

export interface NumericType {
  readonly kind: NumericKind;
  readonly size: 1 | 2 | 4 | 8;
  readonly littleEndian: boolean;
}

/** Values of an array: doubles for every type but 8-byte integers, which are bigints. */
export type NumericData = Float64Array | BigInt64Array | BigUint64Array;

export interface NumericArray {
  readonly type: NumericType;
  readonly data: NumericData;
}

/** A Python `int` or `float` (a codec parameter), which NumPy treats by value. */
export type PyScalar =
  | { readonly float: false; readonly value: bigint }
  | { readonly float: true; readonly value: number };

/** A failure NumPy would raise too (e.g. subtracting booleans); codecs turn it into a CodecError. */
export class NumericError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NumericError";
  }
}

const NUMERIC = /^([<>|])([biuf])(1|2|4|8)$/;

/** The numeric type of a normalised NumPy type string (`<i4`, `>f8`, `|b1`), or `undefined`. */
export function numericType(dtype: string): NumericType | undefined {
  const match = NUMERIC.exec(dtype);
  if (!match) return undefined;
  const kind = match[2] as NumericKind;
  const size = Number(match[3]) as 1 | 2 | 4 | 8;
  if (kind === "b" && size !== 1) return undefined;
  if (kind === "f" && size === 1) return undefined;
  return { kind, size, littleEndian: match[1] !== ">" };
}

/** NumPy's `dtype.str` of a numeric type. */
export function typeString(type: NumericType): string {
  const order = type.size === 1 ? "|" : type.littleEndian ? "<" : ">";
  return `${order}${type.kind}${type.size}`;
}

const native = (kind: NumericKind, size: 1 | 2 | 4 | 8): NumericType => ({ kind, size, littleEndian: true });
const F8 = native("f", 8);
const I8 = native("i", 8);

function isBig(type: NumericType): boolean {
  return type.size === 8 && (type.kind === "i" || type.kind === "u");
}

function allocate(type: NumericType, length: number): NumericData {
  if (!isBig(type)) return new Float64Array(length);
  return type.kind === "i" ? new BigInt64Array(length) : new BigUint64Array(length);
}

// ---------------------------------------------------------------------------------------------
// Bytes

/** Reads `bytes` as elements of `type`; throws if they are not a whole number of elements. */
export function readArray(bytes: Uint8Array, type: NumericType): NumericArray {
  if (bytes.length % type.size !== 0) {
    throw new NumericError(
      `${bytes.length} bytes are not a whole number of ${type.size}-byte ${typeString(type)} elements`,
    );
  }
  const n = bytes.length / type.size;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = type.littleEndian;
  const data = allocate(type, n);
  const size = type.size;
  if (isBig(type)) {
    const out = data as BigInt64Array | BigUint64Array;
    if (type.kind === "i") for (let i = 0; i < n; i++) out[i] = view.getBigInt64(i * 8, le);
    else for (let i = 0; i < n; i++) out[i] = view.getBigUint64(i * 8, le);
    return { type, data };
  }
  const out = data as Float64Array;
  switch (`${type.kind}${size}`) {
    case "b1":
    case "u1":
      out.set(bytes);
      break;
    case "i1":
      out.set(new Int8Array(bytes.buffer, bytes.byteOffset, n));
      break;
    case "i2":
      for (let i = 0; i < n; i++) out[i] = view.getInt16(i * 2, le);
      break;
    case "u2":
      for (let i = 0; i < n; i++) out[i] = view.getUint16(i * 2, le);
      break;
    case "i4":
      for (let i = 0; i < n; i++) out[i] = view.getInt32(i * 4, le);
      break;
    case "u4":
      for (let i = 0; i < n; i++) out[i] = view.getUint32(i * 4, le);
      break;
    case "f2":
      for (let i = 0; i < n; i++) out[i] = float16FromBits(view.getUint16(i * 2, le));
      break;
    case "f4":
      for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, le);
      break;
    case "f8":
      for (let i = 0; i < n; i++) out[i] = view.getFloat64(i * 8, le);
      break;
  }
  return { type, data };
}

/** The bytes of `array` in its type's byte order. Booleans are written as 0 or 1. */
export function writeArray(array: NumericArray): Uint8Array {
  const { type, data } = array;
  const n = data.length;
  const bytes = new Uint8Array(n * type.size);
  const view = new DataView(bytes.buffer);
  const le = type.littleEndian;
  if (isBig(type)) {
    const values = data as BigInt64Array | BigUint64Array;
    if (type.kind === "i") for (let i = 0; i < n; i++) view.setBigInt64(i * 8, values[i] as bigint, le);
    else for (let i = 0; i < n; i++) view.setBigUint64(i * 8, values[i] as bigint, le);
    return bytes;
  }
  const values = data as Float64Array;
  switch (`${type.kind}${type.size}`) {
    case "b1":
      for (let i = 0; i < n; i++) bytes[i] = values[i] ? 1 : 0;
      break;
    case "u1":
    case "i1":
      for (let i = 0; i < n; i++) bytes[i] = values[i]! & 0xff;
      break;
    case "i2":
    case "u2":
      for (let i = 0; i < n; i++) view.setUint16(i * 2, values[i]! & 0xffff, le);
      break;
    case "i4":
    case "u4":
      for (let i = 0; i < n; i++) view.setUint32(i * 4, values[i]! >>> 0, le);
      break;
    case "f2":
      for (let i = 0; i < n; i++) view.setUint16(i * 2, float16Bits(values[i]!), le);
      break;
    case "f4":
      for (let i = 0; i < n; i++) view.setFloat32(i * 4, values[i]!, le);
      break;
    case "f8":
      for (let i = 0; i < n; i++) view.setFloat64(i * 8, values[i]!, le);
      break;
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Casts

const TWO31 = 2 ** 31;
const TWO32 = 2 ** 32;
const TWO63 = 2 ** 63;
const TWO64 = 2 ** 64;

/** Wraps an integral double (|x| < 2^53) or bigint into an integer type of at most 4 bytes. */
function wrapSmall(x: number, kind: NumericKind, size: number): number {
  if (kind === "i") return size === 1 ? (x << 24) >> 24 : size === 2 ? (x << 16) >> 16 : x | 0;
  return size === 1 ? x & 0xff : size === 2 ? x & 0xffff : x >>> 0;
}

/**
 * A float to an integer type as NumPy 1.24 casts it on x86-64: truncated toward zero, and wrapped
 * when it fits the C conversion NumPy uses; outside that (and NaN), what the hardware conversion
 * yields. Out-of-range casts are undefined in C; these are the values this platform's NumPy gives.
 */
function floatToInt(x: number, kind: NumericKind, size: number): number | bigint {
  const t = Math.trunc(x);
  if (size === 8) {
    if (kind === "i") return t >= -TWO63 && t < TWO63 ? BigInt(t) : -(2n ** 63n);
    if (t >= 0 && t < TWO64) return BigInt(t);
    if (t >= -TWO63 && t < 0) return BigInt.asUintN(64, BigInt(t));
    return t >= TWO64 ? 0n : 2n ** 63n;
  }
  if (kind === "u" && size === 4) {
    if (t >= 0 && t < TWO32) return t;
    if (t >= -TWO31 && t < 0) return t >>> 0;
    return t >= TWO32 ? 0 : TWO31;
  }
  // Via a 32-bit signed conversion, which gives INT_MIN when out of range.
  const int32 = t >= -TWO31 && t < TWO31 ? t : -TWO31;
  return wrapSmall(int32, kind, size);
}

/** The float32 nearest to an integer, rounding once (Number(big) then fround would round twice). */
function bigintToFloat32(v: bigint): number {
  const negative = v < 0n;
  const magnitude = negative ? -v : v;
  if (magnitude <= 2n ** 53n) return Math.fround(Number(v));
  const length = magnitude.toString(2).length;
  const shift = BigInt(length - 24);
  let mantissa = magnitude >> shift;
  const rest = magnitude - (mantissa << shift);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (mantissa & 1n) === 1n)) mantissa += 1n;
  const result = Number(mantissa) * 2 ** Number(shift);
  return negative ? -result : result;
}

/** Casts one value of type `from` to type `to` as NumPy's `astype` (unsafe casting) does. */
export function castValue(value: number | bigint, from: NumericType, to: NumericType): number | bigint {
  if (to.kind === "b") return (typeof value === "bigint" ? value !== 0n : value !== 0) ? 1 : 0;
  if (to.kind === "f") {
    if (typeof value === "bigint") {
      if (to.size === 8) return Number(value);
      if (to.size === 4) return bigintToFloat32(value);
      return roundToFloat16(Number(value));
    }
    return to.size === 8 ? value : to.size === 4 ? Math.fround(value) : roundToFloat16(value);
  }
  // Integer targets.
  if (typeof value === "bigint") {
    return to.size === 8
      ? to.kind === "i"
        ? BigInt.asIntN(64, value)
        : BigInt.asUintN(64, value)
      : wrapSmall(Number(BigInt.asIntN(32, value)), to.kind, to.size);
  }
  if (from.kind === "f") return floatToInt(value, to.kind, to.size);
  if (to.size === 8) return to.kind === "i" ? BigInt.asIntN(64, BigInt(value)) : BigInt.asUintN(64, BigInt(value));
  return wrapSmall(value, to.kind, to.size);
}

/** `array.astype(to)`. */
export function cast(array: NumericArray, to: NumericType): NumericArray {
  const { type: from, data } = array;
  if (from.kind === to.kind && from.size === to.size) return { type: to, data };
  const n = data.length;
  if (!isBig(from) && !isBig(to)) {
    const input = data as Float64Array;
    if (to.kind === "f" && exactIn(from, to.size)) return { type: to, data: input.slice() };
    const out = new Float64Array(n);
    if (to.kind === "b") {
      for (let i = 0; i < n; i++) out[i] = input[i] !== 0 ? 1 : 0;
    } else if (to.kind === "f") {
      if (to.size === 4) for (let i = 0; i < n; i++) out[i] = Math.fround(input[i]!);
      else for (let i = 0; i < n; i++) out[i] = roundToFloat16(input[i]!);
    } else if (from.kind === "f") {
      const min = to.kind === "u" ? 0 : -(2 ** (to.size * 8 - 1));
      const max = to.kind === "u" ? 2 ** (to.size * 8) - 1 : 2 ** (to.size * 8 - 1) - 1;
      for (let i = 0; i < n; i++) {
        const x = input[i]!;
        // In range (the usual case) truncation is all; outside, NumPy's platform behaviour.
        out[i] = x > min - 1 && x < max + 1 ? Math.trunc(x) : (floatToInt(x, to.kind, to.size) as number);
      }
    } else {
      out.set(input);
      wrapInPlace(out, to);
    }
    return { type: to, data: out };
  }
  const out = allocate(to, n);
  for (let i = 0; i < n; i++) (out as unknown as (number | bigint)[])[i] = castValue(data[i]!, from, to);
  return { type: to, data: out };
}

/** Wraps integral doubles (|x| < 2^53) into an integer type of at most 4 bytes, in place. */
function wrapInPlace(values: Float64Array, type: NumericType): void {
  const n = values.length;
  switch (`${type.kind}${type.size}`) {
    case "i1":
      for (let i = 0; i < n; i++) values[i] = (values[i]! << 24) >> 24;
      break;
    case "i2":
      for (let i = 0; i < n; i++) values[i] = (values[i]! << 16) >> 16;
      break;
    case "i4":
      for (let i = 0; i < n; i++) values[i] = values[i]! | 0;
      break;
    case "u1":
      for (let i = 0; i < n; i++) values[i] = values[i]! & 0xff;
      break;
    case "u2":
      for (let i = 0; i < n; i++) values[i] = values[i]! & 0xffff;
      break;
    case "u4":
      for (let i = 0; i < n; i++) values[i] = values[i]! >>> 0;
      break;
    case "b1":
      for (let i = 0; i < n; i++) values[i] = values[i] !== 0 ? 1 : 0;
      break;
  }
}

/** Whether every value of `from` is a float of `size` bytes as it is (so a cast needs no rounding). */
function exactIn(from: NumericType, size: number): boolean {
  if (from.kind === "f") return from.size <= size;
  return from.size === 1 || (from.size === 2 && size >= 4) || (from.size === 4 && size === 8);
}

/** A Python scalar cast to `to` (NumPy converts it to a 0-d array of that type first). */
function castScalar(scalar: PyScalar, to: NumericType): number | bigint {
  if (scalar.float) return castValue(scalar.value, F8, to);
  return castValue(scalar.value, I8, to);
}

// ---------------------------------------------------------------------------------------------
// Type promotion

function category(kind: NumericKind): number {
  return kind === "b" ? 0 : kind === "f" ? 2 : 1;
}

/** `numpy.promote_types` for two numeric types (results are native, little-endian). */
export function promoteTypes(a: NumericType, b: NumericType): NumericType {
  if (a.kind === b.kind) return native(a.kind, Math.max(a.size, b.size) as 1 | 2 | 4 | 8);
  if (a.kind === "b") return native(b.kind, b.size);
  if (b.kind === "b") return native(a.kind, a.size);
  if (a.kind === "f" || b.kind === "f") {
    const [f, n] = a.kind === "f" ? [a, b] : [b, a];
    const needed = n.size === 1 ? 2 : n.size === 2 ? 4 : 8;
    return native("f", Math.max(f.size, needed) as 2 | 4 | 8);
  }
  const [s, u] = a.kind === "i" ? [a, b] : [b, a];
  if (u.size < s.size) return native("i", s.size);
  if (u.size < 8) return native("i", (u.size * 2) as 2 | 4 | 8);
  return F8;
}

/** `numpy.min_scalar_type` of a Python scalar, and whether an unsigned result also fits the signed type. */
function minScalarType(scalar: PyScalar): { type: NumericType; smallUnsigned: boolean } {
  if (scalar.float) {
    const v = scalar.value;
    const size = !Number.isFinite(v) || (v > -65000 && v < 65000) ? 2 : v > -3.4e38 && v < 3.4e38 ? 4 : 8;
    return { type: native("f", size), smallUnsigned: false };
  }
  const v = scalar.value;
  if (v >= 0n) {
    for (const size of [1, 2, 4, 8] as const) {
      const bits = BigInt(size * 8);
      if (v < 1n << bits) return { type: native("u", size), smallUnsigned: v < 1n << (bits - 1n) };
    }
  } else {
    for (const size of [1, 2, 4, 8] as const) {
      if (v >= -(1n << BigInt(size * 8 - 1))) return { type: native("i", size), smallUnsigned: false };
    }
  }
  throw new NumericError(`the Python integer ${v} does not fit a 64-bit NumPy integer`);
}

/**
 * The type of `array op scalar` under NumPy 1.24's value-based casting: a scalar of the array's
 * category or lower counts by its value (`int8_array + 100` stays int8, `float16_array + 1000` is
 * float32); a scalar of a higher category by its default type (int64 or float64).
 */
export function scalarResultType(type: NumericType, scalar: PyScalar): NumericType {
  const scalarCategory = scalar.float ? 2 : 1;
  if (category(type.kind) < scalarCategory) {
    if (scalar.float) return promoteTypes(type, F8);
    // A Python int is an int64, or a uint64 when only that holds it.
    if (scalar.value >= -(2n ** 63n) && scalar.value < 2n ** 63n) return promoteTypes(type, I8);
    if (scalar.value >= 0n && scalar.value < 2n ** 64n) return promoteTypes(type, native("u", 8));
    throw new NumericError(`the Python integer ${scalar.value} does not fit a 64-bit NumPy integer`);
  }
  const { type: scalarType, smallUnsigned } = minScalarType(scalar);
  if (smallUnsigned && (type.kind === "i" || type.kind === "f")) {
    return promoteTypes(type, native("i", scalarType.size));
  }
  return promoteTypes(type, scalarType);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

export type BinaryOp = "add" | "subtract" | "multiply" | "divide";

/** The NaN x86 produces for an invalid operation (inf - inf, 0 * inf): the negative quiet NaN. */
const DEFAULT_NAN = new Float64Array(new BigUint64Array([0xfff8000000000000n]).buffer)[0]!;

/**
 * The NaN x86's SSE arithmetic returns for `first op second` in NumPy's loops: the NaN operand's,
 * the first one's when both are NaN (the second one's with `secondFirst`: NumPy's float16 add and
 * multiply loops are compiled with their operands swapped), else the default NaN. JS engines may
 * swap the operands of `+` and `*` themselves, so NaNs are picked by hand.
 */
function pickNaN(first: number, second: number, secondFirst: boolean): number {
  if (secondFirst) {
    if (second !== second) return second;
    if (first !== first) return first;
  } else {
    if (first !== first) return first;
    if (second !== second) return second;
  }
  return DEFAULT_NAN;
}

/**
 * `a[aStart + i] op b[bStart + i]` (or `op b` for a scalar `b`; `b op a` with `swap`) for `n`
 * elements, as NumPy's loop for `type` computes it: floats rounded to their type with NaNs as x86
 * gives them, integers wrapped (products of 4-byte integers taken exactly with `Math.imul`).
 */
function combine(
  op: BinaryOp,
  type: NumericType,
  a: Float64Array,
  aStart: number,
  b: Float64Array | number,
  bStart: number,
  n: number,
  swap: boolean,
): Float64Array {
  if (type.kind === "b" && (op === "subtract" || op === "divide"))
    throw new NumericError(`NumPy does not ${op} booleans`);
  if (type.kind !== "f" && op === "divide") throw new NumericError("integer true division is done in float64");
  const out = new Float64Array(n);
  const imul = op === "multiply" && type.size === 4 && type.kind !== "f";
  if (typeof b === "number") {
    switch (op) {
      case "add":
        for (let i = 0; i < n; i++) out[i] = a[aStart + i]! + b;
        break;
      case "multiply":
        if (imul) for (let i = 0; i < n; i++) out[i] = Math.imul(a[aStart + i]!, b);
        else for (let i = 0; i < n; i++) out[i] = a[aStart + i]! * b;
        break;
      case "subtract":
        if (swap) for (let i = 0; i < n; i++) out[i] = b - a[aStart + i]!;
        else for (let i = 0; i < n; i++) out[i] = a[aStart + i]! - b;
        break;
      case "divide":
        if (swap) for (let i = 0; i < n; i++) out[i] = b / a[aStart + i]!;
        else for (let i = 0; i < n; i++) out[i] = a[aStart + i]! / b;
        break;
    }
  } else {
    switch (op) {
      case "add":
        for (let i = 0; i < n; i++) out[i] = a[aStart + i]! + b[bStart + i]!;
        break;
      case "multiply":
        if (imul) for (let i = 0; i < n; i++) out[i] = Math.imul(a[aStart + i]!, b[bStart + i]!);
        else for (let i = 0; i < n; i++) out[i] = a[aStart + i]! * b[bStart + i]!;
        break;
      case "subtract":
        if (swap) for (let i = 0; i < n; i++) out[i] = b[bStart + i]! - a[aStart + i]!;
        else for (let i = 0; i < n; i++) out[i] = a[aStart + i]! - b[bStart + i]!;
        break;
      case "divide":
        if (swap) for (let i = 0; i < n; i++) out[i] = b[bStart + i]! / a[aStart + i]!;
        else for (let i = 0; i < n; i++) out[i] = a[aStart + i]! / b[bStart + i]!;
        break;
    }
  }
  if (type.kind !== "f") {
    wrapInPlace(out, type);
    return out;
  }
  const secondFirst = type.size === 2 && (op === "add" || op === "multiply");
  for (let i = 0; i < n; i++) {
    if (out[i] !== out[i]) {
      const x = a[aStart + i]!;
      const y = typeof b === "number" ? b : b[bStart + i]!;
      out[i] = swap ? pickNaN(y, x, secondFirst) : pickNaN(x, y, secondFirst);
    }
  }
  if (type.size === 4) for (let i = 0; i < n; i++) out[i] = Math.fround(out[i]!);
  else if (type.size === 2) for (let i = 0; i < n; i++) out[i] = roundToFloat16(Math.fround(out[i]!));
  return out;
}

type BigOp = (a: bigint, b: bigint) => bigint;

function bigOp(op: BinaryOp, type: NumericType): BigOp {
  const wrap = type.kind === "i" ? (x: bigint) => BigInt.asIntN(64, x) : (x: bigint) => BigInt.asUintN(64, x);
  switch (op) {
    case "add":
      return (a, b) => wrap(a + b);
    case "subtract":
      return (a, b) => wrap(a - b);
    case "multiply":
      return (a, b) => wrap(a * b);
    case "divide":
      throw new NumericError("integer true division is done in float64");
  }
}

/** 32-bit words of 64-bit integers, low word first, when the platform is little-endian (else undefined). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function words(data: BigInt64Array | BigUint64Array): Uint32Array | undefined {
  return LITTLE_ENDIAN ? new Uint32Array(data.buffer, data.byteOffset, data.length * 2) : undefined;
}

/** `array op scalar` (or `scalar op array` with `scalarFirst`), typed as NumPy 1.24 types it. */
export function scalarOp(array: NumericArray, op: BinaryOp, scalar: PyScalar, scalarFirst = false): NumericArray {
  let type = scalarResultType(array.type, scalar);
  // True division of integers (and booleans) by integers is done in float64.
  if (op === "divide" && type.kind !== "f") type = F8;
  const operand = cast(array, type);
  const s = castScalar(scalar, type);
  const n = operand.data.length;
  if (!isBig(type)) {
    return { type, data: combine(op, type, operand.data as Float64Array, 0, s as number, 0, n, scalarFirst) };
  }
  const out = allocate(type, n) as BigInt64Array | BigUint64Array;
  const f = bigOp(op, type);
  const input = operand.data as BigInt64Array | BigUint64Array;
  const b = s as bigint;
  for (let i = 0; i < n; i++) out[i] = scalarFirst ? f(b, input[i]!) : f(input[i]!, b);
  return { type, data: out };
}

/** `numpy.around(array)`: floats rounded half to even, integers unchanged. */
export function around(array: NumericArray): NumericArray {
  if (array.type.kind !== "f") return array;
  const input = array.data as Float64Array;
  const out = new Float64Array(input.length);
  for (let i = 0; i < input.length; i++) out[i] = roundHalfEven(input[i]!);
  return { type: array.type, data: out };
}

/** `numpy.diff(array)` in the array's own type. */
export function diff(array: NumericArray): NumericArray {
  const { type, data } = array;
  const n = Math.max(data.length - 1, 0);
  if (!isBig(type)) {
    const values = data as Float64Array;
    return { type, data: combine("subtract", type, values, 1, values, 0, n, false) };
  }
  const input = data as BigInt64Array | BigUint64Array;
  const out = allocate(type, n) as BigInt64Array | BigUint64Array;
  const w = words(input);
  const o = words(out);
  if (w && o) {
    // Two's complement subtraction with borrow, the same for signed and unsigned.
    for (let i = 0; i < n; i++) {
      const lo = w[2 * i + 2]! - w[2 * i]!;
      o[2 * i] = lo >>> 0;
      o[2 * i + 1] = (w[2 * i + 3]! - w[2 * i + 1]! - (lo < 0 ? 1 : 0)) >>> 0;
    }
  } else {
    const f = bigOp("subtract", type);
    for (let i = 0; i < n; i++) out[i] = f(input[i + 1]!, input[i]!);
  }
  return { type, data: out };
}

/**
 * `numpy.cumsum(array, out=result)` with `result` of type `to`. NumPy 1.24 runs the accumulation
 * in the promotion of both types (float64 for int32 into uint64, or float64 into int32), keeping
 * the running sum in that type, and casts each sum to `to`.
 */
export function cumsum(array: NumericArray, to: NumericType): NumericArray {
  const loop = promoteTypes(to, array.type);
  const values = cast(array, loop);
  const n = values.data.length;
  if (n === 0) return { type: to, data: allocate(to, 0) };
  if (isBig(loop)) {
    const input = values.data as BigInt64Array | BigUint64Array;
    const sums = allocate(loop, n) as BigInt64Array | BigUint64Array;
    const w = words(input);
    const o = words(sums);
    if (w && o) {
      let lo = 0;
      let hi = 0;
      for (let i = 0; i < n; i++) {
        const sum = lo + w[2 * i]!;
        lo = sum >>> 0;
        hi = (hi + w[2 * i + 1]! + (sum > 0xffffffff ? 1 : 0)) >>> 0;
        o[2 * i] = lo;
        o[2 * i + 1] = hi;
      }
    } else {
      const f = bigOp("add", loop);
      sums[0] = input[0]!;
      for (let i = 1; i < n; i++) sums[i] = f(sums[i - 1]!, input[i]!);
    }
    return cast({ type: loop, data: sums }, to);
  }
  const input = values.data as Float64Array;
  const sums = new Float64Array(n);
  let acc = input[0]!;
  sums[0] = acc;
  switch (`${loop.kind}${loop.size}`) {
    case "i1":
      for (let i = 1; i < n; i++) sums[i] = acc = ((acc + input[i]!) << 24) >> 24;
      break;
    case "i2":
      for (let i = 1; i < n; i++) sums[i] = acc = ((acc + input[i]!) << 16) >> 16;
      break;
    case "i4":
      for (let i = 1; i < n; i++) sums[i] = acc = (acc + input[i]!) | 0;
      break;
    case "u1":
      for (let i = 1; i < n; i++) sums[i] = acc = (acc + input[i]!) & 0xff;
      break;
    case "u2":
      for (let i = 1; i < n; i++) sums[i] = acc = (acc + input[i]!) & 0xffff;
      break;
    case "u4":
      for (let i = 1; i < n; i++) sums[i] = acc = (acc + input[i]!) >>> 0;
      break;
    case "b1":
      for (let i = 1; i < n; i++) sums[i] = acc = acc || input[i] ? 1 : 0;
      break;
    case "f8":
      for (let i = 1; i < n; i++) {
        const x = input[i]!;
        let r = acc + x;
        if (r !== r) r = pickNaN(acc, x, false);
        sums[i] = acc = r;
      }
      break;
    case "f4":
      for (let i = 1; i < n; i++) {
        const x = input[i]!;
        let r = acc + x;
        if (r !== r) r = pickNaN(acc, x, false);
        sums[i] = acc = Math.fround(r);
      }
      break;
    default:
      for (let i = 1; i < n; i++) {
        const x = input[i]!;
        let r = acc + x;
        if (r !== r) r = pickNaN(acc, x, true);
        sums[i] = acc = roundToFloat16(Math.fround(r));
      }
  }
  return cast({ type: loop, data: sums }, to);
}

// ---------------------------------------------------------------------------------------------
// Rounding helpers

/** Round half to even, as C's `rint` in the default rounding mode. */
export function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const floor = Math.floor(x);
  const diff = x - floor;
  let r: number;
  if (diff > 0.5) r = floor + 1;
  else if (diff < 0.5) r = floor;
  else r = floor % 2 === 0 ? floor : floor + 1;
  // Keep the sign of zero, as rint does (-0.4 rounds to -0.0).
  return r === 0 && (x < 0 || Object.is(x, -0)) ? -0 : r;
}

/** The half-precision value nearest to `x` (ties to even), as a double; as NumPy's double→half. */
export function roundToFloat16(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const magnitude = Math.abs(x);
  if (magnitude >= 65520) return x > 0 ? Infinity : -Infinity;
  const exponent = Math.max(floorLog2(magnitude), -14);
  const step = 2 ** (exponent - 10);
  const rounded = roundHalfEven(magnitude / step) * step;
  return x < 0 ? -rounded : rounded;
}

const scratch = new DataView(new ArrayBuffer(8));

/**
 * The 16 bits of the half nearest to `x`. NaNs keep their sign and the top of their payload, as
 * NumPy's `npy_double_to_half` does.
 */
export function float16Bits(x: number): number {
  if (Number.isNaN(x)) {
    scratch.setFloat64(0, x);
    const high = scratch.getUint32(0);
    const payload = (high & 0xfffff) >>> 10;
    return ((high >>> 16) & 0x8000) | 0x7c00 | (payload === 0 ? 1 : payload);
  }
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(roundToFloat16(x));
  if (magnitude === Infinity) return sign | 0x7c00;
  if (magnitude === 0) return sign;
  if (magnitude < 2 ** -14) return sign | (magnitude / 2 ** -24);
  const exponent = floorLog2(magnitude);
  return sign | ((exponent + 15) << 10) | ((magnitude / 2 ** exponent - 1) * 1024);
}

/** The value of a half given by its bits (a NaN keeps its sign and payload, as NumPy's conversion). */
export function float16FromBits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0x1f) {
    if (mantissa === 0) return sign * Infinity;
    scratch.setUint32(0, ((bits & 0x8000) << 16) | 0x7ff00000 | (mantissa << 10));
    scratch.setUint32(4, 0);
    return scratch.getFloat64(0);
  }
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

function floorLog2(x: number): number {
  let e = Math.floor(Math.log2(x));
  if (2 ** e > x) e--;
  else if (2 ** (e + 1) <= x) e++;
  return e;
}
