// IEEE half precision without Float16Array (not in Node 20). Conversions round a double straight to
// half precision, ties to even, as NumPy's `npy_double_to_half` does; going through float32 first
// would round twice and differ in rare cases.

/** Halfway between 65504, the largest half, and the next step: this and above round to infinity. */
const OVERFLOW = 65520;

/** The half-precision number nearest to `x` (as NumPy's `np.float16(x)`), as a double. */
export function roundToFloat16(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const magnitude = Math.abs(x);
  if (magnitude >= OVERFLOW) return x > 0 ? Infinity : -Infinity;
  // Normal halves have 11 significant bits; below 2^-14 the step stays at 2^-24 (subnormals).
  const exponent = Math.max(floorLog2(magnitude), -14);
  const step = 2 ** (exponent - 10);
  const rounded = roundHalfEven(magnitude / step) * step;
  return x < 0 ? -rounded : rounded;
}

/** The 16 bits of the half nearest to `x`; NaN is NumPy's quiet NaN 0x7e00. */
export function float16Bits(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const magnitude = Math.abs(roundToFloat16(x));
  if (magnitude === Infinity) return sign | 0x7c00;
  if (magnitude === 0) return sign;
  if (magnitude < 2 ** -14) return sign | (magnitude / 2 ** -24);
  const exponent = floorLog2(magnitude);
  const mantissa = magnitude / 2 ** exponent - 1;
  return sign | ((exponent + 15) << 10) | (mantissa * 1024);
}

/** The value of a half given by its 16 bits. */
export function float16FromBits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

function floorLog2(x: number): number {
  let e = Math.floor(Math.log2(x));
  // log2 may be off by one next to powers of two.
  if (2 ** e > x) e--;
  else if (2 ** (e + 1) <= x) e++;
  return e;
}

function roundHalfEven(q: number): number {
  const floor = Math.floor(q);
  const diff = q - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
