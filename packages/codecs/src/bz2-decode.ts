/*
 * bzip2 decoding (not exported from the package). Reads what Python's `bz2.decompress` reads:
 * one or more streams ("BZh1".."BZh9", blocks, end-of-stream marker with the combined CRC), each
 * block checked against its CRC, randomised blocks included. After the first stream, data that
 * is not a valid stream is ignored (as Python does), but a stream cut short is an error.
 *
 * A block is: Huffman-coded symbols (up to six tables, switched every 50 symbols by selectors),
 * which undo into move-to-front indices with zero runs (RUNA/RUNB), which undo into the
 * Burrows-Wheeler transform of the block, which undoes into run-length-coded bytes (runs of 4 to
 * 255 equal bytes written as 4 bytes and a count).
 */
import { DecodeFailure, OutputBuffer, corrupt, truncated } from "./bounded-output.js";
import { bz2CombineCrc, bz2CrcUpdate, derandomise } from "./bz2-tables.js";

const BLOCK_MAGIC_HI = 0x314159;
const BLOCK_MAGIC_LO = 0x265359;
const END_MAGIC_HI = 0x177245;
const END_MAGIC_LO = 0x385090;
const GROUP_SIZE = 50;
const MAX_GROUPS = 6;
const MAX_ALPHA = 258;
const MAX_CODE_LENGTH = 20;
/** Selectors past this many are read and ignored, as libbz2 1.0.8 does. */
const MAX_SELECTORS = 18002;
const FAST_BITS = 10;

/**
 * Decodes bzip2 data (one or more streams) into at most `limit` bytes. Throws `DecodeFailure`.
 * An empty input decodes to nothing, as in Python.
 */
export function decodeBzip2(data: Uint8Array, limit: number, sizeHint = data.length * 4): Uint8Array {
  const out = new OutputBuffer(limit, sizeHint);
  const scratch = new Scratch();
  let position = 0;
  let streams = 0;
  while (position < data.length) {
    const before = out.length;
    try {
      position = decodeStream(data, position, out, scratch);
    } catch (error) {
      // Python's bz2.decompress ignores invalid data after a complete stream (not a cut-off one).
      if (streams > 0 && error instanceof DecodeFailure && error.problem === "corrupt") {
        out.length = before;
        break;
      }
      throw error;
    }
    streams++;
  }
  return out.result();
}

/** Buffers reused across blocks and streams. */
class Scratch {
  size = 0;
  /** Block bytes in BWT order (`ll`), then in output order (`block`); `links` undoes the BWT. */
  ll = new Uint8Array(0);
  block = new Uint8Array(0);
  links = new Uint32Array(0);
  readonly lengths = new Uint8Array(MAX_ALPHA);
  readonly tables: HuffmanTable[] = Array.from({ length: MAX_GROUPS }, () => new HuffmanTable());
  readonly selectors = new Uint8Array(MAX_SELECTORS);

  fit(size: number): void {
    if (this.size >= size) return;
    this.size = size;
    this.ll = new Uint8Array(size);
    this.block = new Uint8Array(size);
    this.links = new Uint32Array(size);
  }
}

/** Most-significant-bit-first reading; reads past the end yield zeros and fail when consumed. */
class BitReader {
  /** Buffered bits: the low `count` bits of `bits`. */
  bits = 0;
  count = 0;

  constructor(
    readonly data: Uint8Array,
    public pos: number,
  ) {}

  read(n: number): number {
    while (this.count < n) {
      this.bits = (this.bits << 8) | (this.pos < this.data.length ? this.data[this.pos]! : 0);
      this.pos++;
      this.count += 8;
    }
    this.count -= n;
    if (this.pos > this.data.length) this.checkEnd();
    return (this.bits >>> this.count) & ((1 << n) - 1);
  }

  read32(): number {
    return ((this.read(16) << 16) | this.read(16)) >>> 0;
  }

  /** Fails if more bits have been consumed than the input holds. */
  checkEnd(): void {
    if ((this.pos - this.data.length) * 8 > this.count) truncated();
  }

  /** The byte after the last bit consumed. */
  endByte(): number {
    return this.pos - (this.count >>> 3);
  }
}

/** A canonical Huffman code: a table for codes up to FAST_BITS long, then one length at a time. */
class HuffmanTable {
  /** By the next FAST_BITS bits: `symbol << 5 | length`, or 0 for a longer code. */
  readonly fast = new Uint16Array(1 << FAST_BITS);
  /** For each length: the first code, how many codes, where its symbols start in `symbols`. */
  readonly first = new Int32Array(MAX_CODE_LENGTH + 1);
  readonly count = new Int32Array(MAX_CODE_LENGTH + 1);
  readonly offset = new Int32Array(MAX_CODE_LENGTH + 1);
  readonly symbols = new Uint16Array(MAX_ALPHA);
  maxLength = 0;

  /** Builds the code bzip2 assigns to these lengths (shorter first, then by symbol). */
  build(lengths: Uint8Array, alphaSize: number): void {
    const { fast, first, count, offset, symbols } = this;
    count.fill(0);
    fast.fill(0);
    let maxLength = 0;
    for (let i = 0; i < alphaSize; i++) {
      const length = lengths[i]!;
      count[length]!++;
      if (length > maxLength) maxLength = length;
    }
    this.maxLength = maxLength;
    let code = 0;
    let placed = 0;
    for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
      first[length] = code;
      offset[length] = placed;
      code += count[length]!;
      placed += count[length]!;
      if (code > 1 << length) corrupt("invalid Huffman code lengths (over-subscribed)");
      code <<= 1;
    }
    const next = Int32Array.from(offset);
    for (let symbol = 0; symbol < alphaSize; symbol++) symbols[next[lengths[symbol]!]!++] = symbol;
    for (let length = 1; length <= Math.min(FAST_BITS, maxLength); length++) {
      for (let k = 0; k < count[length]!; k++) {
        const symbol = symbols[offset[length]! + k]!;
        const code = first[length]! + k;
        const shift = FAST_BITS - length;
        fast.fill((symbol << 5) | length, code << shift, (code + 1) << shift);
      }
    }
  }
}

function decodeStream(data: Uint8Array, start: number, out: OutputBuffer, scratch: Scratch): number {
  const available = data.length - start;
  const magic = [0x42, 0x5a, 0x68]; // "BZh"
  for (let i = 0; i < 3; i++) {
    if (i >= available) truncated();
    if (data[start + i] !== magic[i]) corrupt("not bzip2 data (bad magic bytes)");
  }
  if (available < 4) truncated();
  const level = data[start + 3]! - 0x30;
  if (level < 1 || level > 9)
    corrupt(`invalid block size byte 0x${data[start + 3]!.toString(16)} in the stream header`);
  const blockMax = level * 100000;
  scratch.fit(blockMax);

  const bits = new BitReader(data, start + 4);
  let combined = 0;
  for (let blockIndex = 0; ; blockIndex++) {
    const hi = bits.read(24);
    const lo = bits.read(24);
    if (hi === BLOCK_MAGIC_HI && lo === BLOCK_MAGIC_LO) {
      const stored = bits.read32();
      const actual = decodeBlock(bits, out, scratch, blockMax, blockIndex);
      if (actual !== stored) {
        corrupt(`block ${blockIndex}: CRC mismatch (stored 0x${hex32(stored)}, computed 0x${hex32(actual)})`);
      }
      combined = bz2CombineCrc(combined, actual);
    } else if (hi === END_MAGIC_HI && lo === END_MAGIC_LO) {
      const stored = bits.read32();
      if (stored !== combined) {
        corrupt(`stream CRC mismatch (stored 0x${hex32(stored)}, computed 0x${hex32(combined)})`);
      }
      return bits.endByte();
    } else {
      corrupt(`bad block magic after block ${blockIndex}`);
    }
  }
}

/** Decodes one block (after its magic and CRC) onto `out`; returns the CRC of what it wrote. */
function decodeBlock(bits: BitReader, out: OutputBuffer, scratch: Scratch, blockMax: number, index: number): number {
  const fail = (what: string): never => corrupt(`block ${index}: ${what}`);
  const randomised = bits.read(1) === 1;
  const origin = bits.read(24);
  if (origin >= blockMax) fail("origin pointer out of range");

  // The byte values used in the block, 16 at a time.
  const seqToByte = new Uint8Array(256);
  let inUse = 0;
  const used16 = bits.read(16);
  for (let i = 0; i < 16; i++) {
    if ((used16 & (0x8000 >>> i)) === 0) continue;
    const used = bits.read(16);
    for (let j = 0; j < 16; j++) if (used & (0x8000 >>> j)) seqToByte[inUse++] = i * 16 + j;
  }
  if (inUse === 0) fail("no byte values in use");
  const alphaSize = inUse + 2;
  const endOfBlock = inUse + 1;

  const groups = bits.read(3);
  if (groups < 2 || groups > MAX_GROUPS) fail(`invalid number of Huffman tables (${groups})`);
  const selectorCount = bits.read(15);
  if (selectorCount < 1) fail("no selectors");
  const selectors = scratch.selectors;
  const order = Uint8Array.of(0, 1, 2, 3, 4, 5);
  for (let i = 0; i < selectorCount; i++) {
    let j = 0;
    while (bits.read(1) === 1) if (++j >= groups) fail("invalid selector");
    const table = order[j]!;
    for (let k = j; k > 0; k--) order[k] = order[k - 1]!;
    order[0] = table;
    if (i < MAX_SELECTORS) selectors[i] = table;
  }
  const usableSelectors = Math.min(selectorCount, MAX_SELECTORS);

  const lengths = scratch.lengths;
  for (let t = 0; t < groups; t++) {
    let length = bits.read(5);
    for (let i = 0; i < alphaSize; i++) {
      for (;;) {
        if (length < 1 || length > MAX_CODE_LENGTH) fail("invalid Huffman code length");
        if (bits.read(1) === 0) break;
        length += bits.read(1) === 0 ? 1 : -1;
      }
      lengths[i] = length;
    }
    scratch.tables[t]!.build(lengths, alphaSize);
  }

  // Huffman symbols → MTF indices and zero runs → the BWT of the block (`ll`).
  const ll = scratch.ll;
  const counts = new Int32Array(256);
  const mtf = new Uint8Array(256);
  for (let i = 0; i < 256; i++) mtf[i] = i;
  const data = bits.data;
  const end = data.length;
  let buffer = bits.bits;
  let count = bits.count;
  let pos = bits.pos;
  let length = 0;
  let run = 0;
  let weight = 1;
  let groupLeft = 0;
  let group = -1;
  let table = scratch.tables[0]!;
  let fast = table.fast;
  for (;;) {
    if (groupLeft === 0) {
      if (pos > end && (pos - end) * 8 > count) truncated();
      if (++group >= usableSelectors) fail("ran out of selectors");
      groupLeft = GROUP_SIZE;
      table = scratch.tables[selectors[group]!]!;
      fast = table.fast;
    }
    groupLeft--;
    while (count <= 24) {
      buffer = (buffer << 8) | (pos < end ? data[pos]! : 0);
      pos++;
      count += 8;
    }
    let symbol: number;
    const entry = fast[(buffer >>> (count - FAST_BITS)) & ((1 << FAST_BITS) - 1)]!;
    if (entry !== 0) {
      symbol = entry >>> 5;
      count -= entry & 31;
    } else {
      const peek = (buffer >>> (count - MAX_CODE_LENGTH)) & ((1 << MAX_CODE_LENGTH) - 1);
      symbol = -1;
      for (let n = FAST_BITS + 1; n <= table.maxLength; n++) {
        const d = (peek >>> (MAX_CODE_LENGTH - n)) - table.first[n]!;
        if (d >= 0 && d < table.count[n]!) {
          symbol = table.symbols[table.offset[n]! + d]!;
          count -= n;
          break;
        }
      }
      if (symbol < 0) fail("invalid Huffman code");
    }
    if (symbol <= 1) {
      // RUNA (0) adds weight, RUNB (1) twice the weight; weights double along the run.
      run += weight << symbol;
      weight <<= 1;
      if (weight > 1 << 21) fail("zero run too long");
      continue;
    }
    if (run > 0) {
      if (length + run > blockMax) fail("block longer than the stream's block size");
      const byte = seqToByte[mtf[0]!]!;
      counts[byte]! += run;
      ll.fill(byte, length, length + run);
      length += run;
      run = 0;
      weight = 1;
    }
    if (symbol === endOfBlock) break;
    if (symbol > endOfBlock) fail("invalid symbol");
    const index = symbol - 1;
    const seq = mtf[index]!;
    if (index < 16) for (let k = index; k > 0; k--) mtf[k] = mtf[k - 1]!;
    else mtf.copyWithin(1, 0, index);
    mtf[0] = seq;
    if (length >= blockMax) fail("block longer than the stream's block size");
    const byte = seqToByte[seq]!;
    counts[byte]!++;
    ll[length++] = byte;
  }
  bits.bits = buffer;
  bits.count = count;
  bits.pos = pos;
  if (pos > end) bits.checkEnd();
  if (origin >= length) fail("origin pointer out of range");

  // Undo the BWT. Row r's rotation starts one byte before the rotation of row `next(r)`, where the
  // k-th row starting with byte c maps to the k-th occurrence of c in the last column (`ll`).
  // `links[r]` packs `next(r) << 8 | ll[next(r)]`: one memory access per byte.
  const links = scratch.links;
  const starts = new Int32Array(256);
  for (let b = 0, sum = 0; b < 256; b++) {
    starts[b] = sum;
    sum += counts[b]!;
  }
  for (let i = 0; i < length; i++) {
    const byte = ll[i]!;
    links[starts[byte]!++] = (i << 8) | byte;
  }
  const block = scratch.block;
  let link = links[origin]!;
  for (let i = 0; i < length; i++) {
    block[i] = link & 0xff;
    link = links[link >>> 8]!;
  }
  if (randomised) derandomise(block, 0, length);

  // Undo the run-length coding: after 4 equal bytes comes a count of further copies.
  const first = out.length;
  let o = first;
  let outBytes = out.bytes;
  let capacity = outBytes.length;
  let previous = -1;
  let same = 0;
  for (let i = 0; i < length; i++) {
    const byte = block[i]!;
    if (same === 4) {
      if (o + byte > capacity) {
        out.length = o;
        outBytes = out.reserve(byte);
        capacity = outBytes.length;
      }
      for (let k = 0; k < byte; k++) outBytes[o + k] = previous;
      o += byte;
      previous = -1;
      same = 0;
      continue;
    }
    if (byte === previous) same++;
    else {
      previous = byte;
      same = 1;
    }
    if (o >= capacity) {
      out.length = o;
      outBytes = out.reserve(1);
      capacity = outBytes.length;
    }
    outBytes[o++] = byte;
  }
  out.length = o;
  return ~bz2CrcUpdate(0xffffffff, outBytes, first, o) >>> 0;
}

function hex32(value: number): string {
  return value.toString(16).padStart(8, "0");
}
