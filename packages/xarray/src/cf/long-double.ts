// x87 extended precision (NumPy's longdouble on x86-64 Linux: a 64-bit significand), for the one
// product cftime computes in it: a float64 count times an integer number of microseconds.

/** A value `significand * 2 ** exponent`, exact. */
export class Exact {
  constructor(
    readonly significand: bigint,
    readonly exponent: number,
  ) {}

  /** -1, 0 or 1 as this is below, equal to or above the integer `other`. */
  compare(other: bigint): number {
    const [a, b] =
      this.exponent >= 0
        ? [this.significand << BigInt(this.exponent), other]
        : [this.significand, other << BigInt(-this.exponent)];
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** The nearest integer, ties to even (NumPy's `rint`). */
  rint(): bigint {
    if (this.exponent >= 0) return this.significand << BigInt(this.exponent);
    return shiftRoundHalfEven(this.significand, -this.exponent);
  }

  floor(): bigint {
    if (this.exponent >= 0) return this.significand << BigInt(this.exponent);
    return this.significand >> BigInt(-this.exponent);
  }

  ceil(): bigint {
    if (this.exponent >= 0) return this.significand << BigInt(this.exponent);
    return -(-this.significand >> BigInt(-this.exponent));
  }
}

const SIGNIFICAND_BITS = 64;

/** `value * factor` rounded to a 64-bit significand, ties to even, as the x87 multiplies. */
export function longDoubleProduct(value: number, factor: bigint): Exact {
  const [significand, exponent] = decompose(value);
  const product = significand * factor;
  const magnitude = product < 0n ? -product : product;
  const extra = bitLength(magnitude) - SIGNIFICAND_BITS;
  if (extra <= 0) return new Exact(product, exponent);
  const rounded = shiftRoundHalfEven(magnitude, extra);
  return new Exact(product < 0n ? -rounded : rounded, exponent + extra);
}

/** A finite float64 as an integer significand and a power of two. */
function decompose(value: number): [bigint, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n === 1n ? -1n : 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (biased === 0) return [sign * fraction, -1074];
  return [sign * (fraction | (1n << 52n)), biased - 1075];
}

function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length;
}

/** `value / 2 ** shift` rounded to the nearest integer, ties to even (any sign). */
function shiftRoundHalfEven(value: bigint, shift: number): bigint {
  const divisor = 1n << BigInt(shift);
  const floor = value >> BigInt(shift);
  const rest = value - floor * divisor;
  const twice = rest * 2n;
  if (twice > divisor || (twice === divisor && floor % 2n !== 0n)) return floor + 1n;
  return floor;
}
