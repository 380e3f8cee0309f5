/*
 * LZMA and LZMA2 encoding (not exported from the package), and the lzma codec's encoder
 * (`encodeLzmaChunk`), a module of its own that `enableEncoders` registers. The range coder and model are the
 * decoder's mirror image; what differs by preset is how symbols are chosen:
 *
 * - fast mode (liblzma presets 0-3): hash chains over 4-byte prefixes (plus the last position of
 *   each 3-byte prefix, for short matches), searched to the preset's depth and stopped at the
 *   "nice" length; lazy parsing weighs the repeat distances (rep0-rep3, cheap to code), the
 *   longest new match and the match one byte later, and codes a literal, short rep, rep match or
 *   match;
 * - normal mode (presets 4-9, the default 6): binary-tree match finding, and optimal parsing: the
 *   cheapest sequence of symbols over the next stretch of input, by prices (in 1/16 bits) that
 *   the adaptive model currently gives each symbol, found as a shortest path.
 */
import {
  LEN_CHOICE,
  LEN_CHOICE2,
  LEN_HIGH,
  LEN_LOW,
  LEN_MID,
  lzmaPresetOptions,
  Model,
  type LzmaEncoderOptions,
  type LzmaProperties,
} from "./lzma-model.js";
import type { ChunkContext } from "./codec.js";
import {
  aloneDictionarySize,
  chainOf,
  failConfig,
  LZMA_FORMAT_ALONE,
  LZMA_FORMAT_AUTO,
  LZMA_FORMAT_RAW,
  LZMA_FORMAT_XZ,
  type Chain,
  type LzmaFilterSpec,
} from "./lzma-chain.js";
import {
  CHECK_CRC32,
  CHECK_CRC64,
  CHECK_NONE,
  CHECK_SHA256,
  deltaEncode,
  FILTER_DELTA,
  FILTER_LZMA2,
  lzma2DictionaryByte,
  writeXz,
  type FilterFlags,
} from "./xz.js";

const MATCH_MAX = 273;
const TOP = 0x1000000;

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

/** One bit of probability one half: 16 price units. */
const PRICE_BITS_SHIFT = 4;

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

/**
 * Hash chains over the whole input: at a position, the matches within the dictionary, each
 * longer than the one before (`lengths`/`distances`, `count` of them), up to the nice length.
 */
class MatchFinder implements Finder {
  private readonly head: Int32Array;
  private readonly head3: Int32Array;
  private readonly chain: Int32Array;
  private readonly mask: number;
  private readonly hashShift: number;
  /** The next position to insert. */
  private next = 0;
  private lastPos = -1;
  /** The matches `find` found, shortest first; distances minus one, as LZMA codes them. */
  readonly lengths = new Int32Array(MATCH_MAX + 1);
  readonly distances = new Int32Array(MATCH_MAX + 1);
  count = 0;

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
    return Math.imul(d[pos]! | (d[pos + 1]! << 8) | (d[pos + 2]! << 16), 0x9e3779b1) >>> 16;
  }

  /** Inserts every position before `end` not yet inserted. */
  skipTo(end: number): void {
    const last = Math.min(end, this.data.length - 3);
    const { chain, head, head3, mask } = this;
    for (let pos = this.next; pos < last; pos++) {
      const h = this.hash4(pos);
      chain[pos & mask] = head[h]!;
      head[h] = pos;
      head3[this.hash3(pos)] = pos;
    }
    if (end > this.next) this.next = end;
  }

  /** The length of the longest match at `pos` (0 if none of 3 bytes or more); all of them in `lengths`/`distances`. */
  find(pos: number): number {
    if (pos === this.lastPos) return this.count === 0 ? 0 : this.lengths[this.count - 1]!;
    this.skipTo(pos);
    const data = this.data;
    const { lengths, distances, chain, mask } = this;
    const maxLength = Math.min(MATCH_MAX, data.length - pos);
    let count = 0;
    let best = 0;
    if (maxLength >= 4) {
      const lowest = Math.max(0, pos - this.dictSize);
      const limit = Math.min(this.niceLength, maxLength);
      const h3 = this.hash3(pos);
      const near = this.head3[h3]!;
      if (near >= 0 && near >= lowest && pos - near <= 1 << 16) {
        let length = 0;
        while (length < maxLength && data[near + length] === data[pos + length]) length++;
        if (length >= 3) {
          best = length;
          lengths[count] = length;
          distances[count++] = pos - near - 1;
        }
      }
      const h = this.hash4(pos);
      let candidate = this.head[h]!;
      let tries = this.depth;
      while (best < limit && candidate >= lowest && tries-- > 0) {
        if (data[candidate + best] === data[pos + best] && data[candidate] === data[pos]) {
          let length = 1;
          while (length < maxLength && data[candidate + length] === data[pos + length]) length++;
          if (length > best) {
            best = length;
            lengths[count] = length;
            distances[count++] = pos - candidate - 1;
          }
        }
        const older = chain[candidate & mask]!;
        if (older >= candidate) break;
        candidate = older;
      }
      chain[pos & mask] = this.head[h]!;
      this.head[h] = pos;
      this.head3[h3] = pos;
      this.next = pos + 1;
    }
    this.lastPos = pos;
    this.count = count;
    return best;
  }
}

/**
 * Binary trees over the whole input (for optimal parsing): each 4-byte-hash bucket roots a search
 * tree of earlier positions ordered by the bytes that follow them. Inserting a position walks
 * down its tree, which visits the candidates sharing the longest prefixes with it (so long
 * matches are found even behind thousands of short ones, as in runs of zeros), and re-roots the
 * tree at the new position. Same interface as `MatchFinder`; positions must be asked in order.
 */
class TreeFinder implements Finder {
  private readonly head: Int32Array;
  private readonly head3: Int32Array;
  private readonly tree: Int32Array;
  private readonly mask: number;
  private readonly hashShift: number;
  private readonly maxDistance: number;
  private next = 0;
  private lastPos = -1;
  readonly lengths = new Int32Array(MATCH_MAX + 1);
  readonly distances = new Int32Array(MATCH_MAX + 1);
  count = 0;

  constructor(
    private readonly data: Uint8Array,
    dictSize: number,
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
    this.tree = new Int32Array(2 * window);
    this.mask = window - 1;
    this.maxDistance = Math.min(dictSize, window - 1);
  }

  /**
   * Inserts the positions before `end` not yet seen. Inside a long match only its first and last
   * SKIP_EDGE positions go in: the tree stays a search tree over the positions it holds, and runs
   * (16 MiB of zeros) cost no more than a few comparisons a byte.
   */
  skipTo(end: number): void {
    let pos = this.next;
    if (end - pos > 2 * SKIP_EDGE) {
      for (const stop = pos + SKIP_EDGE; pos < stop; pos++) this.insert(pos, false);
      pos = end - SKIP_EDGE;
    }
    for (; pos < end; pos++) this.insert(pos, false);
    if (end > this.next) this.next = end;
  }

  find(pos: number): number {
    if (pos === this.lastPos) return this.count === 0 ? 0 : this.lengths[this.count - 1]!;
    this.skipTo(pos);
    this.lastPos = pos;
    this.next = pos + 1;
    return this.insert(pos, true);
  }

  /** Inserts `pos`; with `record`, lists its matches and returns the longest length. */
  private insert(pos: number, record: boolean): number {
    const data = this.data;
    const available = Math.min(MATCH_MAX, data.length - pos);
    if (record) this.count = 0;
    if (available < 4) return 0;
    const { tree, mask, lengths, distances } = this;
    const limit = Math.min(this.niceLength, available);
    const word = data[pos]! | (data[pos + 1]! << 8) | (data[pos + 2]! << 16);
    const h3 = Math.imul(word, 0x9e3779b1) >>> 16;
    const h = Math.imul(word | (data[pos + 3]! << 24), 0x9e3779b1) >>> this.hashShift;
    let count = 0;
    let best = 0;
    if (record) {
      // The nearest position starting with the same three bytes, for short matches.
      const near = this.head3[h3]!;
      if (near >= 0 && pos - near <= Math.min(this.maxDistance, 1 << 16)) {
        let length = 0;
        while (length < available && data[near + length] === data[pos + length]) length++;
        if (length >= 3) {
          best = length;
          lengths[count] = length;
          distances[count++] = pos - near - 1;
        }
      }
    }
    this.head3[h3] = pos;
    let candidate = this.head[h]!;
    this.head[h] = pos;
    let smallerSlot = (pos & mask) << 1;
    let largerSlot = smallerSlot + 1;
    let smallerLength = 0;
    let largerLength = 0;
    let tries = this.depth;
    for (;;) {
      if (candidate < 0 || pos - candidate > this.maxDistance || tries-- <= 0) {
        tree[smallerSlot] = -1;
        tree[largerSlot] = -1;
        break;
      }
      const slot = (candidate & mask) << 1;
      let length = Math.min(smallerLength, largerLength);
      if (data[candidate + length] === data[pos + length]) {
        while (++length < limit && data[candidate + length] === data[pos + length]);
        if (record && length > best && (length >= 3 || pos - candidate <= 256)) {
          best = length;
          lengths[count] = length;
          distances[count++] = pos - candidate - 1;
        }
        if (length >= limit) {
          // As long as we look: the new position takes the candidate's place and children.
          tree[smallerSlot] = tree[slot]!;
          tree[largerSlot] = tree[slot + 1]!;
          break;
        }
      }
      if (data[candidate + length]! < data[pos + length]!) {
        tree[smallerSlot] = candidate;
        smallerSlot = slot + 1;
        smallerLength = length;
        candidate = tree[smallerSlot]!;
      } else {
        tree[largerSlot] = candidate;
        largerSlot = slot;
        largerLength = length;
        candidate = tree[largerSlot]!;
      }
    }
    if (!record) return 0;
    if (count > 0 && best >= limit) {
      // Stopped at the nice length: take the longest match as far as it goes.
      const from = pos - distances[count - 1]! - 1;
      while (best < available && data[from + best] === data[pos + best]) best++;
      lengths[count - 1] = best;
    }
    this.count = count;
    return best;
  }
}

/** A match finder: the matches at each position, asked in increasing order. */
interface Finder {
  readonly lengths: Int32Array;
  readonly distances: Int32Array;
  readonly count: number;
  /** The longest match length at `pos` (0 if none); all matches, shortest first, in `lengths`/`distances`. */
  find(pos: number): number;
  /** Inserts the positions before `end` not yet seen. */
  skipTo(end: number): void;
}

// ---------------------------------------------------------------------------------------------
// Price tables, refreshed from the model as it adapts

/** The prices of all `2^bits` symbols of a bit tree (`out[symbol]`), each node's prefix priced once. */
function treePrices(probs: Uint16Array, base: number, bits: number, out: Int32Array): void {
  // out[m] for tree node m (1 .. 2^(bits+1)-1): the price of the path to it; leaves at 2^bits + symbol.
  const leaves = 1 << bits;
  out[1] = 0;
  for (let m = 2; m < 2 * leaves; m++) out[m] = out[m >>> 1]! + price(probs[base + (m >>> 1)]!, m & 1);
  out.copyWithin(0, leaves, 2 * leaves);
}

function reverseTreePrice(probs: Uint16Array, base: number, bits: number, symbol: number): number {
  let total = 0;
  let m = 1;
  for (let i = 0; i < bits; i++) {
    const bit = (symbol >>> i) & 1;
    total += price(probs[base + m]!, bit);
    m = (m << 1) | bit;
  }
  return total;
}

/** The distance slot of a distance (minus one): 0-3 as is, then two slots per power of two. */
function distanceSlot(distance: number): number {
  if (distance < 4) return distance;
  const top = 31 - Math.clz32(distance);
  return 2 * top + ((distance >>> (top - 1)) & 1);
}

class PriceTables {
  /** [coder (0 match, 1 rep)][posState][length - 2]. */
  readonly lengths: Int32Array;
  /** [lenState][slot], direct bits included (align bits not). */
  readonly slots = new Int32Array(4 * 64);
  /** [lenState][distance] for distances below 128. */
  readonly shortDistances = new Int32Array(4 * 128);
  readonly align = new Int32Array(16);
  private readonly posStates: number;
  private readonly scratch = new Int32Array(512);

  constructor(private readonly model: Model) {
    this.posStates = 1 << model.pb;
    this.lengths = new Int32Array(2 * 16 * (MATCH_MAX - 1));
  }

  update(): void {
    const model = this.model;
    const { probs } = model;
    const lengths = this.lengths;
    const row = MATCH_MAX - 1;
    const scratch = this.scratch;
    for (let coder = 0; coder < 2; coder++) {
      const base = coder === 0 ? model.lenCoder : model.repLenCoder;
      const choice0 = price(probs[base + LEN_CHOICE]!, 0);
      const choice1 = price(probs[base + LEN_CHOICE]!, 1);
      const mid = choice1 + price(probs[base + LEN_CHOICE2]!, 0);
      const high = choice1 + price(probs[base + LEN_CHOICE2]!, 1);
      const first = coder * 16 * row;
      treePrices(probs, base + LEN_HIGH, 8, scratch);
      for (let l = 16; l < row; l++) lengths[first + l] = high + scratch[l - 16]!;
      for (let posState = 0; posState < this.posStates; posState++) {
        const at = first + posState * row;
        treePrices(probs, base + LEN_LOW + (posState << 3), 3, scratch);
        for (let l = 0; l < 8; l++) lengths[at + l] = choice0 + scratch[l]!;
        treePrices(probs, base + LEN_MID + (posState << 3), 3, scratch);
        for (let l = 0; l < 8; l++) lengths[at + 8 + l] = mid + scratch[l]!;
        if (posState > 0) lengths.copyWithin(at + 16, first + 16, first + row);
      }
    }
    for (let lenState = 0; lenState < 4; lenState++) {
      treePrices(probs, model.posSlot + (lenState << 6), 6, scratch);
      for (let slot = 0; slot < 64; slot++) {
        this.slots[lenState * 64 + slot] = scratch[slot]! + (slot >= 14 ? ((slot >>> 1) - 5) << PRICE_BITS_SHIFT : 0);
      }
      for (let distance = 0; distance < 128; distance++) {
        const slot = distanceSlot(distance);
        let p = this.slots[lenState * 64 + slot]!;
        if (slot >= 4) {
          const directBits = (slot >>> 1) - 1;
          const base = (2 | (slot & 1)) << directBits;
          p += reverseTreePrice(probs, model.specPos + base - slot - 1, directBits, distance - base);
        }
        this.shortDistances[lenState * 128 + distance] = p;
      }
    }
    for (let i = 0; i < 16; i++) this.align[i] = reverseTreePrice(probs, model.align, 4, i);
  }

  length(coder: number, posState: number, length: number): number {
    return this.lengths[(coder * 16 + posState) * (MATCH_MAX - 1) + length - 2]!;
  }

  distance(distance: number, length: number): number {
    const lenState = length < 6 ? length - 2 : 3;
    if (distance < 128) return this.shortDistances[lenState * 128 + distance]!;
    return this.slots[lenState * 64 + distanceSlot(distance)]! + this.align[distance & 15]!;
  }
}

// ---------------------------------------------------------------------------------------------
// Encoder

const LITERAL = 0;
const SHORT_REP = 1;
const REP = 2;
const MATCH = 3;
/** Positions inserted at each end of a long match the tree finder skips. */
const SKIP_EDGE = 32;
/** How far ahead optimal parsing plans, at most. */
const OPT_WINDOW = 4096;
const INFINITE_PRICE = 0x3fffffff;
/** Symbols coded between refreshes of the price tables. */
const PRICE_UPDATE_INTERVAL = 128;

/** The nodes of the optimal-parsing search: position offset → cheapest way there. */
class Nodes {
  readonly cost = new Int32Array(OPT_WINDOW + MATCH_MAX + 2);
  readonly from = new Int32Array(OPT_WINDOW + MATCH_MAX + 2);
  readonly kind = new Uint8Array(OPT_WINDOW + MATCH_MAX + 2);
  readonly value = new Int32Array(OPT_WINDOW + MATCH_MAX + 2);
  readonly nodeState = new Uint8Array(OPT_WINDOW + MATCH_MAX + 2);
  readonly nodeReps = new Int32Array(4 * (OPT_WINDOW + MATCH_MAX + 2));
}

/** The length of the match between `data[pos..]` and `data[from..]`, up to `limit` (0 if `from` < 0). */
function matchLength(data: Uint8Array, pos: number, from: number, limit: number): number {
  if (from < 0) return 0;
  let length = 0;
  while (length < limit && data[from + length] === data[pos + length]) length++;
  return length;
}

class LzmaEncoder {
  readonly model: Model;
  readonly rc: RangeEncoder;
  private readonly finder: Finder;
  private state = 0;
  private readonly reps = new Int32Array(4);
  private readonly repLengths = new Int32Array(4);
  private readonly pbMask: number;
  private readonly prices: PriceTables;
  private sincePriceUpdate = PRICE_UPDATE_INTERVAL;
  private nodes: Nodes | undefined;
  /** The planned symbols, last first: kind, length, distance (of matches and rep matches). */
  private readonly plan = {
    kind: new Uint8Array(OPT_WINDOW + 1),
    distance: new Int32Array(OPT_WINDOW + 1),
    length: new Int32Array(OPT_WINDOW + 1),
  };
  /** The next planned symbol to code (an index into `plan`), -1 when none is left. */
  private planNext = -1;

  constructor(
    private readonly data: Uint8Array,
    private readonly options: LzmaEncoderOptions,
    outputSize: number,
  ) {
    this.model = new Model(options);
    this.rc = new RangeEncoder(outputSize);
    const depth = searchDepth(options);
    this.finder =
      options.mode === "normal"
        ? new TreeFinder(data, options.dictSize, depth, options.niceLength)
        : new MatchFinder(data, options.dictSize, depth, options.niceLength);
    this.pbMask = (1 << options.pb) - 1;
    this.prices = new PriceTables(this.model);
  }

  /** Resets state and probabilities (an LZMA2 state reset). */
  resetState(): void {
    this.model.reset();
    this.state = 0;
    this.reps.fill(0);
    this.sincePriceUpdate = PRICE_UPDATE_INTERVAL;
  }

  /**
   * Codes `data[pos..end)` from `pos` until `end`, or until the coded size reaches `maxPacked` or
   * the input consumed reaches `maxUnpacked` (LZMA2 chunk limits). Returns where it stopped.
   */
  encode(pos: number, end: number, maxPacked: number, maxUnpacked: number): number {
    return this.options.mode === "normal"
      ? this.encodeOptimal(pos, end, maxPacked, maxUnpacked)
      : this.encodeFast(pos, end, maxPacked, maxUnpacked);
  }

  /** Lazy parsing (liblzma's fast mode, presets 0-3). */
  private encodeFast(pos: number, end: number, maxPacked: number, maxUnpacked: number): number {
    const data = this.data;
    const { niceLength } = this.options;
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
      const distance = length === 0 ? 0 : finder.distances[finder.count - 1]!;
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
      if (this.betterAhead(pos + 1, length, distance, end)) {
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
    const nextDistance = nextLength === 0 ? 0 : this.finder.distances[this.finder.count - 1]!;
    if (nextLength > length + 1) return true;
    if (nextLength === length + 1 && nextDistance >>> 7 <= distance) return true;
    if (nextLength === length && nextDistance < distance >>> 7) return true;
    return false;
  }

  // -- Optimal parsing ------------------------------------------------------------------------

  /**
   * Optimal parsing (liblzma's normal mode, presets 4-9): plans the cheapest way, by the model's
   * current prices, to code the next stretch of input, then codes it. Returns where it stopped.
   */
  private encodeOptimal(pos: number, end: number, maxPacked: number, maxUnpacked: number): number {
    const rc = this.rc;
    const stopAt = Math.min(end, pos + maxUnpacked);
    const plan = this.plan;
    const data = this.data;
    const reps = this.reps;
    while (pos < stopAt && rc.pending() < maxPacked) {
      if (this.planNext < 0) {
        if (this.sincePriceUpdate >= PRICE_UPDATE_INTERVAL) {
          this.prices.update();
          this.sincePriceUpdate = 0;
        }
        // The plan is stored last symbol first; what an LZMA2 chunk has no room for is coded in
        // the next chunk.
        this.planNext = this.optimum(pos, end) - 1;
      }
      const k = this.planNext--;
      const kind = plan.kind[k]!;
      const length = plan.length[k]!;
      const distance = plan.distance[k]!;
      if (kind === LITERAL) {
        this.literal(pos);
        pos++;
      } else if (kind === SHORT_REP) {
        // After an LZMA2 state reset (a stored chunk) rep0 may have changed: then a literal.
        if (data[pos - reps[0]! - 1] === data[pos] && pos - reps[0]! - 1 >= 0) this.shortRep(pos);
        else this.literal(pos);
        pos++;
      } else {
        const index = kind === REP ? reps.indexOf(distance) : -1;
        pos = index >= 0 ? this.repMatch(pos, index, length) : this.match(pos, distance, length);
      }
      this.sincePriceUpdate++;
    }
    return pos;
  }

  /** Stores a plan of one symbol. */
  private single(kind: number, distance: number, length: number): number {
    this.plan.kind[0] = kind;
    this.plan.distance[0] = distance;
    this.plan.length[0] = length;
    return 1;
  }

  /** The price of coding a literal at `pos` in `state` with `rep0` (isMatch bit included). */
  private literalPriceAt(pos: number, state: number, rep0: number, posState: number): number {
    const { probs, isMatch } = this.model;
    const base = this.literalBase(pos);
    const byte = this.data[pos]!;
    let total = price(probs[isMatch + (state << 4) + posState]!, 0);
    let m = 1;
    let matchByte = state >= 7 ? this.data[pos - rep0 - 1]! : -1;
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

  /**
   * Plans symbols from `pos`: a shortest-path search over the next positions (up to OPT_WINDOW),
   * where each node is reached by a literal, a short rep, a rep match or a match from an earlier
   * node, at the price the model gives it from that node's state and repeat distances. Returns the
   * number of symbols planned (in `plan`, last first).
   */
  private optimum(pos: number, end: number): number {
    const data = this.data;
    const finder = this.finder;
    const { niceLength } = this.options;
    const { probs, isMatch, isRep, isRepG0, isRep0Long } = this.model;
    const available = Math.min(MATCH_MAX, end - pos);
    const reps = this.reps;
    if (available < 2) return this.single(LITERAL, 0, 1);

    let bestRep = 0;
    let bestRepLength = 0;
    for (let i = 0; i < 4; i++) {
      const length = matchLength(data, pos, pos - reps[i]! - 1, available);
      if (length > bestRepLength) {
        bestRepLength = length;
        bestRep = i;
      }
    }
    if (bestRepLength >= niceLength) return this.single(REP, reps[bestRep]!, bestRepLength);
    const mainLength = finder.find(pos);
    if (mainLength >= niceLength) return this.single(MATCH, finder.distances[finder.count - 1]!, mainLength);
    const posState0 = pos & this.pbMask;
    if (mainLength < 2 && bestRepLength < 2) {
      const from = pos - reps[0]! - 1;
      if (from >= 0 && data[from] === data[pos]) {
        const state = this.state;
        const shortRep =
          price(probs[isMatch + (state << 4) + posState0]!, 1) +
          price(probs[isRep + state]!, 1) +
          price(probs[isRepG0 + state]!, 0) +
          price(probs[isRep0Long + (state << 4) + posState0]!, 0);
        if (shortRep < this.literalPriceAt(pos, state, reps[0]!, posState0)) return this.single(SHORT_REP, 0, 1);
      }
      return this.single(LITERAL, 0, 1);
    }

    const nodes = (this.nodes ??= new Nodes());
    const { cost, from, kind, value, nodeState, nodeReps } = nodes;
    cost[0] = 0;
    nodeState[0] = this.state;
    nodeReps.set(reps, 0);
    let lengthEnd = 1;
    cost[1] = INFINITE_PRICE;
    let cur = 0;
    for (;;) {
      // Node `cur` is final: all cheaper ways to it were tried. Work out its state and reps.
      if (cur > 0) {
        const previous = from[cur]!;
        const k = kind[cur]!;
        const state = nodeState[previous]!;
        const r = previous * 4;
        const o = cur * 4;
        if (k === LITERAL) {
          nodeState[cur] = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
          nodeReps.copyWithin(o, r, r + 4);
        } else if (k === SHORT_REP) {
          nodeState[cur] = state < 7 ? 9 : 11;
          nodeReps.copyWithin(o, r, r + 4);
        } else if (k === REP) {
          nodeState[cur] = state < 7 ? 8 : 11;
          const index = value[cur]!;
          nodeReps[o] = nodeReps[r + index]!;
          for (let i = 1, j = 0; i < 4; i++, j++) {
            if (j === index) j++;
            nodeReps[o + i] = nodeReps[r + j]!;
          }
        } else {
          nodeState[cur] = state < 7 ? 7 : 10;
          nodeReps[o] = value[cur]!;
          nodeReps[o + 1] = nodeReps[r]!;
          nodeReps[o + 2] = nodeReps[r + 1]!;
          nodeReps[o + 3] = nodeReps[r + 2]!;
        }
        if (cur >= lengthEnd || cur >= OPT_WINDOW) break;
        // A long match here ends the plan: it is coded next, on its own.
        if (finder.find(pos + cur) >= niceLength) break;
        const room = Math.min(MATCH_MAX, end - pos - cur);
        let longRep = false;
        for (let i = 0; i < 4 && !longRep; i++) {
          longRep = matchLength(data, pos + cur, pos + cur - nodeReps[cur * 4 + i]! - 1, room) >= niceLength;
        }
        if (longRep) break;
      }
      const at = pos + cur;
      const state = nodeState[cur]!;
      const o = cur * 4;
      const rep0 = nodeReps[o]!;
      const posState = at & this.pbMask;
      const base = cost[cur]!;
      const room = Math.min(MATCH_MAX, end - at);

      // Literal, or short rep, to the next position.
      const next = cur + 1;
      if (next > lengthEnd) {
        lengthEnd = next;
        cost[next] = INFINITE_PRICE;
      }
      const literal = base + this.literalPriceAt(at, state, rep0, posState);
      if (literal < cost[next]!) {
        cost[next] = literal;
        from[next] = cur;
        kind[next] = LITERAL;
      }
      const matchBit = base + price(probs[isMatch + (state << 4) + posState]!, 1);
      const repBit = matchBit + price(probs[isRep + state]!, 1);
      if (at - rep0 - 1 >= 0 && data[at - rep0 - 1] === data[at]) {
        const shortRep =
          repBit + price(probs[isRepG0 + state]!, 0) + price(probs[isRep0Long + (state << 4) + posState]!, 0);
        if (shortRep < cost[next]!) {
          cost[next] = shortRep;
          from[next] = cur;
          kind[next] = SHORT_REP;
        }
      }
      if (room < 2) {
        cur++;
        continue;
      }

      // Rep matches, every length.
      const prices = this.prices;
      for (let index = 0; index < 4; index++) {
        const length = matchLength(data, at, at - nodeReps[o + index]! - 1, room);
        if (length < 2) continue;
        const head = repBit + this.repIndexPrice(index, state, posState);
        while (lengthEnd < cur + length) cost[++lengthEnd] = INFINITE_PRICE;
        for (let l = 2; l <= length; l++) {
          const total = head + prices.length(1, posState, l);
          const target = cur + l;
          if (total < cost[target]!) {
            cost[target] = total;
            from[target] = cur;
            kind[target] = REP;
            value[target] = index;
          }
        }
      }

      // Matches: each length at the nearest distance that reaches it.
      const longest = finder.find(at);
      if (longest >= 2) {
        const head = matchBit + price(probs[isRep + state]!, 0);
        while (lengthEnd < cur + longest) cost[++lengthEnd] = INFINITE_PRICE;
        let l = 2;
        for (let m = 0; m < finder.count; m++) {
          const length = finder.lengths[m]!;
          const distance = finder.distances[m]!;
          for (; l <= length; l++) {
            const total = head + prices.length(0, posState, l) + prices.distance(distance, l);
            const target = cur + l;
            if (total < cost[target]!) {
              cost[target] = total;
              from[target] = cur;
              kind[target] = MATCH;
              value[target] = distance;
            }
          }
        }
      }
      cur++;
    }

    // Walk back from the last final node.
    const plan = this.plan;
    let count = 0;
    for (let node = cur; node > 0; node = from[node]!) {
      const k = kind[node]!;
      plan.kind[count] = k;
      plan.distance[count] = k === REP ? nodeReps[from[node]! * 4 + value[node]!]! : value[node]!;
      plan.length[count] = node - from[node]!;
      count++;
    }
    return count;
  }

  private repIndexPrice(index: number, state: number, posState: number): number {
    const { probs, isRepG0, isRepG1, isRepG2, isRep0Long } = this.model;
    if (index === 0) return price(probs[isRepG0 + state]!, 0) + price(probs[isRep0Long + (state << 4) + posState]!, 1);
    const g0 = price(probs[isRepG0 + state]!, 1);
    if (index === 1) return g0 + price(probs[isRepG1 + state]!, 0);
    return g0 + price(probs[isRepG1 + state]!, 1) + price(probs[isRepG2 + state]!, index - 2);
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
    const slot = distanceSlot(distance);
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

// ---------------------------------------------------------------------------------------------
// Chunks: the encoder the lzma codec loads (see lzma.ts)

/** What `encodeLzmaChunk` reads of an lzma codec's config. */
export interface LzmaEncodeConfig {
  readonly format: number;
  readonly check: number;
  readonly preset: number | null;
  readonly filters: readonly LzmaFilterSpec[] | null;
}

/** A chunk as numcodecs' LZMA encodes it: .xz, .lzma or raw, by `config` (Python's rules). */
export function encodeLzmaChunk(data: Uint8Array, config: LzmaEncodeConfig, chunk: ChunkContext): Uint8Array {
  const { format, check, preset: level, filters } = config;
  if (format === LZMA_FORMAT_AUTO) failConfig(chunk, "cannot encode with FORMAT_AUTO (0): invalid container format");
  if (filters !== null && level !== null) failConfig(chunk, "cannot specify both preset and filter chain");
  if (format !== LZMA_FORMAT_XZ && check !== -1 && check !== CHECK_NONE) {
    failConfig(chunk, "integrity checks are only supported by FORMAT_XZ");
  }
  if (format === LZMA_FORMAT_RAW && filters === null) failConfig(chunk, "must specify filters for FORMAT_RAW");
  const chain: Chain = filters
    ? chainOf(filters, format, chunk)
    : { deltas: [], last: format === LZMA_FORMAT_XZ ? "lzma2" : "lzma1", options: lzmaPresetOptions(level ?? 6) };
  let input = data;
  for (const distance of chain.deltas) input = deltaEncode(input, distance);
  const { options } = chain;

  if (format === LZMA_FORMAT_XZ) {
    const type = check === -1 ? CHECK_CRC64 : check;
    if (type !== CHECK_NONE && type !== CHECK_CRC32 && type !== CHECK_CRC64 && type !== CHECK_SHA256) {
      failConfig(chunk, `unsupported integrity check ${check}`);
    }
    const flags: FilterFlags = [
      ...chain.deltas.map((distance) => [FILTER_DELTA, [distance - 1]] as const),
      [FILTER_LZMA2, [lzma2DictionaryByte(options.dictSize)]],
    ];
    return writeXz(type, flags, data.length === 0 ? undefined : encodeLzma2(input, options), data);
  }
  if (format === LZMA_FORMAT_ALONE) {
    const payload = encodeLzma1(input, options);
    const out = new Uint8Array(13 + payload.length);
    out[0] = propertiesByte(options);
    new DataView(out.buffer).setUint32(1, aloneDictionarySize(options.dictSize), true);
    out.fill(0xff, 5, 13); // uncompressed size unknown: the end marker ends the data, as liblzma writes
    out.set(payload, 13);
    return out;
  }
  return chain.last === "lzma2" ? encodeLzma2(input, options) : encodeLzma1(input, options);
}
