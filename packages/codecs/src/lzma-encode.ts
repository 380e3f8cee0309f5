/*
 * LZMA and LZMA2 encoding (not exported from the package).
 *
 * Matches come from hash chains over 4-byte prefixes (plus a table of the last position of each
 * 3-byte prefix, for short matches), searched to a preset depth and stopped at the "nice" length.
 * Parsing is lazy: at each position the encoder weighs the repeat distances (rep0-rep3, which
 * are cheap to code), the longest new match and the match found one byte later, and codes a
 * literal, a short rep, a rep match or a match. Literal-versus-short-rep choices use the coder's
 * own probability prices. The range coder and model are the decoder's mirror image.
 */
import { LEN_CHOICE, LEN_CHOICE2, LEN_HIGH, LEN_LOW, LEN_MID, Model, type LzmaProperties } from "./lzma-model.js";

/** What the encoder does; liblzma's presets map onto these (see `lzmaPresetOptions`). */
export interface LzmaEncoderOptions extends LzmaProperties {
  /** The dictionary size: no match reaches further back. */
  readonly dictSize: number;
  /** Matches this long are taken without looking further (2 to 273). */
  readonly niceLength: number;
  /** How many hash-chain candidates to try per position; 0 for liblzma's default for `mf`. */
  readonly depth: number;
  /** liblzma's match finder id (HC3 3, HC4 4, BT2-BT4 0x12-0x14): here only sets the default depth. */
  readonly mf: number;
  /** `fast` (liblzma presets 0-3) or `normal` (4-9): normal also looks two bytes ahead. */
  readonly mode: "fast" | "normal";
}

const MATCH_MAX = 273;
const TOP = 0x1000000;

/** liblzma's dictionary sizes by preset level (0-9). */
const PRESET_DICT_BITS = [18, 20, 21, 22, 22, 23, 23, 24, 25, 26] as const;

/** The options of a liblzma preset: level 0-9, optionally `| 0x80000000` (extreme). */
export function lzmaPresetOptions(preset: number): LzmaEncoderOptions {
  const level = preset % 0x80000000;
  const extreme = preset >= 0x80000000;
  const dictSize = 2 ** PRESET_DICT_BITS[level]!;
  if (extreme) {
    const nice = level === 3 || level === 5;
    return { lc: 3, lp: 0, pb: 2, dictSize, mode: "normal", mf: 0x14, niceLength: nice ? 192 : 273, depth: nice ? 0 : 512 };
  }
  if (level <= 3) {
    const niceLength = level <= 1 ? 128 : 273;
    return { lc: 3, lp: 0, pb: 2, dictSize, mode: "fast", mf: level === 0 ? 3 : 4, niceLength, depth: [4, 8, 24, 48][level]! };
  }
  const niceLength = level === 4 ? 16 : level === 5 ? 32 : 64;
  return { lc: 3, lp: 0, pb: 2, dictSize, mode: "normal", mf: 0x14, niceLength, depth: 0 };
}

/** The search depth: the options' own, or liblzma's default for its match finder. */
function searchDepth({ depth, mf, niceLength }: LzmaEncoderOptions): number {
  if (depth > 0) return Math.min(depth, 4096);
  return mf >= 0x10 ? 16 + (niceLength >>> 1) : 4 + (niceLength >>> 2);
}

// ---------------------------------------------------------------------------------------------
// Prices: the cost of coding a bit, in 1/16 bits, by probability (in steps of 16).

const PRICE_SHIFT = 4;
const PRICES = /* @__PURE__ */ (() => {
  const prices = new Uint16Array(2048 >>> PRICE_SHIFT);
  for (let i = 0; i < prices.length; i++) {
    const p = (i << PRICE_SHIFT) + (1 << (PRICE_SHIFT - 1));
    prices[i] = Math.round(-Math.log2(p / 2048) * 16);
  }
  return prices;
})();

function price(probability: number, bit: number): number {
  return PRICES[(bit === 0 ? probability : 2048 - probability) >>> PRICE_SHIFT]!;
}

// ---------------------------------------------------------------------------------------------
// Range encoder

class RangeEncoder {
  bytes: Uint8Array;
  length = 0;
  private low = 0;
  private range = 0xffffffff;
  private cache = 0;
  private cacheSize = 1;

  constructor(size: number) {
    this.bytes = new Uint8Array(Math.max(size, 16));
  }

  /** Starts a new range-coded stream (an LZMA2 chunk), output from the start of the buffer. */
  restart(): void {
    this.length = 0;
    this.low = 0;
    this.range = 0xffffffff;
    this.cache = 0;
    this.cacheSize = 1;
  }

  /** Bytes the stream will take if flushed now. */
  pending(): number {
    return this.length + this.cacheSize + 4;
  }

  bit(probs: Uint16Array, index: number, bit: number): void {
    const p = probs[index]!;
    const bound = (this.range >>> 11) * p;
    if (bit === 0) {
      this.range = bound;
      probs[index] = p + ((2048 - p) >>> 5);
    } else {
      this.low += bound;
      this.range -= bound;
      probs[index] = p - (p >>> 5);
    }
    while (this.range < TOP) {
      this.range = (this.range << 8) >>> 0;
      this.shiftLow();
    }
  }

  /** `count` bits of `value`, most significant first, each with probability one half. */
  direct(value: number, count: number): void {
    for (let i = count - 1; i >= 0; i--) {
      this.range >>>= 1;
      if ((value >>> i) & 1) this.low += this.range;
      while (this.range < TOP) {
        this.range = (this.range << 8) >>> 0;
        this.shiftLow();
      }
    }
  }

  tree(probs: Uint16Array, base: number, bits: number, symbol: number): void {
    let m = 1;
    for (let i = bits - 1; i >= 0; i--) {
      const bit = (symbol >>> i) & 1;
      this.bit(probs, base + m, bit);
      m = (m << 1) | bit;
    }
  }

  reverseTree(probs: Uint16Array, base: number, bits: number, symbol: number): void {
    let m = 1;
    for (let i = 0; i < bits; i++) {
      const bit = (symbol >>> i) & 1;
      this.bit(probs, base + m, bit);
      m = (m << 1) | bit;
    }
  }

  /** Moves the top byte of `low` out, resolving the carry into the bytes held back. */
  private shiftLow(): void {
    const low = this.low;
    if (low < 0xff000000 || low >= 0x100000000) {
      const carry = low >= 0x100000000 ? 1 : 0;
      let byte = this.cache;
      do {
        this.put((byte + carry) & 0xff);
        byte = 0xff;
      } while (--this.cacheSize !== 0);
      this.cache = Math.floor(low / TOP) & 0xff;
    }
    this.cacheSize++;
    this.low = (low % TOP) * 256;
  }

  private put(byte: number): void {
    if (this.length === this.bytes.length) {
      const bytes = new Uint8Array(this.bytes.length * 2);
      bytes.set(this.bytes);
      this.bytes = bytes;
    }
    this.bytes[this.length++] = byte;
  }

  finish(): void {
    for (let i = 0; i < 5; i++) this.shiftLow();
  }
}

// ---------------------------------------------------------------------------------------------
// Match finder

/** Hash chains over the whole input: the longest match at a position, within the dictionary. */
class MatchFinder {
  private readonly head: Int32Array;
  private readonly head3: Int32Array;
  private readonly chain: Int32Array;
  private readonly mask: number;
  private readonly hashShift: number;
  /** The next position to insert. */
  private next = 0;
  private lastPos = -1;
  private lastLength = 0;
  /** The distance (minus one, as LZMA codes it) of the match `find` returned. */
  distance = 0;

  constructor(
    private readonly data: Uint8Array,
    private readonly dictSize: number,
    private readonly depth: number,
    private readonly niceLength: number,
  ) {
    const n = data.length;
    const hashBits = Math.min(20, Math.max(10, 32 - Math.clz32(Math.max(1, n))));
    this.head = new Int32Array(1 << hashBits).fill(-1);
    this.hashShift = 32 - hashBits;
    this.head3 = new Int32Array(1 << 16).fill(-1);
    let window = 1;
    while (window < Math.min(n, dictSize)) window *= 2;
    this.chain = new Int32Array(window);
    this.mask = window - 1;
  }

  private hash4(pos: number): number {
    const d = this.data;
    const word = d[pos]! | (d[pos + 1]! << 8) | (d[pos + 2]! << 16) | (d[pos + 3]! << 24);
    return Math.imul(word, 0x9e3779b1) >>> this.hashShift;
  }

  private hash3(pos: number): number {
    const d = this.data;
    return (Math.imul(d[pos]! | (d[pos + 1]! << 8) | (d[pos + 2]! << 16), 0x9e3779b1) >>> 16) & 0xffff;
  }

  /** Inserts every position before `end` not yet inserted. */
  skipTo(end: number): void {
    const last = Math.min(end, this.data.length - 3);
    for (let pos = this.next; pos < last; pos++) {
      const h = this.hash4(pos);
      this.chain[pos & this.mask] = this.head[h]!;
      this.head[h] = pos;
      this.head3[this.hash3(pos)] = pos;
    }
    if (end > this.next) this.next = end;
  }

  /** The longest match at `pos` (0 if none of 3 bytes or more); its distance in `distance`. */
  find(pos: number): number {
    if (pos === this.lastPos) {
      return this.lastLength;
    }
    this.skipTo(pos);
    const data = this.data;
    const n = data.length;
    const maxLength = Math.min(MATCH_MAX, n - pos);
    let bestLength = 0;
    let bestDistance = 0;
    if (maxLength >= 4) {
      const lowest = pos - this.dictSize;
      const h3 = this.hash3(pos);
      const near = this.head3[h3]!;
      if (near >= 0 && near >= lowest && pos - near <= 1 << 16) {
        let length = 0;
        while (length < maxLength && data[near + length] === data[pos + length]) length++;
        if (length >= 3) {
          bestLength = length;
          bestDistance = pos - near - 1;
        }
      }
      const limit = Math.min(this.niceLength, maxLength);
      const h = this.hash4(pos);
      let candidate = this.head[h]!;
      let tries = this.depth;
      while (bestLength < limit && candidate >= 0 && candidate >= lowest && tries-- > 0) {
        if (data[candidate + bestLength] === data[pos + bestLength] && data[candidate] === data[pos]) {
          let length = 1;
          while (length < maxLength && data[candidate + length] === data[pos + length]) length++;
          if (length > bestLength) {
            bestLength = length;
            bestDistance = pos - candidate - 1;
          }
        }
        const older = this.chain[candidate & this.mask]!;
        if (older >= candidate) break;
        candidate = older;
      }
      this.chain[pos & this.mask] = this.head[h]!;
      this.head[h] = pos;
      this.head3[h3] = pos;
      this.next = pos + 1;
    }
    this.lastPos = pos;
    this.lastLength = bestLength;
    this.distance = bestDistance;
    return bestLength;
  }
}

// ---------------------------------------------------------------------------------------------
// Encoder

class LzmaEncoder {
  readonly model: Model;
  readonly rc: RangeEncoder;
  private readonly finder: MatchFinder;
  private state = 0;
  private readonly reps = new Int32Array(4);
  private readonly repLengths = new Int32Array(4);

  constructor(
    private readonly data: Uint8Array,
    private readonly options: LzmaEncoderOptions,
    outputSize: number,
  ) {
    this.model = new Model(options);
    this.rc = new RangeEncoder(outputSize);
    this.finder = new MatchFinder(data, options.dictSize, searchDepth(options), options.niceLength);
  }

  /** Resets state and probabilities (an LZMA2 state reset). */
  resetState(): void {
    this.model.reset();
    this.state = 0;
    this.reps.fill(0);
  }

  /**
   * Codes `data[pos..end)` from `pos` until `end`, or until the coded size reaches `maxPacked` or
   * the input consumed reaches `maxUnpacked` (LZMA2 chunk limits). Returns where it stopped.
   */
  encode(pos: number, end: number, maxPacked: number, maxUnpacked: number): number {
    const data = this.data;
    const { niceLength, mode } = this.options;
    const reps = this.reps;
    const repLengths = this.repLengths;
    const finder = this.finder;
    const rc = this.rc;
    const start = pos;
    const stopAt = Math.min(end, start + maxUnpacked);
    while (pos < stopAt && rc.pending() < maxPacked) {
      const available = Math.min(MATCH_MAX, end - pos);
      if (available < 2) {
        this.literal(pos);
        pos++;
        continue;
      }
      // The repeat distances: how far each one matches here.
      let bestRep = 0;
      let bestRepLength = 0;
      for (let i = 0; i < 4; i++) {
        const from = pos - reps[i]! - 1;
        let length = 0;
        if (from >= 0 && data[from] === data[pos] && data[from + 1] === data[pos + 1]) {
          length = 2;
          while (length < available && data[from + length] === data[pos + length]) length++;
        }
        repLengths[i] = length;
        if (length > bestRepLength) {
          bestRepLength = length;
          bestRep = i;
        }
      }
      if (bestRepLength >= niceLength) {
        pos = this.repMatch(pos, bestRep, bestRepLength);
        continue;
      }
      let length = finder.find(pos);
      let distance = finder.distance;
      if (length >= niceLength) {
        pos = this.match(pos, distance, length);
        continue;
      }
      if (
        bestRepLength >= 2 &&
        (bestRepLength + 1 >= length ||
          (bestRepLength + 2 >= length && distance >= 1 << 9) ||
          (bestRepLength + 3 >= length && distance >= 1 << 15))
      ) {
        pos = this.repMatch(pos, bestRep, bestRepLength);
        continue;
      }
      // Short far matches cost more than the literals they replace.
      if (length === 3 && distance >= 1 << 14) length = 0;
      if (length < 3) {
        this.literalOrShortRep(pos);
        pos++;
        continue;
      }
      // Lazy evaluation: a better match one byte on makes this byte a literal.
      if (this.betterAhead(pos + 1, length, distance, end) || (mode === "normal" && this.betterAhead2(pos + 2, length, end))) {
        this.literalOrShortRep(pos);
        pos++;
        continue;
      }
      pos = this.match(pos, distance, length);
    }
    return pos;
  }

  /** Whether position `next` has a match clearly better than (`length`, `distance`) at the one before. */
  private betterAhead(next: number, length: number, distance: number, end: number): boolean {
    if (next >= end) return false;
    const data = this.data;
    const available = Math.min(MATCH_MAX, end - next);
    for (let i = 0; i < 4; i++) {
      const from = next - this.reps[i]! - 1;
      if (from < 0) continue;
      let repLength = 0;
      while (repLength < available && data[from + repLength] === data[next + repLength]) repLength++;
      if (repLength >= length) return true;
    }
    const nextLength = this.finder.find(next);
    const nextDistance = this.finder.distance;
    if (nextLength > length + 1) return true;
    if (nextLength === length + 1 && nextDistance >>> 7 <= distance) return true;
    if (nextLength === length && nextDistance < distance >>> 7) return true;
    return false;
  }

  /** Normal mode: whether a match two bytes on is much longer (`find` results stay cached for position next-1). */
  private betterAhead2(next: number, length: number, end: number): boolean {
    if (next >= end || length >= this.options.niceLength) return false;
    const data = this.data;
    const available = Math.min(MATCH_MAX, end - next);
    const from = next - this.reps[0]! - 1;
    if (from < 0) return false;
    let repLength = 0;
    while (repLength < available && data[from + repLength] === data[next + repLength]) repLength++;
    return repLength >= length + 2;
  }

  // -- Symbols ---------------------------------------------------------------------------------

  private posState(pos: number): number {
    return pos & ((1 << this.model.pb) - 1);
  }

  private literalOrShortRep(pos: number): void {
    const data = this.data;
    const rep0 = this.reps[0]!;
    const from = pos - rep0 - 1;
    if (from >= 0 && data[from] === data[pos] && this.shortRepIsCheaper(pos)) {
      this.shortRep(pos);
    } else {
      this.literal(pos);
    }
  }

  private shortRepIsCheaper(pos: number): boolean {
    const { probs, isMatch, isRep, isRepG0, isRep0Long } = this.model;
    const state = this.state;
    const posState = this.posState(pos);
    const matchPrice = price(probs[isMatch + (state << 4) + posState]!, 1);
    const shortRep =
      matchPrice +
      price(probs[isRep + state]!, 1) +
      price(probs[isRepG0 + state]!, 0) +
      price(probs[isRep0Long + (state << 4) + posState]!, 0);
    const literal = price(probs[isMatch + (state << 4) + posState]!, 0) + this.literalPrice(pos);
    return shortRep < literal;
  }

  private literalBase(pos: number): number {
    const model = this.model;
    const previous = pos > 0 ? this.data[pos - 1]! : 0;
    return model.literalBase + 0x300 * (((pos & ((1 << model.lp) - 1)) << model.lc) + (previous >>> (8 - model.lc)));
  }

  private literalPrice(pos: number): number {
    const probs = this.model.probs;
    const base = this.literalBase(pos);
    const byte = this.data[pos]!;
    let total = 0;
    let m = 1;
    let matchByte = this.state >= 7 ? this.data[pos - this.reps[0]! - 1]! : -1;
    for (let i = 7; i >= 0; i--) {
      const bit = (byte >>> i) & 1;
      if (matchByte >= 0) {
        const matchBit = (matchByte >>> i) & 1;
        total += price(probs[base + ((1 + matchBit) << 8) + m]!, bit);
        if (matchBit !== bit) matchByte = -1;
      } else {
        total += price(probs[base + m]!, bit);
      }
      m = (m << 1) | bit;
    }
    return total;
  }

  private literal(pos: number): void {
    const { probs, isMatch } = this.model;
    const rc = this.rc;
    const state = this.state;
    rc.bit(probs, isMatch + (state << 4) + this.posState(pos), 0);
    const base = this.literalBase(pos);
    const byte = this.data[pos]!;
    let m = 1;
    let i = 7;
    if (state >= 7) {
      // Coded against the byte at rep0 until the first bit that differs.
      const matchByte = this.data[pos - this.reps[0]! - 1]!;
      for (; i >= 0; i--) {
        const bit = (byte >>> i) & 1;
        const matchBit = (matchByte >>> i) & 1;
        rc.bit(probs, base + ((1 + matchBit) << 8) + m, bit);
        m = (m << 1) | bit;
        if (matchBit !== bit) {
          i--;
          break;
        }
      }
    }
    for (; i >= 0; i--) {
      const bit = (byte >>> i) & 1;
      rc.bit(probs, base + m, bit);
      m = (m << 1) | bit;
    }
    this.state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
  }

  private shortRep(pos: number): void {
    const { probs, isMatch, isRep, isRepG0, isRep0Long } = this.model;
    const rc = this.rc;
    const state = this.state;
    const posState = this.posState(pos);
    rc.bit(probs, isMatch + (state << 4) + posState, 1);
    rc.bit(probs, isRep + state, 1);
    rc.bit(probs, isRepG0 + state, 0);
    rc.bit(probs, isRep0Long + (state << 4) + posState, 0);
    this.state = state < 7 ? 9 : 11;
  }

  /** Codes a match with a new distance; returns the position after it (its bytes inserted). */
  private match(pos: number, distance: number, length: number): number {
    const { probs, isMatch, isRep, lenCoder } = this.model;
    const rc = this.rc;
    const posState = this.posState(pos);
    rc.bit(probs, isMatch + (this.state << 4) + posState, 1);
    rc.bit(probs, isRep + this.state, 0);
    this.length(lenCoder, length, posState);
    this.distance(distance, length);
    const reps = this.reps;
    reps[3] = reps[2]!;
    reps[2] = reps[1]!;
    reps[1] = reps[0]!;
    reps[0] = distance;
    this.state = this.state < 7 ? 7 : 10;
    this.finder.skipTo(pos + length);
    return pos + length;
  }

  private repMatch(pos: number, index: number, length: number): number {
    const { probs, isMatch, isRep, isRepG0, isRepG1, isRepG2, isRep0Long, repLenCoder } = this.model;
    const rc = this.rc;
    const state = this.state;
    const posState = this.posState(pos);
    rc.bit(probs, isMatch + (state << 4) + posState, 1);
    rc.bit(probs, isRep + state, 1);
    const reps = this.reps;
    if (index === 0) {
      rc.bit(probs, isRepG0 + state, 0);
      rc.bit(probs, isRep0Long + (state << 4) + posState, 1);
    } else {
      rc.bit(probs, isRepG0 + state, 1);
      const distance = reps[index]!;
      if (index === 1) {
        rc.bit(probs, isRepG1 + state, 0);
      } else {
        rc.bit(probs, isRepG1 + state, 1);
        rc.bit(probs, isRepG2 + state, index - 2);
        if (index === 3) reps[3] = reps[2]!;
        reps[2] = reps[1]!;
      }
      reps[1] = reps[0]!;
      reps[0] = distance;
    }
    this.length(repLenCoder, length, posState);
    this.state = state < 7 ? 8 : 11;
    this.finder.skipTo(pos + length);
    return pos + length;
  }

  private length(base: number, length: number, posState: number): void {
    const probs = this.model.probs;
    const rc = this.rc;
    const l = length - 2;
    if (l < 8) {
      rc.bit(probs, base + LEN_CHOICE, 0);
      rc.tree(probs, base + LEN_LOW + (posState << 3), 3, l);
    } else if (l < 16) {
      rc.bit(probs, base + LEN_CHOICE, 1);
      rc.bit(probs, base + LEN_CHOICE2, 0);
      rc.tree(probs, base + LEN_MID + (posState << 3), 3, l - 8);
    } else {
      rc.bit(probs, base + LEN_CHOICE, 1);
      rc.bit(probs, base + LEN_CHOICE2, 1);
      rc.tree(probs, base + LEN_HIGH, 8, l - 16);
    }
  }

  private distance(distance: number, length: number): void {
    const model = this.model;
    const probs = model.probs;
    const rc = this.rc;
    const lenState = length < 6 ? length - 2 : 3;
    let slot: number;
    if (distance < 4) {
      slot = distance;
    } else {
      const top = 31 - Math.clz32(distance);
      slot = 2 * top + ((distance >>> (top - 1)) & 1);
    }
    rc.tree(probs, model.posSlot + (lenState << 6), 6, slot);
    if (slot < 4) return;
    const directBits = (slot >>> 1) - 1;
    const base = (2 | (slot & 1)) * 2 ** directBits;
    const reduced = distance - base;
    if (slot < 14) {
      rc.reverseTree(probs, model.specPos + base - slot - 1, directBits, reduced);
    } else {
      rc.direct(Math.floor(reduced / 16), directBits - 4);
      rc.reverseTree(probs, model.align, 4, reduced & 15);
    }
  }

  /** The end-of-payload marker: a match of distance 0xffffffff. */
  endMarker(pos: number): void {
    const { probs, isMatch, isRep, lenCoder } = this.model;
    const rc = this.rc;
    const posState = this.posState(pos);
    rc.bit(probs, isMatch + (this.state << 4) + posState, 1);
    rc.bit(probs, isRep + this.state, 0);
    this.length(lenCoder, 2, posState);
    this.distance(0xffffffff, 2);
  }
}

/** An LZMA stream of `data` (raw LZMA1 / `.lzma` payload) ending with the end marker. */
export function encodeLzma1(data: Uint8Array, options: LzmaEncoderOptions): Uint8Array {
  const encoder = new LzmaEncoder(data, options, data.length + (data.length >>> 3) + 64);
  encoder.encode(0, data.length, Infinity, Infinity);
  encoder.endMarker(data.length);
  encoder.rc.finish();
  return encoder.rc.bytes.slice(0, encoder.rc.length);
}

/** The byte `(pb * 5 + lp) * 9 + lc` of lc, lp, pb. */
export function propertiesByte({ lc, lp, pb }: LzmaProperties): number {
  return (pb * 5 + lp) * 9 + lc;
}

const LZMA2_UNPACKED_MAX = 1 << 21;
const LZMA2_PACKED_MAX = 1 << 16;
const UNCOMPRESSED_CHUNK_MAX = 1 << 16;

/**
 * An LZMA2 stream of `data`: LZMA chunks of up to 2 MiB in and 64 KiB out, a chunk that does not
 * shrink stored as uncompressed chunks instead, then the end byte.
 */
export function encodeLzma2(data: Uint8Array, options: LzmaEncoderOptions): Uint8Array {
  const n = data.length;
  const parts: Uint8Array[] = [];
  let total = 0;
  const push = (part: Uint8Array) => {
    parts.push(part);
    total += part.length;
  };
  const encoder = new LzmaEncoder(data, options, LZMA2_PACKED_MAX + 1024);
  const rc = encoder.rc;
  let first = true;
  let needProperties = true;
  let needStateReset = false;
  for (let pos = 0; pos < n; ) {
    rc.restart();
    const start = pos;
    // Stop early enough that the last symbol (at most ~40 bytes coded, 273 bytes in) still fits.
    pos = encoder.encode(pos, n, LZMA2_PACKED_MAX - 64, LZMA2_UNPACKED_MAX - MATCH_MAX);
    rc.finish();
    const unpacked = pos - start;
    const packed = rc.length;
    if (packed + 6 >= unpacked + 3 * Math.ceil(unpacked / UNCOMPRESSED_CHUNK_MAX)) {
      // Does not shrink: store it. The encoder's state went on without the decoder's, so reset it.
      for (let at = start; at < pos; at += UNCOMPRESSED_CHUNK_MAX) {
        const size = Math.min(UNCOMPRESSED_CHUNK_MAX, pos - at);
        const chunk = new Uint8Array(3 + size);
        chunk[0] = first ? 0x01 : 0x02;
        chunk[1] = (size - 1) >>> 8;
        chunk[2] = (size - 1) & 0xff;
        chunk.set(data.subarray(at, at + size), 3);
        push(chunk);
        first = false;
      }
      encoder.resetState();
      needStateReset = true;
      continue;
    }
    const control = first ? 0xe0 : needProperties ? 0xc0 : needStateReset ? 0xa0 : 0x80;
    const withProperties = control >= 0xc0;
    const header = new Uint8Array(withProperties ? 6 : 5);
    header[0] = control | ((unpacked - 1) >>> 16);
    header[1] = ((unpacked - 1) >>> 8) & 0xff;
    header[2] = (unpacked - 1) & 0xff;
    header[3] = (packed - 1) >>> 8;
    header[4] = (packed - 1) & 0xff;
    if (withProperties) header[5] = propertiesByte(options);
    push(header);
    push(rc.bytes.slice(0, packed));
    first = false;
    needProperties = false;
    needStateReset = false;
  }
  push(Uint8Array.of(0x00));
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
