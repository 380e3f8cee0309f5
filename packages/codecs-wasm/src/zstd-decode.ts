/*
 * A Zstandard decoder (RFC 8878), written for this package from the specification: frames with or
 * without a content size (streamed), several frames in a row, skippable frames, raw / RLE /
 * compressed blocks, Huffman-coded literals, FSE-coded sequences, repeat offsets, and the optional
 * XXH64 content checksum. Dictionaries are not supported (numcodecs never uses them).
 *
 * The whole output is decoded into one buffer whose size never exceeds the caller's limit, so the
 * window is simply the output written so far. Every read is bounds-checked; every step either
 * consumes input or produces bounded output, so time is linear in input plus output.
 */
import { MalformedInput, OutputTooLarge } from "./errors.js";
import { xxh64 } from "./xxhash64.js";

const MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const MAX_BLOCK_SIZE = 128 * 1024;

const fail = (message: string): never => {
  throw new MalformedInput(message);
};

function u32(d: Uint8Array, i: number): number {
  return (d[i]! | (d[i + 1]! << 8) | (d[i + 2]! << 16) | (d[i + 3]! << 24)) >>> 0;
}

function highBit(x: number): number {
  return 31 - Math.clz32(x);
}

// ---------------------------------------------------------------------------------------------
// Backward bit stream (FSE and Huffman streams are read from their end towards their start)

/** The `n` (1-31) bits at bit `pos` (>= 0) of the stream starting at byte `start`. */
function bitsAt(d: Uint8Array, start: number, pos: number, n: number): number {
  const b = start + (pos >>> 3);
  const sh = pos & 7;
  const lo = (d[b]! | (d[b + 1]! << 8) | (d[b + 2]! << 16) | (d[b + 3]! << 24)) >>> sh;
  const v = n + sh > 32 ? lo | (d[b + 4]! << (32 - sh)) : lo;
  return (v & (0xffffffff >>> (32 - n))) >>> 0;
}

class BackwardBits {
  data!: Uint8Array;
  start = 0;
  /** Bits not yet read; below zero once the stream is over-read (missing bits read as zeros). */
  bits = 0;

  init(data: Uint8Array, start: number, end: number): void {
    if (end <= start) fail("empty bit stream");
    const last = data[end - 1]!;
    if (last === 0) fail("bit stream without its end marker");
    this.data = data;
    this.start = start;
    this.bits = (end - start - 1) * 8 + highBit(last);
  }

  /** The `n` (0-31) bits below position `pos` (may be negative: missing bits are zeros). */
  peekAt(pos: number, n: number): number {
    if (n === 0) return 0;
    if (pos < 0) {
      const avail = pos + n;
      if (avail <= 0) return 0;
      return this.peekAt(0, avail) << -pos;
    }
    const d = this.data;
    const b = this.start + (pos >>> 3);
    const sh = pos & 7;
    const lo = (d[b]! | (d[b + 1]! << 8) | (d[b + 2]! << 16) | (d[b + 3]! << 24)) >>> sh;
    const v = n + sh > 32 ? lo | (d[b + 4]! << (32 - sh)) : lo;
    return (v & (0xffffffff >>> (32 - n))) >>> 0;
  }

  read(n: number): number {
    if (n === 0) return 0;
    this.bits -= n;
    return this.peekAt(this.bits, n);
  }
}

// ---------------------------------------------------------------------------------------------
// FSE tables

/** An FSE decoding table: per state, the symbol, the bits to read and the next state's base. */
interface FseTable {
  log: number;
  symbol: Uint8Array;
  bits: Uint8Array;
  base: Int32Array;
}

function newFseTable(maxLog: number): FseTable {
  const size = 1 << maxLog;
  return { log: 0, symbol: new Uint8Array(size), bits: new Uint8Array(size), base: new Int32Array(size) };
}

/** Builds `table` from normalized counts (`-1` = "less than one") over `1 << log` states. */
function buildFse(table: FseTable, counts: Int16Array, symbols: number, log: number): void {
  const size = 1 << log;
  const next = new Uint16Array(symbols);
  let high = size - 1;
  for (let s = 0; s < symbols; s++) {
    if (counts[s] === -1) {
      table.symbol[high--] = s;
      next[s] = 1;
    } else {
      next[s] = counts[s]!;
    }
  }
  const step = (size >>> 1) + (size >>> 3) + 3;
  const mask = size - 1;
  let pos = 0;
  for (let s = 0; s < symbols; s++) {
    const c = counts[s]!;
    for (let i = 0; i < c; i++) {
      table.symbol[pos] = s;
      do pos = (pos + step) & mask;
      while (pos > high);
    }
  }
  if (pos !== 0) fail("invalid FSE table");
  for (let u = 0; u < size; u++) {
    const s = table.symbol[u]!;
    const state = next[s]!;
    next[s] = state + 1;
    const nb = log - highBit(state);
    table.bits[u] = nb;
    table.base[u] = (state << nb) - size;
  }
  table.log = log;
}

/**
 * Reads an FSE table description (forward bit stream) from `data[at, end)` into `table`; returns
 * the position after it.
 */
function readFse(
  data: Uint8Array,
  at: number,
  end: number,
  table: FseTable,
  maxSymbols: number,
  maxLog: number,
): number {
  if (at >= end) fail("truncated FSE table description");
  let bitPos = at * 8;
  const endBits = end * 8;
  const peek = (n: number): number => {
    // Up to 16 bits from bitPos (forward, LSB first); bits past the end read as zeros (and are
    // caught by the position check after).
    const b = bitPos >>> 3;
    const v = (data[b] ?? 0) | ((data[b + 1] ?? 0) << 8) | ((data[b + 2] ?? 0) << 16);
    return (v >>> (bitPos & 7)) & ((1 << n) - 1);
  };
  const log = peek(4) + 5;
  bitPos += 4;
  if (log > maxLog) fail(`FSE accuracy log ${log} above the maximum ${maxLog}`);
  const counts = new Int16Array(256);
  let remaining = (1 << log) + 1;
  let threshold = 1 << log;
  let nbBits = log + 1;
  let symbol = 0;
  while (remaining > 1) {
    if (symbol >= maxSymbols) fail("FSE table description has too many symbols");
    const max = 2 * threshold - 1 - remaining;
    let count: number;
    const low = peek(nbBits - 1);
    if (low < max) {
      count = low;
      bitPos += nbBits - 1;
    } else {
      count = peek(nbBits);
      if (count >= threshold) count -= max;
      bitPos += nbBits;
    }
    count--;
    remaining -= count < 0 ? -count : count;
    counts[symbol++] = count;
    if (count === 0) {
      for (;;) {
        const repeat = peek(2);
        bitPos += 2;
        symbol += repeat;
        if (repeat !== 3) break;
        if (bitPos > endBits) break;
      }
      if (symbol > maxSymbols) fail("FSE table description has too many symbols");
    }
    while (remaining < threshold) {
      nbBits--;
      threshold >>>= 1;
    }
    if (bitPos > endBits) fail("truncated FSE table description");
  }
  if (remaining !== 1) fail("invalid FSE table description");
  buildFse(table, counts, symbol, log);
  return (bitPos + 7) >>> 3;
}

function rleFse(table: FseTable, symbol: number): void {
  table.log = 0;
  table.symbol[0] = symbol;
  table.bits[0] = 0;
  table.base[0] = 0;
}

function predefinedFse(counts: readonly number[], log: number): FseTable {
  const table = newFseTable(log);
  buildFse(table, Int16Array.from(counts), counts.length, log);
  return table;
}

const LL_DEFAULT = predefinedFse(
  [4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1],
  6,
);
const ML_DEFAULT = predefinedFse(
  [
    1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
  ],
  6,
);
const OF_DEFAULT = predefinedFse(
  [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1],
  5,
);

const LL_BASE = Int32Array.from([
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024,
  2048, 4096, 8192, 16384, 32768, 65536,
]);
const LL_BITS = Uint8Array.from([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
]);
const ML_BASE = Int32Array.from([
  3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
  34, 35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539,
]);
const ML_BITS = Uint8Array.from([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3,
  3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
]);

// ---------------------------------------------------------------------------------------------
// Huffman tables

interface HuffmanTable {
  /** 0 until a table has been read in this frame. */
  log: number;
  symbol: Uint8Array;
  bits: Uint8Array;
}

const MAX_HUFFMAN_LOG = 11;

/** Reads a Huffman tree description from `data[at, end)` into `table`; returns the position after it. */
function readHuffman(
  data: Uint8Array,
  at: number,
  end: number,
  table: HuffmanTable,
  bits: BackwardBits,
  scratch: FseTable,
): number {
  if (at >= end) fail("truncated Huffman tree description");
  const header = data[at++]!;
  const weights = new Uint8Array(256);
  let count = 0;
  if (header >= 128) {
    count = header - 127;
    const bytes = (count + 1) >>> 1;
    if (at + bytes > end) fail("truncated Huffman weights");
    for (let i = 0; i < count; i++) {
      const byte = data[at + (i >>> 1)]!;
      weights[i] = i & 1 ? byte & 15 : byte >>> 4;
    }
    at += bytes;
  } else {
    const stop = at + header;
    if (header === 0 || stop > end) fail("truncated Huffman weights");
    const start = readFse(data, at, stop, scratch, 256, 6);
    bits.init(data, start, stop);
    let s1 = bits.read(scratch.log);
    let s2 = bits.read(scratch.log);
    for (;;) {
      if (count >= 255) fail("too many Huffman weights");
      weights[count++] = scratch.symbol[s1]!;
      s1 = scratch.base[s1]! + bits.read(scratch.bits[s1]!);
      if (bits.bits < 0) {
        weights[count++] = scratch.symbol[s2]!;
        break;
      }
      if (count >= 255) fail("too many Huffman weights");
      weights[count++] = scratch.symbol[s2]!;
      s2 = scratch.base[s2]! + bits.read(scratch.bits[s2]!);
      if (bits.bits < 0) {
        weights[count++] = scratch.symbol[s1]!;
        break;
      }
    }
    at = stop;
  }
  // The last symbol's weight is implied: it completes the sum to a power of two.
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const w = weights[i]!;
    if (w > MAX_HUFFMAN_LOG) fail("Huffman weight too large");
    if (w > 0) sum += 1 << (w - 1);
  }
  if (sum === 0) fail("invalid Huffman weights");
  const log = highBit(sum) + 1;
  if (log > MAX_HUFFMAN_LOG) fail("Huffman table too deep");
  const rest = (1 << log) - sum;
  if (rest & (rest - 1)) fail("invalid Huffman weights");
  if (count >= 256) fail("too many Huffman weights");
  weights[count++] = highBit(rest) + 1;
  // Fill the table: codes of weight 1 first, then 2, ...; within a weight by symbol order.
  const rankCount = new Int32Array(MAX_HUFFMAN_LOG + 2);
  for (let i = 0; i < count; i++) rankCount[weights[i]!]!++;
  const rankStart = new Int32Array(MAX_HUFFMAN_LOG + 2);
  let next = 0;
  for (let w = 1; w <= log; w++) {
    rankStart[w] = next;
    next += rankCount[w]! << (w - 1);
  }
  for (let s = 0; s < count; s++) {
    const w = weights[s]!;
    if (w === 0) continue;
    const length = 1 << (w - 1);
    const start = rankStart[w]!;
    table.symbol.fill(s, start, start + length);
    table.bits.fill(log + 1 - w, start, start + length);
    rankStart[w] = start + length;
  }
  table.log = log;
  return at;
}

/** The bit count of the backward stream `data[start, end)` (its end marker excluded). */
function streamBits(data: Uint8Array, start: number, end: number): number {
  if (end <= start) fail("empty bit stream");
  const last = data[end - 1]!;
  if (last === 0) fail("bit stream without its end marker");
  return (end - start - 1) * 8 + highBit(last);
}

/**
 * Decodes Huffman symbols from the stream at byte `start` (with `pos` bits left) into
 * `out[o, oEnd)`; the stream must end exactly there.
 */
function finishHuffmanStream(
  data: Uint8Array,
  start: number,
  pos: number,
  out: Uint8Array,
  o: number,
  oEnd: number,
  table: HuffmanTable,
  bits: BackwardBits,
): void {
  const log = table.log;
  const mask = (1 << log) - 1;
  const symbols = table.symbol;
  const lengths = table.bits;
  // Fast loop while `log` whole bits remain: 3 bytes hold the at most 11 + 7 bits needed.
  while (o < oEnd && pos >= log) {
    const p = pos - log;
    const b = start + (p >>> 3);
    const v = ((data[b]! | (data[b + 1]! << 8) | (data[b + 2]! << 16)) >>> (p & 7)) & mask;
    out[o++] = symbols[v]!;
    pos -= lengths[v]!;
  }
  if (o < oEnd) {
    bits.data = data;
    bits.start = start;
    while (o < oEnd) {
      const v = bits.peekAt(pos - log, log);
      out[o++] = symbols[v]!;
      pos -= lengths[v]!;
    }
  }
  if (pos !== 0) fail("Huffman stream does not end where it should");
}

/** Decodes one Huffman stream `data[start, end)` into `out[o, oEnd)`; the stream must end exactly. */
function decodeHuffmanStream(
  data: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  o: number,
  oEnd: number,
  table: HuffmanTable,
  bits: BackwardBits,
): void {
  finishHuffmanStream(data, start, streamBits(data, start, end), out, o, oEnd, table, bits);
}

/**
 * Decodes the four Huffman streams `data[s0, s1)`, `[s1, s2)`, `[s2, s3)`, `[s3, end)` into four
 * segments of `out[0, total)`, in lockstep while they can (independent work the CPU overlaps).
 */
function decodeHuffman4(
  data: Uint8Array,
  s0: number,
  s1: number,
  s2: number,
  s3: number,
  end: number,
  out: Uint8Array,
  total: number,
  table: HuffmanTable,
  bits: BackwardBits,
): void {
  const segment = Math.floor((total + 3) / 4);
  let p0 = streamBits(data, s0, s1);
  let p1 = streamBits(data, s1, s2);
  let p2 = streamBits(data, s2, s3);
  let p3 = streamBits(data, s3, end);
  const log = table.log;
  const mask = (1 << log) - 1;
  const symbols = table.symbol;
  const lengths = table.bits;
  let o0 = 0;
  let o1 = segment;
  let o2 = 2 * segment;
  let o3 = 3 * segment;
  while (o3 < total && p0 >= log && p1 >= log && p2 >= log && p3 >= log) {
    let p = p0 - log;
    let b = s0 + (p >>> 3);
    let v = ((data[b]! | (data[b + 1]! << 8) | (data[b + 2]! << 16)) >>> (p & 7)) & mask;
    out[o0++] = symbols[v]!;
    p0 -= lengths[v]!;
    p = p1 - log;
    b = s1 + (p >>> 3);
    v = ((data[b]! | (data[b + 1]! << 8) | (data[b + 2]! << 16)) >>> (p & 7)) & mask;
    out[o1++] = symbols[v]!;
    p1 -= lengths[v]!;
    p = p2 - log;
    b = s2 + (p >>> 3);
    v = ((data[b]! | (data[b + 1]! << 8) | (data[b + 2]! << 16)) >>> (p & 7)) & mask;
    out[o2++] = symbols[v]!;
    p2 -= lengths[v]!;
    p = p3 - log;
    b = s3 + (p >>> 3);
    v = ((data[b]! | (data[b + 1]! << 8) | (data[b + 2]! << 16)) >>> (p & 7)) & mask;
    out[o3++] = symbols[v]!;
    p3 -= lengths[v]!;
  }
  finishHuffmanStream(data, s0, p0, out, o0, segment, table, bits);
  finishHuffmanStream(data, s1, p1, out, o1, 2 * segment, table, bits);
  finishHuffmanStream(data, s2, p2, out, o2, 3 * segment, table, bits);
  finishHuffmanStream(data, s3, p3, out, o3, total, table, bits);
}

// ---------------------------------------------------------------------------------------------
// Frames and blocks

/** Per-frame decoding state kept across blocks. */
class FrameState {
  readonly huffman: HuffmanTable = {
    log: 0,
    symbol: new Uint8Array(1 << MAX_HUFFMAN_LOG),
    bits: new Uint8Array(1 << MAX_HUFFMAN_LOG),
  };
  readonly ll = newFseTable(9);
  readonly ml = newFseTable(9);
  readonly of = newFseTable(8);
  llTable: FseTable | undefined;
  mlTable: FseTable | undefined;
  ofTable: FseTable | undefined;
  rep1 = 1;
  rep2 = 4;
  rep3 = 8;
  readonly bits = new BackwardBits();
  readonly scratch = newFseTable(6);
  literals = new Uint8Array(MAX_BLOCK_SIZE);

  reset(): void {
    this.huffman.log = 0;
    this.llTable = this.mlTable = this.ofTable = undefined;
    this.rep1 = 1;
    this.rep2 = 4;
    this.rep3 = 8;
  }
}

export interface ZstdDecodeOptions {
  /** Verify content checksums of frames that have one. Default true. */
  readonly verifyChecksum?: boolean;
}

/** The result of decoding: the output, and whether every frame had a content size. */
export interface ZstdDecoded {
  readonly output: Uint8Array;
}

/**
 * Decodes the Zstandard data `src[start, end)` (one or more frames, skippable frames allowed)
 * into a new buffer of at most `limit` bytes. Throws `OutputTooLarge` if the output would exceed
 * `limit`, and `MalformedInput` for anything malformed (including a content checksum mismatch).
 */
export function zstdDecode(src: Uint8Array, limit: number, options: ZstdDecodeOptions = {}): Uint8Array {
  // The declared content sizes size the output exactly when every frame has one.
  const declared = declaredContentSize(src, limit);
  let out = new Uint8Array(declared >= 0 ? declared : Math.min(limit, Math.max(src.length * 4, 1 << 16)));
  const grow = (needed: number): Uint8Array => {
    if (needed > limit) throw new OutputTooLarge();
    const bigger = new Uint8Array(Math.min(limit, Math.max(needed, out.length * 2)));
    bigger.set(out);
    out = bigger;
    return out;
  };
  const state = new FrameState();
  let op = 0;
  let at = 0;
  if (src.length === 0) fail("no data");
  while (at < src.length) {
    if (src.length - at < 4) fail("unexpected end of data (truncated frame header)");
    const magic = u32(src, at);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (at + 8 > src.length) fail("unexpected end of data (truncated skippable frame)");
      const size = u32(src, at + 4);
      if (size > src.length - at - 8) fail("unexpected end of data (truncated skippable frame)");
      at += 8 + size;
      continue;
    }
    if (magic !== MAGIC) fail(`not Zstandard data (magic number 0x${magic.toString(16).padStart(8, "0")})`);
    const h = readFrameHeader(src, at);
    at = h.blocks;
    const frameStart = op;
    state.reset();
    const blockLimit = Math.min(MAX_BLOCK_SIZE, h.windowSize);
    for (;;) {
      if (at + 3 > src.length) fail("unexpected end of data (truncated block header)");
      const header = src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16);
      at += 3;
      const last = header & 1;
      const type = (header >>> 1) & 3;
      const size = header >>> 3;
      if (type === 3) fail("reserved block type");
      if (type === 1) {
        if (size > blockLimit) fail("block larger than the maximum block size");
        if (at >= src.length) fail("unexpected end of data (truncated RLE block)");
        if (op + size > out.length) grow(op + size);
        out.fill(src[at]!, op, op + size);
        op += size;
        at += 1;
      } else {
        if (size > src.length - at) fail("unexpected end of data (truncated block)");
        if (type === 0) {
          if (size > blockLimit) fail("block larger than the maximum block size");
          if (op + size > out.length) grow(op + size);
          out.set(src.subarray(at, at + size), op);
          op += size;
        } else {
          if (size > blockLimit) fail("compressed block larger than the maximum block size");
          const before = op;
          op = decodeBlock(src, at, at + size, state, () => out, grow, op, frameStart, blockLimit);
          if (op - before > blockLimit) fail("block decodes to more than the maximum block size");
        }
        at += size;
      }
      if (last) break;
    }
    if (h.contentSize >= 0 && op - frameStart !== h.contentSize) {
      fail(`frame content size is ${h.contentSize} but the frame decodes to ${op - frameStart} bytes`);
    }
    if (h.checksum) {
      if (at + 4 > src.length) fail("unexpected end of data (truncated checksum)");
      if (options.verifyChecksum ?? true) {
        const stored = u32(src, at);
        const [, low] = xxh64(out, frameStart, op);
        if (stored !== low) {
          fail(
            `content checksum mismatch (stored 0x${stored.toString(16).padStart(8, "0")}, computed 0x${low.toString(16).padStart(8, "0")})`,
          );
        }
      }
      at += 4;
    }
  }
  return op === out.length ? out : out.slice(0, op);
}

/**
 * The total content size the frames of `src` declare (skippable frames count 0), or -1 when a
 * frame does not declare one. Walks the frame and block headers only; throws `MalformedInput` for
 * a malformed header and `OutputTooLarge` once the total passes `limit`.
 */
export function declaredContentSize(src: Uint8Array, limit: number): number {
  let declared = 0;
  for (let at = 0; at < src.length; ) {
    const info = frameInfo(src, at);
    if (info.skippable) {
      at = info.next;
      continue;
    }
    if (info.contentSize < 0) return -1;
    declared += info.contentSize;
    if (declared > limit) throw new OutputTooLarge();
    at = info.next;
  }
  return declared;
}

interface FrameInfo {
  readonly skippable: boolean;
  /** -1 when the frame does not say. */
  readonly contentSize: number;
  /** Where the next frame starts (only for skippable frames, or frames with a content size: computed by walking the blocks). */
  readonly next: number;
}

/** Finds a frame's content size and its end by walking its block headers. */
function frameInfo(src: Uint8Array, at: number): FrameInfo {
  if (src.length - at < 4) fail("unexpected end of data (truncated frame header)");
  const magic = u32(src, at);
  if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
    if (at + 8 > src.length) fail("unexpected end of data (truncated skippable frame)");
    const size = u32(src, at + 4);
    if (size > src.length - at - 8) fail("unexpected end of data (truncated skippable frame)");
    return { skippable: true, contentSize: 0, next: at + 8 + size };
  }
  if (magic !== MAGIC) fail(`not Zstandard data (magic number 0x${magic.toString(16).padStart(8, "0")})`);
  const h = readFrameHeader(src, at);
  if (h.contentSize < 0) return { skippable: false, contentSize: -1, next: -1 };
  let p = h.blocks;
  for (;;) {
    if (p + 3 > src.length) fail("unexpected end of data (truncated block header)");
    const header = src[p]! | (src[p + 1]! << 8) | (src[p + 2]! << 16);
    p += 3;
    const type = (header >>> 1) & 3;
    p += type === 1 ? 1 : header >>> 3;
    if (header & 1) break;
  }
  if (h.checksum) p += 4;
  if (p > src.length) fail("unexpected end of data (truncated frame)");
  return { skippable: false, contentSize: h.contentSize, next: p };
}

interface FrameHeader {
  readonly windowSize: number;
  /** -1 when absent. */
  readonly contentSize: number;
  readonly checksum: boolean;
  /** Where the first block header is. */
  readonly blocks: number;
}

function readFrameHeader(src: Uint8Array, at: number): FrameHeader {
  let p = at + 4;
  if (p >= src.length) fail("unexpected end of data (truncated frame header)");
  const descriptor = src[p++]!;
  const fcsFlag = descriptor >>> 6;
  const single = (descriptor >>> 5) & 1;
  if (descriptor & 8) fail("reserved bit set in the frame header");
  const checksum = ((descriptor >>> 2) & 1) === 1;
  const dictFlag = descriptor & 3;
  const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
  const dictBytes = dictFlag === 3 ? 4 : dictFlag;
  const headerEnd = p + (single ? 0 : 1) + dictBytes + fcsBytes;
  if (headerEnd > src.length) fail("unexpected end of data (truncated frame header)");
  let windowSize = 0;
  if (!single) {
    const wd = src[p++]!;
    const exponent = wd >>> 3;
    if (exponent > 31 - 10) fail("window size too large");
    const base = 2 ** (10 + exponent);
    windowSize = base + (base / 8) * (wd & 7);
  }
  let dictionary = 0;
  for (let i = 0; i < dictBytes; i++) dictionary += src[p++]! * 2 ** (8 * i);
  if (dictionary !== 0) fail(`the frame needs dictionary ${dictionary}, which is not available`);
  let contentSize = -1;
  if (fcsBytes > 0) {
    contentSize = 0;
    for (let i = 0; i < fcsBytes; i++) contentSize += src[p++]! * 2 ** (8 * i);
    if (fcsBytes === 2) contentSize += 256;
  }
  if (single) windowSize = contentSize;
  return { windowSize, contentSize, checksum, blocks: headerEnd };
}

/**
 * Decodes the compressed block `src[at, end)` into the output from `op`; returns the new output
 * position. `output()` is the current output buffer; `grow(n)` enlarges it to hold `n` bytes
 * (throwing `OutputTooLarge` past the limit) and returns it.
 */
function decodeBlock(
  src: Uint8Array,
  at: number,
  end: number,
  state: FrameState,
  output: () => Uint8Array,
  grow: (needed: number) => Uint8Array,
  op: number,
  frameStart: number,
  blockLimit: number,
): number {
  // Literals section.
  if (at >= end) fail("empty compressed block");
  const b0 = src[at]!;
  const litType = b0 & 3;
  const sizeFormat = (b0 >>> 2) & 3;
  let litSize: number;
  let lits: Uint8Array;
  let litStart = 0;
  if (litType === 0 || litType === 1) {
    let headerSize: number;
    if (sizeFormat === 0 || sizeFormat === 2) {
      litSize = b0 >>> 3;
      headerSize = 1;
    } else if (sizeFormat === 1) {
      if (at + 2 > end) fail("truncated literals header");
      litSize = (b0 >>> 4) | (src[at + 1]! << 4);
      headerSize = 2;
    } else {
      if (at + 3 > end) fail("truncated literals header");
      litSize = (b0 >>> 4) | (src[at + 1]! << 4) | (src[at + 2]! << 12);
      headerSize = 3;
    }
    if (litSize > blockLimit) fail("literals larger than a block");
    at += headerSize;
    if (litType === 0) {
      if (at + litSize > end) fail("truncated literals");
      lits = src;
      litStart = at;
      at += litSize;
    } else {
      if (at >= end) fail("truncated literals");
      lits = state.literals;
      lits.fill(src[at]!, 0, litSize);
      at += 1;
    }
  } else {
    let headerSize: number;
    let regenerated: number;
    let compressed: number;
    let streams = 4;
    if (sizeFormat <= 1) {
      if (at + 3 > end) fail("truncated literals header");
      const v = b0 | (src[at + 1]! << 8) | (src[at + 2]! << 16);
      regenerated = (v >>> 4) & 0x3ff;
      compressed = (v >>> 14) & 0x3ff;
      headerSize = 3;
      if (sizeFormat === 0) streams = 1;
    } else if (sizeFormat === 2) {
      if (at + 4 > end) fail("truncated literals header");
      const v = (b0 | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24)) >>> 0;
      regenerated = (v >>> 4) & 0x3fff;
      compressed = (v >>> 18) & 0x3fff;
      headerSize = 4;
    } else {
      if (at + 5 > end) fail("truncated literals header");
      const v = (b0 | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24)) >>> 0;
      regenerated = (v >>> 4) & 0x3ffff;
      compressed = ((v >>> 22) | (src[at + 4]! << 10)) & 0x3ffff;
      headerSize = 5;
    }
    if (regenerated > blockLimit) fail("literals larger than a block");
    at += headerSize;
    const litEnd = at + compressed;
    if (litEnd > end) fail("truncated literals");
    let p = at;
    if (litType === 2) {
      p = readHuffman(src, at, litEnd, state.huffman, state.bits, state.scratch);
    } else if (state.huffman.log === 0) {
      fail("literals reuse a Huffman table but there is none");
    }
    litSize = regenerated;
    lits = state.literals;
    if (streams === 1) {
      decodeHuffmanStream(src, p, litEnd, lits, 0, litSize, state.huffman, state.bits);
    } else {
      if (p + 6 > litEnd) fail("truncated literals jump table");
      const s1 = src[p]! | (src[p + 1]! << 8);
      const s2 = src[p + 2]! | (src[p + 3]! << 8);
      const s3 = src[p + 4]! | (src[p + 5]! << 8);
      p += 6;
      const segment = Math.floor((litSize + 3) / 4);
      if (p + s1 + s2 + s3 > litEnd || segment * 3 > litSize) fail("invalid literals jump table");
      decodeHuffman4(src, p, p + s1, p + s1 + s2, p + s1 + s2 + s3, litEnd, lits, litSize, state.huffman, state.bits);
    }
    at = litEnd;
  }

  // Sequences section.
  if (at >= end) fail("truncated sequences section");
  let nbSeq = src[at++]!;
  if (nbSeq >= 128) {
    if (nbSeq === 255) {
      if (at + 2 > end) fail("truncated sequences header");
      nbSeq = src[at]! + (src[at + 1]! << 8) + 0x7f00;
      at += 2;
    } else {
      if (at >= end) fail("truncated sequences header");
      nbSeq = ((nbSeq - 128) << 8) + src[at++]!;
    }
  }
  let out = output();
  if (nbSeq === 0) {
    if (at !== end) fail("bytes after the literals of a block without sequences");
    if (op + litSize > out.length) out = grow(op + litSize);
    out.set(lits.subarray(litStart, litStart + litSize), op);
    return op + litSize;
  }
  if (at >= end) fail("truncated sequences header");
  const modes = src[at++]!;
  if (modes & 3) fail("reserved bits set in the sequences header");
  const pick = (
    mode: number,
    table: FseTable,
    fallback: FseTable,
    current: FseTable | undefined,
    maxSymbols: number,
    maxLog: number,
  ): FseTable => {
    switch (mode) {
      case 0:
        return fallback;
      case 1:
        if (at >= end) fail("truncated sequences header");
        if (src[at]! >= maxSymbols) fail("invalid RLE symbol");
        rleFse(table, src[at++]!);
        return table;
      case 2:
        at = readFse(src, at, end, table, maxSymbols, maxLog);
        return table;
      default:
        if (current === undefined) fail("sequences reuse a table but there is none");
        return current!;
    }
  };
  const llTable = (state.llTable = pick(modes >>> 6, state.ll, LL_DEFAULT, state.llTable, 36, 9));
  const ofTable = (state.ofTable = pick((modes >>> 4) & 3, state.of, OF_DEFAULT, state.ofTable, 32, 8));
  const mlTable = (state.mlTable = pick((modes >>> 2) & 3, state.ml, ML_DEFAULT, state.mlTable, 53, 9));

  const bits = state.bits;
  bits.init(src, at, end);
  let ll = bits.read(llTable.log);
  let of = bits.read(ofTable.log);
  let ml = bits.read(mlTable.log);
  if (bits.bits < 0) fail("sequences bit stream over-read");
  let pos = bits.bits;
  let { rep1, rep2, rep3 } = state;
  let litPos = litStart;
  const litEnd = litStart + litSize;
  const llSym = llTable.symbol;
  const ofSym = ofTable.symbol;
  const mlSym = mlTable.symbol;
  const llBits = llTable.bits;
  const mlBits = mlTable.bits;
  const ofBits = ofTable.bits;
  const llBase = llTable.base;
  const mlBase = mlTable.base;
  const ofBase = ofTable.base;
  for (let i = 0; i < nbSeq; i++) {
    const ofCode = ofSym[of]!;
    const mlCode = mlSym[ml]!;
    const llCode = llSym[ll]!;
    if (ofCode > 31) fail("invalid offset code");
    // Extra bits: offset, match length, literal length (each read below the previous).
    pos -= ofCode;
    if (pos < 0) fail("sequences bit stream over-read");
    let offset = ofCode === 0 ? 1 : 2 ** ofCode + bitsAt(src, at, pos, ofCode);
    let n = ML_BITS[mlCode]!;
    pos -= n;
    if (pos < 0) fail("sequences bit stream over-read");
    const matchLength = ML_BASE[mlCode]! + (n === 0 ? 0 : bitsAt(src, at, pos, n));
    n = LL_BITS[llCode]!;
    pos -= n;
    if (pos < 0) fail("sequences bit stream over-read");
    const literalLength = LL_BASE[llCode]! + (n === 0 ? 0 : bitsAt(src, at, pos, n));
    if (offset > 3) {
      offset -= 3;
      rep3 = rep2;
      rep2 = rep1;
      rep1 = offset;
    } else {
      const index = literalLength === 0 ? offset + 1 : offset;
      if (index === 1) {
        offset = rep1;
      } else if (index === 2) {
        offset = rep2;
        rep2 = rep1;
        rep1 = offset;
      } else if (index === 3) {
        offset = rep3;
        rep3 = rep2;
        rep2 = rep1;
        rep1 = offset;
      } else {
        offset = rep1 - 1;
        rep3 = rep2;
        rep2 = rep1;
        rep1 = offset;
      }
    }
    if (i + 1 < nbSeq) {
      // State updates: literal length, match length, offset.
      n = llBits[ll]!;
      pos -= n;
      if (pos < 0) fail("sequences bit stream over-read");
      ll = llBase[ll]! + (n === 0 ? 0 : bitsAt(src, at, pos, n));
      n = mlBits[ml]!;
      pos -= n;
      if (pos < 0) fail("sequences bit stream over-read");
      ml = mlBase[ml]! + (n === 0 ? 0 : bitsAt(src, at, pos, n));
      n = ofBits[of]!;
      pos -= n;
      if (pos < 0) fail("sequences bit stream over-read");
      of = ofBase[of]! + (n === 0 ? 0 : bitsAt(src, at, pos, n));
    }
    if (literalLength > litEnd - litPos) fail("sequence uses more literals than the block has");
    const needed = op + literalLength + matchLength;
    if (needed > out.length) out = grow(needed);
    if (literalLength < 16) {
      for (let k = 0; k < literalLength; k++) out[op++] = lits[litPos++]!;
    } else {
      out.set(lits.subarray(litPos, litPos + literalLength), op);
      op += literalLength;
      litPos += literalLength;
    }
    if (offset <= 0 || offset > op - frameStart) fail("match offset before the start of the frame");
    let m = op - offset;
    if (offset >= matchLength && matchLength >= 32) {
      out.copyWithin(op, m, m + matchLength);
      op += matchLength;
    } else if (offset === 1) {
      out.fill(out[m]!, op, op + matchLength);
      op += matchLength;
    } else {
      const stop = op + matchLength;
      while (op < stop) out[op++] = out[m++]!;
    }
  }
  bits.bits = pos;
  if (bits.bits !== 0) fail("sequences bit stream does not end where it should");
  state.rep1 = rep1;
  state.rep2 = rep2;
  state.rep3 = rep3;
  const rest = litEnd - litPos;
  if (rest > 0) {
    if (op + rest > out.length) out = grow(op + rest);
    out.set(lits.subarray(litPos, litEnd), op);
    op += rest;
  }
  return op;
}
