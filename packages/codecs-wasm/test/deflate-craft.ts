/*
 * Hand-made DEFLATE streams for the inflater's tests: blocks written bit by bit from symbols, with
 * any code lengths (over-subscribed, incomplete, empty), any header counts and any code length
 * symbols, so that each rule of RFC 1951 (and each of zlib's checks) can be hit on purpose.
 */

/** A literal byte, a match, raw codes (any length or distance code with its extra bits), or raw bits. */
export type Sym =
  | number
  | { length: number; distance: number }
  | { lenCode: number; lenExtra?: number; distCode?: number; distExtra?: number }
  | { bits: number; n: number };

const LEN_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

export class BitWriter {
  readonly bytes: number[] = [];
  #bit = 0;

  /** Writes the low `n` bits of `value`, least significant first. */
  bits(value: number, n: number): this {
    for (let i = 0; i < n; i++) {
      if (this.#bit === 0) this.bytes.push(0);
      this.bytes[this.bytes.length - 1]! |= ((value >>> i) & 1) << this.#bit;
      this.#bit = (this.#bit + 1) & 7;
    }
    return this;
  }

  /** Writes a Huffman code of `length` bits, most significant first. */
  code(code: number, length: number): this {
    for (let i = length - 1; i >= 0; i--) this.bits((code >>> i) & 1, 1);
    return this;
  }

  /** Pads to a byte boundary with `fill` bits. */
  align(fill = 0): this {
    while (this.#bit !== 0) this.bits(fill, 1);
    return this;
  }

  result(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** Canonical codes for code lengths (RFC 1951 3.2.2), assigned even when the lengths are not a valid code. */
function canonicalCodes(lengths: readonly number[]): number[] {
  const count = new Array<number>(16).fill(0);
  for (const l of lengths) if (l > 0) count[l]!++;
  const next = new Array<number>(16).fill(0);
  let code = 0;
  for (let l = 1; l < 16; l++) {
    next[l] = code;
    code = (code + count[l]!) << 1;
  }
  return lengths.map((l) => (l > 0 ? next[l]!++ : -1));
}

function lengthCode(length: number): [number, number] {
  let c = 28;
  if (length < 258) for (c = 0; c < 28 && LEN_BASE[c + 1]! <= length; c++);
  return [c, length - LEN_BASE[c]!];
}

function distanceCode(distance: number): [number, number] {
  let c = 0;
  while (c < 29 && DIST_BASE[c + 1]! <= distance) c++;
  return [c, distance - DIST_BASE[c]!];
}

/** Writes `syms` and the end-of-block code with the given code lengths. */
function writeSymbols(
  w: BitWriter,
  syms: readonly Sym[],
  litLengths: readonly number[],
  distLengths: readonly number[],
): void {
  const lit = canonicalCodes(litLengths);
  const dist = canonicalCodes(distLengths);
  const put = (codes: number[], lengths: readonly number[], sym: number) => {
    if (!(lengths[sym]! > 0)) throw new Error(`symbol ${sym} has no code`);
    w.code(codes[sym]!, lengths[sym]!);
  };
  for (const s of syms) {
    if (typeof s === "number") {
      put(lit, litLengths, s);
    } else if ("bits" in s) {
      w.bits(s.bits, s.n);
    } else if ("length" in s) {
      const [lc, le] = lengthCode(s.length);
      put(lit, litLengths, 257 + lc);
      w.bits(le, LEN_EXTRA[lc]!);
      const [dc, de] = distanceCode(s.distance);
      put(dist, distLengths, dc);
      w.bits(de, DIST_EXTRA[dc]!);
    } else {
      put(lit, litLengths, s.lenCode);
      const lc = s.lenCode - 257;
      if (lc >= 0 && lc < 29) w.bits(s.lenExtra ?? 0, LEN_EXTRA[lc]!);
      if (s.distCode !== undefined) {
        put(dist, distLengths, s.distCode);
        if (s.distCode < 30) w.bits(s.distExtra ?? 0, DIST_EXTRA[s.distCode]!);
      }
    }
  }
  if (litLengths[256]! > 0) put(lit, litLengths, 256);
}

/** The fixed code's lengths (RFC 1951 3.2.6), with the invalid symbols 286, 287 and distances 30, 31. */
const FIXED_LIT = Array.from({ length: 288 }, (_, i) => (i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8));
const FIXED_DIST = new Array<number>(32).fill(5);

export function fixedBlock(w: BitWriter, syms: readonly Sym[], final = true): void {
  w.bits(final ? 1 : 0, 1).bits(1, 2);
  writeSymbols(w, syms, FIXED_LIT, FIXED_DIST);
}

/** A stored block; `len` and `nlen` override its LEN (and NLEN with it) and NLEN. */
export function storedBlock(
  w: BitWriter,
  data: readonly number[],
  final = true,
  options: { len?: number; nlen?: number; padding?: number } = {},
): void {
  const len = options.len ?? data.length;
  w.bits(final ? 1 : 0, 1).bits(0, 2);
  w.align(options.padding ?? 0);
  w.bits(len, 16).bits(options.nlen ?? ~len & 0xffff, 16);
  for (const b of data) w.bits(b, 8);
}

/** Code lengths for the code length code: 13 of 4 bits and 6 of 5 bits, a complete code. */
const CL_LENGTHS = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5];

export interface DynamicOptions {
  /** HLIT - 257 and HDIST - 1 as written (default: from the lengths given). */
  hlit?: number;
  hdist?: number;
  /** The code length code's lengths by symbol 0-18 (default CL_LENGTHS) and how many to write (HCLEN + 4). */
  clLengths?: readonly number[];
  ncl?: number;
  /** Code length symbols to write instead of the lengths one by one: [symbol, extra bits]. */
  clSymbols?: readonly (readonly [number, number?])[];
}

export function dynamicBlock(
  w: BitWriter,
  litLengths: readonly number[],
  distLengths: readonly number[],
  syms: readonly Sym[],
  final = true,
  options: DynamicOptions = {},
): void {
  const clLengths = options.clLengths ?? CL_LENGTHS;
  const ncl = options.ncl ?? 19;
  w.bits(final ? 1 : 0, 1).bits(2, 2);
  w.bits(options.hlit ?? litLengths.length - 257, 5);
  w.bits(options.hdist ?? distLengths.length - 1, 5);
  w.bits(ncl - 4, 4);
  for (let i = 0; i < ncl; i++) w.bits(clLengths[CL_ORDER[i]!]!, 3);
  const cl = canonicalCodes(clLengths);
  const symbols = options.clSymbols ?? [...litLengths, ...distLengths].map((l) => [l] as const);
  for (const [s, extra] of symbols) {
    w.code(cl[s]!, clLengths[s]!);
    if (s === 16) w.bits(extra ?? 0, 2);
    if (s === 17) w.bits(extra ?? 0, 3);
    if (s === 18) w.bits(extra ?? 0, 7);
  }
  writeSymbols(w, syms, litLengths, distLengths);
}

/** What literals and matches expand to (the matches must be valid). */
export function expand(syms: readonly Sym[]): Uint8Array {
  const out: number[] = [];
  for (const s of syms) {
    if (typeof s === "number") out.push(s);
    else if ("length" in s) for (let i = 0; i < s.length; i++) out.push(out[out.length - s.distance]!);
  }
  return Uint8Array.from(out);
}

/** Adler-32 as RFC 1950 defines it, byte by byte: the reference the kernels' SIMD sums are checked against. */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A zlib stream around raw DEFLATE, with the Adler-32 of `decoded` (what it should decode to). */
export function zlibWrap(raw: Uint8Array, decoded: Uint8Array): Uint8Array {
  const out = new Uint8Array(raw.length + 6);
  out.set([0x78, 0x01]);
  out.set(raw, 2);
  new DataView(out.buffer).setUint32(raw.length + 2, adler32(decoded));
  return out;
}
