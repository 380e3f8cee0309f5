/*
 * bzip2 encoding (not exported from the package): one stream, as Python's `bz2.compress(data,
 * level)` writes it, though not byte for byte the same.
 *
 * Each block (up to level × 100 000 bytes after run-length coding) is: runs of 4 to 255 equal
 * bytes coded as 4 bytes and a count; the Burrows-Wheeler transform, sorting the block's
 * rotations with a suffix array of the doubled block (SA-IS, linear time); move-to-front coding
 * with zero runs as RUNA/RUNB digits; and Huffman coding with 2 to 6 tables, each group of 50
 * symbols coded with the table that codes it shortest, tables refined over four passes.
 */
import { bz2CombineCrc, bz2CrcUpdate, derandomise } from "./bz2-tables.js";
import { suffixArray } from "./bz2-sais.js";

const GROUP_SIZE = 50;
const MAX_CODE_LENGTH = 17;
const REFINE_PASSES = 4;

export interface Bzip2EncodeOptions {
  /**
   * Write randomised blocks (as bzip2 before 0.9.5 did). Only for testing decoders: it makes the
   * output no smaller.
   */
  readonly randomise?: boolean;
}

/** Compresses `data` into one bzip2 stream with blocks of `level` × 100 000 bytes (1 to 9). */
export function encodeBzip2(data: Uint8Array, level: number, options: Bzip2EncodeOptions = {}): Uint8Array {
  if (!Number.isInteger(level) || level < 1 || level > 9)
    throw new RangeError(`bzip2 level must be 1 to 9, got ${level}`);
  const blockMax = level * 100000 - 19;
  const writer = new BitWriter(Math.max(64, Math.ceil(data.length * 1.01) + 64));
  writer.write(8, 0x42);
  writer.write(8, 0x5a);
  writer.write(8, 0x68);
  writer.write(8, 0x30 + level);

  const block = new Uint8Array(Math.min(blockMax + 5, rleBound(data.length)));
  const state = new BlockState(Math.min(blockMax + 5, rleBound(data.length)));
  let combined = 0;
  let position = 0;
  while (position < data.length) {
    // Run-length code bytes into the block until it is full.
    const start = position;
    let length = 0;
    while (position < data.length && length < blockMax) {
      const byte = data[position]!;
      let run = 1;
      const stop = Math.min(data.length, position + 255);
      while (position + run < stop && data[position + run] === byte) run++;
      position += run;
      if (run < 4) {
        for (let k = 0; k < run; k++) block[length++] = byte;
      } else {
        block[length] = byte;
        block[length + 1] = byte;
        block[length + 2] = byte;
        block[length + 3] = byte;
        block[length + 4] = run - 4;
        length += 5;
      }
    }
    const crc = ~bz2CrcUpdate(0xffffffff, data, start, position) >>> 0;
    combined = bz2CombineCrc(combined, crc);
    if (options.randomise) derandomise(block, 0, length);
    writeBlock(writer, block.subarray(0, length), crc, options.randomise === true, state);
  }
  writer.write(24, 0x177245);
  writer.write(24, 0x385090);
  writer.write(16, combined >>> 16);
  writer.write(16, combined & 0xffff);
  return writer.finish();
}

/** The most bytes `n` input bytes can take after run-length coding (a run of 4 becomes 5). */
function rleBound(n: number): number {
  return Math.max(1, n + Math.ceil(n / 4));
}

/** Most-significant-bit-first writing into a growing buffer. */
class BitWriter {
  private bytes: Uint8Array;
  private length = 0;
  private bits = 0;
  private count = 0;

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }

  /** Writes the low `n` bits of `value` (n ≤ 24). */
  write(n: number, value: number): void {
    this.bits = (this.bits << n) | (value & ((1 << n) - 1));
    this.count += n;
    while (this.count >= 8) {
      this.count -= 8;
      if (this.length === this.bytes.length) this.growBy(1);
      this.bytes[this.length++] = (this.bits >>> this.count) & 0xff;
    }
  }

  growBy(extra: number): void {
    const bytes = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    bytes.set(this.bytes.subarray(0, this.length));
    this.bytes = bytes;
  }

  /** Writes `count` symbols through a code (`codes[s]`, `lengths[s]`), symbols in `symbols[from..to)`. */
  writeSymbols(symbols: Uint16Array, from: number, to: number, codes: Int32Array, lengths: Uint8Array): void {
    if (this.length + (to - from) * 3 + 8 > this.bytes.length) this.growBy((to - from) * 3 + 8);
    const bytes = this.bytes;
    let bits = this.bits;
    let count = this.count;
    let length = this.length;
    for (let i = from; i < to; i++) {
      const symbol = symbols[i]!;
      const n = lengths[symbol]!;
      bits = (bits << n) | codes[symbol]!;
      count += n;
      while (count >= 8) {
        count -= 8;
        bytes[length++] = (bits >>> count) & 0xff;
      }
    }
    this.bits = bits;
    this.count = count;
    this.length = length;
  }

  finish(): Uint8Array {
    if (this.count > 0) this.write(8 - this.count, 0);
    return this.bytes.slice(0, this.length);
  }
}

/** Buffers reused from block to block. */
class BlockState {
  readonly doubled: Uint8Array;
  readonly last: Uint8Array;
  readonly symbols: Uint16Array;
  readonly selectors: Uint8Array;

  constructor(size: number) {
    this.doubled = new Uint8Array(2 * size);
    this.last = new Uint8Array(size);
    this.symbols = new Uint16Array(size + 1);
    this.selectors = new Uint8Array(Math.ceil((size + 1) / GROUP_SIZE));
  }
}

function writeBlock(writer: BitWriter, block: Uint8Array, crc: number, randomised: boolean, state: BlockState): void {
  const n = block.length;

  // Burrows-Wheeler transform: sort the rotations (the suffixes of the doubled block that start in
  // its first half sort as the rotations do; equal rotations have equal last bytes).
  const doubled = state.doubled.subarray(0, 2 * n);
  doubled.set(block);
  doubled.set(block, n);
  const sa = suffixArray(doubled, 2 * n, 256);
  const last = state.last;
  let origin = -1;
  for (let i = 0, k = 0; i < 2 * n; i++) {
    const p = sa[i]!;
    if (p >= n) continue;
    if (p === 0) origin = k;
    last[k++] = block[p === 0 ? n - 1 : p - 1]!;
  }

  // Move-to-front over the byte values in use, zero runs as RUNA (0) / RUNB (1) digits.
  const inUse = new Uint8Array(256);
  for (let i = 0; i < n; i++) inUse[block[i]!] = 1;
  const byteToSeq = new Uint8Array(256);
  let used = 0;
  for (let b = 0; b < 256; b++) if (inUse[b]) byteToSeq[b] = used++;
  const alphaSize = used + 2;
  const endOfBlock = used + 1;
  const symbols = state.symbols;
  const frequencies = new Int32Array(alphaSize);
  const order = new Uint8Array(256);
  for (let i = 0; i < used; i++) order[i] = i;
  let count = 0;
  let zeros = 0;
  const flushZeros = () => {
    let z = zeros - 1;
    for (;;) {
      const digit = z & 1;
      symbols[count++] = digit;
      frequencies[digit]!++;
      if (z < 2) break;
      z = (z - 2) >>> 1;
    }
    zeros = 0;
  };
  for (let i = 0; i < n; i++) {
    const seq = byteToSeq[last[i]!]!;
    if (order[0] === seq) {
      zeros++;
      continue;
    }
    if (zeros > 0) flushZeros();
    let j = 1;
    while (order[j] !== seq) j++;
    if (j < 16) for (let k = j; k > 0; k--) order[k] = order[k - 1]!;
    else order.copyWithin(1, 0, j);
    order[0] = seq;
    symbols[count++] = j + 1;
    frequencies[j + 1]!++;
  }
  if (zeros > 0) flushZeros();
  symbols[count++] = endOfBlock;
  frequencies[endOfBlock]!++;

  const { tables, selectors, groups, selectorCount } = chooseTables(
    symbols,
    count,
    frequencies,
    alphaSize,
    state.selectors,
  );

  writer.write(24, 0x314159);
  writer.write(24, 0x265359);
  writer.write(16, crc >>> 16);
  writer.write(16, crc & 0xffff);
  writer.write(1, randomised ? 1 : 0);
  writer.write(24, origin);
  let used16 = 0;
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 16; j++) if (inUse[i * 16 + j]) used16 |= 0x8000 >>> i;
  }
  writer.write(16, used16);
  for (let i = 0; i < 16; i++) {
    if ((used16 & (0x8000 >>> i)) === 0) continue;
    let bits = 0;
    for (let j = 0; j < 16; j++) if (inUse[i * 16 + j]) bits |= 0x8000 >>> j;
    writer.write(16, bits);
  }
  writer.write(3, groups);
  writer.write(15, selectorCount);
  const tableOrder = Uint8Array.of(0, 1, 2, 3, 4, 5);
  for (let i = 0; i < selectorCount; i++) {
    const table = selectors[i]!;
    let j = 0;
    while (tableOrder[j] !== table) j++;
    for (let k = j; k > 0; k--) tableOrder[k] = tableOrder[k - 1]!;
    tableOrder[0] = table;
    for (let k = 0; k < j; k++) writer.write(1, 1);
    writer.write(1, 0);
  }
  for (const { lengths } of tables) {
    let current = lengths[0]!;
    writer.write(5, current);
    for (let s = 0; s < alphaSize; s++) {
      const target = lengths[s]!;
      while (current < target) {
        writer.write(2, 2);
        current++;
      }
      while (current > target) {
        writer.write(2, 3);
        current--;
      }
      writer.write(1, 0);
    }
  }
  for (let g = 0; g < selectorCount; g++) {
    const table = tables[selectors[g]!]!;
    const from = g * GROUP_SIZE;
    writer.writeSymbols(symbols, from, Math.min(count, from + GROUP_SIZE), table.codes, table.lengths);
  }
}

interface CodeTable {
  lengths: Uint8Array;
  codes: Int32Array;
}

/**
 * Picks the Huffman tables and which codes each group of 50 symbols: starts from tables that each
 * favour one slice of the alphabet (slices of about equal frequency), then repeatedly assigns each
 * group to its cheapest table and rebuilds the tables from the symbols they were given.
 */
function chooseTables(
  symbols: Uint16Array,
  count: number,
  frequencies: Int32Array,
  alphaSize: number,
  selectors: Uint8Array,
): { tables: CodeTable[]; selectors: Uint8Array; groups: number; selectorCount: number } {
  const groups = count < 200 ? 2 : count < 600 ? 3 : count < 1200 ? 4 : count < 2400 ? 5 : 6;
  const selectorCount = Math.ceil(count / GROUP_SIZE);
  const lengths = Array.from({ length: groups }, () => new Uint8Array(alphaSize));

  // Initial tables: table t codes its slice of symbols short, everything else long.
  let remaining = count;
  let low = 0;
  for (let t = groups; t > 0; t--) {
    const target = remaining / t;
    let high = low - 1;
    let sum = 0;
    while (sum < target && high < alphaSize - 1) sum += frequencies[++high]!;
    const table = lengths[groups - t]!;
    for (let s = 0; s < alphaSize; s++) table[s] = s >= low && s <= high ? 0 : 15;
    low = high + 1;
    remaining -= sum;
  }

  const tableFrequencies = Array.from({ length: groups }, () => new Int32Array(alphaSize));
  for (let pass = 0; pass < REFINE_PASSES; pass++) {
    for (const f of tableFrequencies) f.fill(0);
    for (let g = 0; g < selectorCount; g++) {
      const from = g * GROUP_SIZE;
      const to = Math.min(count, from + GROUP_SIZE);
      let best = 0;
      let bestCost = Infinity;
      for (let t = 0; t < groups; t++) {
        const table = lengths[t]!;
        let cost = 0;
        for (let i = from; i < to; i++) cost += table[symbols[i]!]!;
        if (cost < bestCost) {
          bestCost = cost;
          best = t;
        }
      }
      selectors[g] = best;
      const f = tableFrequencies[best]!;
      for (let i = from; i < to; i++) f[symbols[i]!]!++;
    }
    for (let t = 0; t < groups; t++) huffmanLengths(tableFrequencies[t]!, alphaSize, MAX_CODE_LENGTH, lengths[t]!);
  }

  const tables = lengths.map((table) => ({ lengths: table, codes: canonicalCodes(table, alphaSize) }));
  return { tables, selectors, groups, selectorCount };
}

/** bzip2's code assignment: shorter codes first, equal lengths in symbol order. */
function canonicalCodes(lengths: Uint8Array, alphaSize: number): Int32Array {
  const codes = new Int32Array(alphaSize);
  let code = 0;
  for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
    for (let s = 0; s < alphaSize; s++) if (lengths[s] === length) codes[s] = code++;
    code <<= 1;
  }
  return codes;
}

/**
 * Huffman code lengths for these frequencies, none longer than `maxLength`. Every symbol gets a
 * code (bzip2 needs one for each), unused ones with weight 1. If the tree is too deep the weights
 * are flattened and it is built again.
 */
export function huffmanLengths(frequencies: Int32Array, n: number, maxLength: number, out: Uint8Array): void {
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) weights[i] = Math.max(1, frequencies[i]!) * 256;
  const parent = new Int32Array(2 * n);
  const nodeWeight = new Float64Array(2 * n);
  const heap = new Int32Array(2 * n);
  for (;;) {
    let size = 0;
    const push = (node: number) => {
      let i = size++;
      while (i > 0) {
        const up = (i - 1) >> 1;
        if (nodeWeight[heap[up]!]! <= nodeWeight[node]!) break;
        heap[i] = heap[up]!;
        i = up;
      }
      heap[i] = node;
    };
    const pop = (): number => {
      const top = heap[0]!;
      const lastNode = heap[--size]!;
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= size) break;
        if (child + 1 < size && nodeWeight[heap[child + 1]!]! < nodeWeight[heap[child]!]!) child++;
        if (nodeWeight[heap[child]!]! >= nodeWeight[lastNode]!) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = lastNode;
      return top;
    };
    for (let i = 0; i < n; i++) {
      nodeWeight[i] = weights[i]!;
      push(i);
    }
    let next = n;
    while (size > 1) {
      const a = pop();
      const b = pop();
      nodeWeight[next] = nodeWeight[a]! + nodeWeight[b]!;
      parent[a] = next;
      parent[b] = next;
      push(next++);
    }
    const root = next - 1;
    let deepest = 0;
    const depth = new Int32Array(next);
    for (let node = root - 1; node >= 0; node--) depth[node] = depth[parent[node]!]! + 1;
    for (let i = 0; i < n; i++) {
      out[i] = depth[i]!;
      if (depth[i]! > deepest) deepest = depth[i]!;
    }
    if (n === 1) out[0] = 1;
    if (deepest <= maxLength) return;
    for (let i = 0; i < n; i++) weights[i] = (1 + Math.floor(weights[i]! / 512)) * 256;
  }
}
