/*
 * The .xz container (not exported from the package): stream header, blocks (header, filtered
 * data, padding, check), index and stream footer, everything CRC-32-checked. Blocks may use the
 * filter chains [LZMA2] and [delta, …, LZMA2]; BCJ filters are refused.
 */
import { type OutputBuffer, corrupt, truncated } from "./bounded-output.js";
import { crc32 } from "./deflate-stream.js";
import { decodeLzma2, lzma2DictionarySize } from "./lzma-decode.js";
import { crc64, sha256 } from "./xz-checks.js";

export const XZ_MAGIC = Uint8Array.of(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00);
const FOOTER_MAGIC_0 = 0x59; // "Y"
const FOOTER_MAGIC_1 = 0x5a; // "Z"

export const FILTER_DELTA = 0x03;
export const FILTER_LZMA2 = 0x21;

/** Python's lzma.CHECK_* values. */
export const CHECK_NONE = 0;
export const CHECK_CRC32 = 1;
export const CHECK_CRC64 = 4;
export const CHECK_SHA256 = 10;

const FILTER_NAMES: Readonly<Record<number, string>> = {
  4: "x86 BCJ",
  5: "PowerPC BCJ",
  6: "IA-64 BCJ",
  7: "ARM BCJ",
  8: "ARM-Thumb BCJ",
  9: "SPARC BCJ",
  10: "ARM64 BCJ",
  11: "RISC-V BCJ",
};

/** Bytes of the check of type `type` (0-15): 0, 4, 8, 16, 32 or 64. */
export function checkSize(type: number): number {
  return type === 0 ? 0 : 4 << Math.floor((type - 1) / 3);
}

/** The check of `type` over `data`, as stored; `undefined` for types liblzma does not compute. */
export function computeCheck(type: number, data: Uint8Array): Uint8Array | undefined {
  switch (type) {
    case CHECK_NONE:
      return new Uint8Array(0);
    case CHECK_CRC32: {
      const out = new Uint8Array(4);
      new DataView(out.buffer).setUint32(0, crc32(data), true);
      return out;
    }
    case CHECK_CRC64:
      return crc64(data);
    case CHECK_SHA256:
      return sha256(data);
    default:
      return undefined;
  }
}

const CHECK_NAMES: Readonly<Record<number, string>> = { 1: "CRC-32", 4: "CRC-64", 10: "SHA-256" };

function readUint32LE(data: Uint8Array, pos: number): number {
  return (data[pos]! | (data[pos + 1]! << 8) | (data[pos + 2]! << 16) | (data[pos + 3]! << 24)) >>> 0;
}

/**
 * A variable-length integer (7 bits a byte, least significant first, at most 9 bytes, no
 * superfluous zero byte) from `data[pos..end)`; `[value, next position]`. Past `end` it fails with
 * `onEnd` (truncated input, or a field running out of its header).
 */
function readVli(data: Uint8Array, pos: number, end: number, onEnd: () => never): [number, number] {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    if (pos >= end) onEnd();
    const byte = data[pos++]!;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) {
      if (byte === 0 && i > 0) corrupt("invalid variable-length integer (superfluous zero byte)");
      return [value, pos];
    }
  }
  return corrupt("invalid variable-length integer (too long)");
}

interface BlockFilters {
  /** Delta distances of the filters before LZMA2, in chain order. */
  readonly deltas: number[];
  readonly dictionarySize: number;
}

/** Parses a block header at `data[pos..]`; returns its filters, stated sizes and length. */
function readBlockHeader(data: Uint8Array, pos: number) {
  const size = (data[pos]! + 1) * 4;
  if (pos + size > data.length) truncated();
  const end = pos + size - 4;
  if (crc32(data.subarray(pos, end)) !== readUint32LE(data, end)) corrupt("block header CRC-32 mismatch");
  const flags = data[pos + 1]!;
  if (flags & 0x3c) corrupt("unsupported block header flags");
  const inHeader = (): never => corrupt("invalid block header");
  let at = pos + 2;
  let compressedSize: number | undefined;
  let uncompressedSize: number | undefined;
  if (flags & 0x40) {
    [compressedSize, at] = readVli(data, at, end, inHeader);
    if (compressedSize === 0) corrupt("invalid block header (compressed size 0)");
  }
  if (flags & 0x80) [uncompressedSize, at] = readVli(data, at, end, inHeader);
  const count = (flags & 3) + 1;
  const deltas: number[] = [];
  let dictionarySize = 0;
  for (let i = 0; i < count; i++) {
    let id: number;
    let propertiesSize: number;
    [id, at] = readVli(data, at, end, inHeader);
    [propertiesSize, at] = readVli(data, at, end, inHeader);
    if (at + propertiesSize > end) inHeader();
    const last = i === count - 1;
    if (id === FILTER_LZMA2) {
      if (!last) corrupt("LZMA2 filter not last in the filter chain");
      if (propertiesSize !== 1) corrupt("invalid LZMA2 filter properties");
      if (data[at]! & 0xc0) corrupt("invalid LZMA2 filter properties");
      dictionarySize = lzma2DictionarySize(data[at]!);
    } else if (id === FILTER_DELTA) {
      if (last) corrupt("the filter chain does not end with LZMA2");
      if (propertiesSize !== 1) corrupt("invalid delta filter properties");
      deltas.push(data[at]! + 1);
    } else {
      const name = FILTER_NAMES[id];
      corrupt(name ? `unsupported filter: ${name}` : `unsupported filter ID 0x${id.toString(16)}`);
    }
    at += propertiesSize;
  }
  for (; at < end; at++) if (data[at] !== 0) corrupt("invalid block header padding");
  const filters: BlockFilters = { deltas, dictionarySize };
  return { size, filters, compressedSize, uncompressedSize };
}

/** Undoes a delta filter over `bytes[start..end)` (history starts as zeros). */
export function deltaDecode(bytes: Uint8Array, start: number, end: number, distance: number): void {
  for (let i = start + distance; i < end; i++) bytes[i] = bytes[i]! + bytes[i - distance]!;
}

/** Applies a delta filter: the difference from the byte `distance` back (a new array). */
export function deltaEncode(bytes: Uint8Array, distance: number): Uint8Array {
  const out = bytes.slice();
  for (let i = distance; i < bytes.length; i++) out[i] = bytes[i]! - bytes[i - distance]!;
  return out;
}

/**
 * Decodes one .xz stream at `data[pos..]` onto `out`, verifying every block's check, the index
 * and the footer. Returns where the stream ends.
 */
export function decodeXzStream(data: Uint8Array, pos: number, out: OutputBuffer): number {
  if (data.length - pos < 12) truncated();
  for (let i = 0; i < 6; i++) if (data[pos + i] !== XZ_MAGIC[i]) corrupt("not xz data (bad magic bytes)");
  const flags0 = data[pos + 6]!;
  const flags1 = data[pos + 7]!;
  if (crc32(data.subarray(pos + 6, pos + 8)) !== readUint32LE(data, pos + 8)) corrupt("stream header CRC-32 mismatch");
  if (flags0 !== 0 || flags1 & 0xf0) corrupt("unsupported stream flags");
  const check = flags1 & 0x0f;
  const checkLength = checkSize(check);
  pos += 12;

  const records: number[] = [];
  for (let block = 0; ; block++) {
    if (pos >= data.length) truncated();
    if (data[pos] === 0x00) break;
    const header = readBlockHeader(data, pos);
    const start = out.length;
    if (header.uncompressedSize !== undefined) out.reserve(header.uncompressedSize);
    const dataStart = pos + header.size;
    const dataEnd = decodeLzma2(data, dataStart, out);
    const compressed = dataEnd - dataStart;
    const uncompressed = out.length - start;
    if (header.compressedSize !== undefined && header.compressedSize !== compressed) {
      corrupt(`block ${block}: compressed size differs from its header`);
    }
    if (header.uncompressedSize !== undefined && header.uncompressedSize !== uncompressed) {
      corrupt(`block ${block}: uncompressed size differs from its header`);
    }
    const { deltas } = header.filters;
    for (let i = deltas.length - 1; i >= 0; i--) deltaDecode(out.bytes, start, out.length, deltas[i]!);
    pos = dataEnd;
    while ((pos - dataStart + header.size) % 4 !== 0) {
      if (pos >= data.length) truncated();
      if (data[pos++] !== 0) corrupt(`block ${block}: invalid block padding`);
    }
    if (pos + checkLength > data.length) truncated();
    const expected = computeCheck(check, out.bytes.subarray(start, out.length));
    if (expected) {
      for (let i = 0; i < checkLength; i++) {
        if (data[pos + i] !== expected[i]) corrupt(`block ${block}: ${CHECK_NAMES[check]} mismatch`);
      }
    }
    pos += checkLength;
    records.push(header.size + compressed + checkLength, uncompressed);
  }

  // The index: the blocks' unpadded and uncompressed sizes, which must match what was decoded.
  const indexStart = pos;
  const atEnd = (): never => truncated();
  let count: number;
  [count, pos] = readVli(data, pos + 1, data.length, atEnd);
  if (count !== records.length / 2) corrupt("index does not match the blocks (number of records)");
  for (let i = 0; i < records.length; i += 2) {
    let unpadded: number;
    let uncompressed: number;
    [unpadded, pos] = readVli(data, pos, data.length, atEnd);
    [uncompressed, pos] = readVli(data, pos, data.length, atEnd);
    if (unpadded !== records[i] || uncompressed !== records[i + 1]) corrupt("index does not match the blocks");
  }
  while ((pos - indexStart) % 4 !== 0) {
    if (pos >= data.length) truncated();
    if (data[pos++] !== 0) corrupt("invalid index padding");
  }
  if (pos + 4 > data.length) truncated();
  if (crc32(data.subarray(indexStart, pos)) !== readUint32LE(data, pos)) corrupt("index CRC-32 mismatch");
  pos += 4;
  const indexSize = pos - indexStart;

  if (pos + 12 > data.length) truncated();
  if (crc32(data.subarray(pos + 4, pos + 10)) !== readUint32LE(data, pos)) corrupt("stream footer CRC-32 mismatch");
  if ((readUint32LE(data, pos + 4) + 1) * 4 !== indexSize) corrupt("stream footer does not match the index size");
  if (data[pos + 8] !== flags0 || data[pos + 9] !== flags1) corrupt("stream footer flags differ from the header");
  if (data[pos + 10] !== FOOTER_MAGIC_0 || data[pos + 11] !== FOOTER_MAGIC_1) corrupt("bad stream footer magic bytes");
  return pos + 12;
}

// ---------------------------------------------------------------------------------------------
// Writing

function writeVli(out: number[], value: number): void {
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
}

function pushUint32LE(out: number[], value: number): void {
  out.push(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff);
}

function pushCrc32(out: number[], from: number): void {
  pushUint32LE(out, crc32(Uint8Array.from(out.slice(from))));
}

/** The filter flags of a block header: each `[id, properties]`, in chain order. */
export type FilterFlags = readonly (readonly [id: number, properties: readonly number[]])[];

/** The smallest LZMA2 dictionary size byte standing for at least `size` bytes. */
export function lzma2DictionaryByte(size: number): number {
  for (let byte = 0; byte < 40; byte++) if (lzma2DictionarySize(byte) >= size) return byte;
  return 40;
}

/**
 * A whole .xz stream: one block holding `payload` (the filtered, LZMA2-coded data) of `uncompressed`,
 * or no block for empty data, as liblzma writes it.
 */
export function writeXz(
  check: number,
  filters: FilterFlags,
  payload: Uint8Array | undefined,
  uncompressed: Uint8Array,
): Uint8Array {
  const head: number[] = [...XZ_MAGIC, 0, check];
  pushCrc32(head, 6);
  const block: number[] = [];
  const records: number[] = [];
  if (payload) {
    const header: number[] = [0, filters.length - 1];
    for (const [id, properties] of filters) {
      writeVli(header, id);
      writeVli(header, properties.length);
      header.push(...properties);
    }
    while ((header.length + 4) % 4 !== 0) header.push(0);
    header[0] = (header.length + 4) / 4 - 1;
    pushCrc32(header, 0);
    block.push(...header);
    const checkValue = computeCheck(check, uncompressed)!;
    records.push(header.length + payload.length + checkValue.length, uncompressed.length);
    const padding = (4 - ((header.length + payload.length) % 4)) % 4;
    const tail: number[] = new Array<number>(padding).fill(0);
    tail.push(...checkValue);
    const index = writeIndex(records);
    const foot = writeFooter(check, index.length);
    return concat([Uint8Array.from(head), Uint8Array.from(block), payload, Uint8Array.from(tail), index, foot]);
  }
  const index = writeIndex(records);
  return concat([Uint8Array.from(head), index, writeFooter(check, index.length)]);
}

function writeIndex(records: readonly number[]): Uint8Array {
  const index: number[] = [0];
  writeVli(index, records.length / 2);
  for (const value of records) writeVli(index, value);
  while (index.length % 4 !== 0) index.push(0);
  pushCrc32(index, 0);
  return Uint8Array.from(index);
}

function writeFooter(check: number, indexSize: number): Uint8Array {
  const foot: number[] = [];
  pushUint32LE(foot, indexSize / 4 - 1);
  foot.push(0, check);
  const crc = crc32(Uint8Array.from(foot));
  const out: number[] = [];
  pushUint32LE(out, crc);
  out.push(...foot, FOOTER_MAGIC_0, FOOTER_MAGIC_1);
  return Uint8Array.from(out);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
