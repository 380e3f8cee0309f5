// TensorStore's non-standard zarr v2 dtypes (an extension: zarr-python reads them only with a
// matching NumPy dtype registered, e.g. by ml_dtypes). TensorStore writes them by name in
// `.zarray` ("bfloat16", "float8_e4m3fn", "int4", ...), little-endian, one element per byte for
// the 8-bit floats and for int4/int2 (sign-extended into the byte, as TensorStore's padded ints).
//
// In memory, and so in what `get` returns and `set` takes, the floats are `Float32Array`s (every
// value of these formats is exactly a float32) and the ints `Int8Array`s. Writing rounds to the
// format as ml_dtypes does: to nearest, ties to even, without saturation: a value past the
// largest finite one becomes infinity, or NaN in formats without infinities (the `fn` ones); the
// `fnuz` formats have one NaN (0x80) and no negative zero. Reading gives the float32 ml_dtypes
// gives, bit for bit (a NaN keeps its sign, so writing it back keeps it too). Ints wrap to their
// bits, as NumPy and TensorStore convert. So `get` after `set` gives back exactly the stored values.
// uint4 and uint2 (Zarr v3 extension data types; ml_dtypes has them, TensorStore 0.1.85 does not)
// are held as `Uint8Array`s, one element per byte, zero-extended. float4_e2m1fn (no infinity, no
// NaN: out-of-range values saturate) and float8_e8m0fnu (powers of two only, unsigned, no zero)
// convert as ml_dtypes converts them, which rounds to float32 first: see `encodeFloatCode`.

/** The dtype names TensorStore's zarr driver writes for its extension dtypes. */
export type ExtensionName =
  | "bfloat16"
  | "float8_e3m4"
  | "float8_e4m3fn"
  | "float8_e4m3fnuz"
  | "float8_e4m3b11fnuz"
  | "float8_e5m2"
  | "float8_e5m2fnuz"
  | "float4_e2m1fn"
  | "float8_e8m0fnu"
  | "int4"
  | "int2"
  | "uint4"
  | "uint2";

/** How a float format encodes its special values. */
type Specials =
  /** IEEE-like: the top exponent holds ±infinity (mantissa 0) and NaNs. */
  | "ieee"
  /** No infinities; NaN only where exponent and mantissa are all ones (`fn`). */
  | "fn"
  /** No infinities and no negative zero; the one NaN is the negative-zero code (`fnuz`). */
  | "fnuz"
  /** No infinities and no NaN: values beyond the largest saturate to it (float4_e2m1fn). */
  | "saturate"
  /** No sign, no mantissa, no zero: 2^(code - bias), and 0xff is NaN (float8_e8m0fnu). */
  | "e8m0";

interface FloatFormat {
  readonly kind: "float";
  readonly bits: 4 | 8 | 16;
  readonly exponentBits: number;
  readonly mantissaBits: number;
  readonly bias: number;
  readonly specials: Specials;
}

interface IntFormat {
  readonly kind: "int";
  readonly bits: 2 | 4;
  readonly signed: boolean;
}

export type ExtensionFormat = FloatFormat | IntFormat;

const float = (
  bits: 4 | 8 | 16,
  exponentBits: number,
  mantissaBits: number,
  bias: number,
  specials: Specials,
): FloatFormat => ({
  kind: "float",
  bits,
  exponentBits,
  mantissaBits,
  bias,
  specials,
});

const FORMATS: Readonly<Record<ExtensionName, ExtensionFormat>> = {
  bfloat16: float(16, 8, 7, 127, "ieee"),
  float8_e3m4: float(8, 3, 4, 3, "ieee"),
  float8_e4m3fn: float(8, 4, 3, 7, "fn"),
  float8_e4m3fnuz: float(8, 4, 3, 8, "fnuz"),
  float8_e4m3b11fnuz: float(8, 4, 3, 11, "fnuz"),
  float8_e5m2: float(8, 5, 2, 15, "ieee"),
  float8_e5m2fnuz: float(8, 5, 2, 16, "fnuz"),
  float4_e2m1fn: float(4, 2, 1, 1, "saturate"),
  float8_e8m0fnu: float(8, 8, 0, 127, "e8m0"),
  int4: { kind: "int", bits: 4, signed: true },
  int2: { kind: "int", bits: 2, signed: true },
  uint4: { kind: "int", bits: 4, signed: false },
  uint2: { kind: "int", bits: 2, signed: false },
};

export const EXTENSION_NAMES = Object.keys(FORMATS) as readonly ExtensionName[];

export function isExtensionName(text: string): text is ExtensionName {
  return Object.hasOwn(FORMATS, text);
}

export function extensionFormat(name: ExtensionName): ExtensionFormat {
  return FORMATS[name];
}

/** Bytes per stored element: 2 for bfloat16, 1 for the others. */
export function extensionItemsize(name: ExtensionName): 1 | 2 {
  return FORMATS[name].kind === "float" && FORMATS[name].bits === 16 ? 2 : 1;
}

// --- floats -------------------------------------------------------------------------------------

/** The value of one code of a float format (exact; a float32 holds it). */
export function decodeFloatCode(format: FloatFormat, code: number): number {
  const { bits, exponentBits, mantissaBits, bias, specials } = format;
  if (specials === "e8m0") return code === 0xff ? NaN : 2 ** (code - bias);
  // ml_dtypes reads a float4 byte with any bit above the low three set as negative.
  if (specials === "saturate" && code > 7) code = 8 | (code & 7);
  const signBit = 1 << (bits - 1);
  const maxExponent = (1 << exponentBits) - 1;
  const mantissaMask = (1 << mantissaBits) - 1;
  if (specials === "fnuz" && code === signBit) return NaN;
  const sign = code & signBit ? -1 : 1;
  const e = (code >> mantissaBits) & maxExponent;
  const m = code & mantissaMask;
  if (e === maxExponent) {
    if (specials === "ieee") return m === 0 ? sign * Infinity : NaN;
    if (specials === "fn" && m === mantissaMask) return NaN;
  }
  if (e === 0) return sign * m * 2 ** (1 - bias - mantissaBits);
  return sign * (1 + m / 2 ** mantissaBits) * 2 ** (e - bias);
}

/** The largest finite value of a float format. */
function maxFinite(format: FloatFormat): number {
  const { exponentBits, mantissaBits, bias, specials } = format;
  const maxExponent = (1 << exponentBits) - 1;
  // IEEE formats reserve the top exponent; `fn` only its all-ones mantissa.
  const e = specials === "ieee" ? maxExponent - 1 : maxExponent;
  const m = specials === "fn" ? (1 << mantissaBits) - 2 : (1 << mantissaBits) - 1;
  return (1 + m / 2 ** mantissaBits) * 2 ** (e - bias);
}

const maxima = new WeakMap<FloatFormat, number>();

/**
 * The code of the format's value nearest `x` (ties to even), as ml_dtypes converts: exact from any
 * double, NaN to the format's quiet NaN of the NaN's sign (`fnuz`: 0x80), values beyond the
 * largest finite one (after rounding) to ±infinity or, without infinities, to NaN.
 */
export function encodeFloatCode(format: FloatFormat, x: number): number {
  const { bits, exponentBits, mantissaBits, bias, specials } = format;
  if (specials === "e8m0") return e8m0FromBits(float32Bits(x));
  if (specials === "saturate") {
    // As ml_dtypes: through float32 first; a NaN becomes a zero of the opposite sign.
    if (Number.isNaN(x)) return negativeNaN(x) ? 0 : 8;
    x = Math.fround(x);
  }
  const signBit = 1 << (bits - 1);
  const maxExponent = (1 << exponentBits) - 1;
  const negative = x < 0 || Object.is(x, -0) || (Number.isNaN(x) && negativeNaN(x));
  const sign = negative ? signBit : 0;
  const nan =
    specials === "fnuz"
      ? signBit
      : specials === "fn"
        ? sign | (signBit - 1)
        : sign | (maxExponent << mantissaBits) | (1 << (mantissaBits - 1));
  if (Number.isNaN(x)) return nan;
  const a = Math.abs(x);
  let max = maxima.get(format);
  if (max === undefined) maxima.set(format, (max = maxFinite(format)));
  if (specials === "saturate" && (a === Infinity || a > max)) return sign | ((maxExponent << mantissaBits) | 1);
  if (a === Infinity) return specials === "ieee" ? sign | (maxExponent << mantissaBits) : nan;
  const minNormal = 2 ** (1 - bias);
  // The spacing of representable values around `a`: fixed below the normal range.
  const exponent = a < minNormal ? 1 - bias : binade(a);
  const quantum = 2 ** (exponent - mantissaBits);
  const n = roundHalfEven(a / quantum);
  const v = n * quantum;
  if (v > max) return specials === "ieee" ? sign | (maxExponent << mantissaBits) : nan;
  if (v === 0) return specials === "fnuz" ? 0 : sign;
  if (v < minNormal) return sign | n;
  const e = binade(v);
  const m = v / 2 ** (e - mantissaBits) - 2 ** mantissaBits;
  return sign | ((e + bias) << mantissaBits) | m;
}

const double = new Float64Array(1);
const doubleHigh = new Uint32Array(double.buffer, 4, 1);
const single = new Float32Array(1);
const singleBits = new Uint32Array(single.buffer);

/** The bits of `x` rounded to float32 (a NaN keeps its sign: typed arrays store bits as they are). */
function float32Bits(x: number): number {
  single[0] = x;
  return singleBits[0]!;
}

/**
 * float8_e8m0fnu from float32 bits, as ml_dtypes converts (checked on 200,000 random patterns):
 * the exponent field, plus one when the mantissa is at least a half (more than a half below the
 * normal range); NaN for zero, negatives, infinities, NaNs and overflow.
 */
function e8m0FromBits(bits: number): number {
  const exp = (bits >>> 23) & 0xff;
  const man = bits & 0x7fffff;
  if (bits >>> 31 || exp === 0xff || (exp === 0 && man === 0)) return 0xff;
  if (exp === 0) return man > 0x400000 ? 1 : 0;
  const code = exp + (man >= 0x400000 ? 1 : 0);
  return code > 0xfe ? 0xff : code;
}

/** Whether a NaN's sign bit is set (a typed array stores a double's bits as they are). */
function negativeNaN(x: number): boolean {
  double[0] = x;
  return doubleHigh[0]! >>> 31 === 1;
}

/** floor(log2(a)) for a finite positive double, exactly. */
function binade(a: number): number {
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  return e;
}

function roundHalfEven(n: number): number {
  const floor = Math.floor(n);
  const rest = n - floor;
  if (rest > 0.5) return floor + 1;
  if (rest < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

const tables = new WeakMap<FloatFormat, Uint32Array>();

/**
 * The float32 bits of the value of each of the 256 codes of an 8-bit format, as ml_dtypes converts
 * them: a NaN becomes the quiet float32 NaN with the code's sign (the `fnuz` formats' one NaN, the
 * negative-zero code 0x80, is a negative NaN). Bits, not numbers: a JS number does not promise to
 * keep a NaN's sign.
 */
function decodeTable(format: FloatFormat): Uint32Array {
  let table = tables.get(format);
  if (table === undefined) {
    table = new Uint32Array(256);
    const one = new Float32Array(1);
    const signBit = 1 << (format.bits - 1);
    for (let code = 0; code < 256; code++) {
      const value = decodeFloatCode(format, code);
      if (Number.isNaN(value)) {
        table[code] = code & signBit && format.specials !== "e8m0" ? 0xffc00000 : 0x7fc00000;
      } else {
        one[0] = value;
        table[code] = new Uint32Array(one.buffer)[0]!;
      }
    }
    tables.set(format, table);
  }
  return table;
}

// --- ints ---------------------------------------------------------------------------------------

/**
 * The value of a stored byte: its low `bits` bits, sign-extended for the signed formats (higher
 * bits are ignored, as TensorStore and ml_dtypes read them).
 */
function decodeIntByte(format: IntFormat, byte: number): number {
  if (!format.signed) return byte & ((1 << format.bits) - 1);
  const shift = 32 - format.bits;
  return (byte << shift) >> shift;
}

/**
 * The stored byte of an int: wrapped to `bits` bits and sign-extended into the byte (zero-extended
 * for the unsigned formats), as TensorStore's padded ints store it.
 */
function encodeIntByte(format: IntFormat, value: number): number {
  return decodeIntByte(format, value) & 0xff;
}

// --- chunks -------------------------------------------------------------------------------------

/**
 * Stored bytes (little-endian) to the in-memory values: a `Float32Array`, an `Int8Array` (int4,
 * int2) or a `Uint8Array` (uint4, uint2). Floats
 * are the float32s ml_dtypes converts each code to, bit for bit: a NaN keeps its sign (and, in
 * bfloat16, its payload), so `encodeExtension` gives back the stored NaN's sign.
 */
export function decodeExtension(name: ExtensionName, bytes: Uint8Array): Float32Array | Int8Array | Uint8Array {
  const format = FORMATS[name];
  if (format.kind === "int") {
    const out = format.signed ? new Int8Array(bytes.length) : new Uint8Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) out[i] = decodeIntByte(format, bytes[i]!);
    return out;
  }
  if (format.bits === 16) {
    // bfloat16 is the upper half of a float32.
    const n = bytes.length >> 1;
    const out = new Float32Array(n);
    const words = new Uint32Array(out.buffer);
    for (let i = 0; i < n; i++) words[i] = (bytes[2 * i]! | (bytes[2 * i + 1]! << 8)) << 16;
    return out;
  }
  const table = decodeTable(format);
  const out = new Float32Array(bytes.length);
  const words = new Uint32Array(out.buffer);
  for (let i = 0; i < bytes.length; i++) words[i] = table[bytes[i]!]!;
  return out;
}

/**
 * In-memory values to stored bytes (little-endian), rounded or wrapped as described above. A
 * `Float32Array` (what arrays hold) takes a fast path on its bits; other numbers are rounded
 * exactly from their double value.
 */
export function encodeExtension(name: ExtensionName, values: ArrayLike<number>): Uint8Array {
  const format = FORMATS[name];
  if (format.kind === "int") {
    const out = new Uint8Array(values.length);
    for (let i = 0; i < values.length; i++) out[i] = encodeIntByte(format, values[i]!);
    return out;
  }
  const bits =
    values instanceof Float32Array ? new Uint32Array(values.buffer, values.byteOffset, values.length) : undefined;
  if (format.bits === 16) {
    const out = new Uint8Array(values.length * 2);
    for (let i = 0; i < values.length; i++) {
      const code = bits === undefined ? encodeFloatCode(format, values[i]!) : bfloat16FromBits(bits[i]!);
      out[2 * i] = code & 0xff;
      out[2 * i + 1] = code >> 8;
    }
    return out;
  }
  const out = new Uint8Array(values.length);
  if (bits === undefined) {
    for (let i = 0; i < values.length; i++) out[i] = encodeFloatCode(format, values[i]!);
  } else if (format.specials === "e8m0") {
    for (let i = 0; i < values.length; i++) out[i] = e8m0FromBits(bits[i]!);
  } else if (format.specials === "saturate") {
    // A NaN's sign from its bits (a JS number need not keep it); other values are float32s already.
    for (let i = 0; i < values.length; i++) {
      const b = bits[i]!;
      out[i] = (b & 0x7fffffff) > 0x7f800000 ? (b >>> 31 ? 0 : 8) : encodeFloatCode(format, values[i]!);
    }
  } else {
    const plan = float8Plan(format);
    for (let i = 0; i < values.length; i++) out[i] = float8FromBits(plan, bits[i]!);
  }
  return out;
}

/** bfloat16 from float32 bits: round to nearest even on the upper half; NaN to the quiet NaN, keeping the sign. */
function bfloat16FromBits(bits: number): number {
  if ((bits & 0x7fffffff) > 0x7f800000) return ((bits >>> 16) & 0x8000) | 0x7fc0;
  return (bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16;
}

/** What `float8FromBits` needs of an 8-bit format, computed once. */
interface Float8Plan {
  readonly mantissaBits: number;
  readonly bias: number;
  readonly specials: Specials;
  readonly nanPositive: number;
  readonly infinity: number;
  /** The largest finite magnitude code. */
  readonly maxCode: number;
}

const plans = new WeakMap<FloatFormat, Float8Plan>();

function float8Plan(format: FloatFormat): Float8Plan {
  let plan = plans.get(format);
  if (plan === undefined) {
    const { exponentBits, mantissaBits, bias, specials } = format;
    const maxExponent = (1 << exponentBits) - 1;
    const mantissaMask = (1 << mantissaBits) - 1;
    plan = {
      mantissaBits,
      bias,
      specials,
      nanPositive: encodeFloatCode(format, NaN),
      infinity: maxExponent << mantissaBits,
      maxCode:
        specials === "ieee"
          ? ((maxExponent - 1) << mantissaBits) | mantissaMask
          : specials === "fn"
            ? (maxExponent << mantissaBits) | (mantissaMask - 1)
            : 0x7f,
    };
    plans.set(format, plan);
  }
  return plan;
}

/** `encodeFloatCode` for a float32 given by its bits, with integer arithmetic only (the same results). */
function float8FromBits(plan: Float8Plan, bits: number): number {
  const { mantissaBits, bias, specials } = plan;
  const sign = bits >>> 31 ? 0x80 : 0;
  const exp = (bits >>> 23) & 0xff;
  const man = bits & 0x7fffff;
  const nan = specials === "fnuz" ? 0x80 : specials === "fn" ? sign | 0x7f : sign | plan.nanPositive;
  if (exp === 0xff) return man !== 0 ? nan : specials === "ieee" ? sign | plan.infinity : nan;
  // value = significand * 2^(e - 23); float32 subnormals are far below every format's smallest value.
  const significand = exp === 0 ? man : man | 0x800000;
  const target = (exp === 0 ? -126 : exp - 127) + bias;
  const shift = 23 - mantissaBits + (target >= 1 ? 0 : 1 - target);
  let code = 0;
  if (shift <= 24) {
    let q = significand >>> shift;
    const rest = significand & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rest > half || (rest === half && (q & 1) === 1)) q++;
    // A rounding carry into the next binade moves the exponent up by itself.
    code = target >= 1 ? ((target - 1) << mantissaBits) + q : q;
  }
  if (code > plan.maxCode) return specials === "ieee" ? sign | plan.infinity : nan;
  if (code === 0) return specials === "fnuz" ? 0 : sign;
  return sign | code;
}

/** `x` as the nearest value of a float format (NaN for NaN and, without infinities, for overflow). */
export function roundToExtension(name: ExtensionName, x: number): number {
  const format = FORMATS[name];
  if (format.kind === "int") return decodeIntByte(format, x);
  return decodeFloatCode(format, encodeFloatCode(format, x));
}

/** The range of an int format, e.g. [-8, 7] for int4, [0, 15] for uint4. */
export function extensionIntRange(name: ExtensionName): readonly [number, number] | undefined {
  const format = FORMATS[name];
  if (format.kind !== "int") return undefined;
  return format.signed ? [-(2 ** (format.bits - 1)), 2 ** (format.bits - 1) - 1] : [0, 2 ** format.bits - 1];
}
