import { StoreError } from "@z/meta";
import { inflateSync } from "fflate";
import { u16, u32, u64 } from "./binary.js";
import { readExactly, type ByteSource } from "./byte-source.js";
import { crc32 } from "./crc32.js";
import type { ZipEntry } from "./entry.js";
import { splitExtra } from "./extra-fields.js";
import {
  EXTRA_ZIP64,
  FLAG_DATA_DESCRIPTOR,
  FLAG_ENCRYPTED,
  LOCAL_HEADER_SIZE,
  MAX_DEFLATE_RATIO,
  MAX_U32,
  METHOD_DEFLATE,
  METHOD_STORED,
  SIG_DATA_DESCRIPTOR,
  SIG_LOCAL,
  methodName,
} from "./records.js";

/**
 * How many bytes more than the central directory's name and extra field a first read takes for
 * the local header, whose extra field is often a little longer (zip64 sizes, Info-ZIP's longer
 * timestamps): with it, one read usually gets the header and the data together.
 */
const LOCAL_SLACK = 256;

export interface ReadContext {
  source: ByteSource;
  /** The size of the byte source, which no entry may run past. */
  sourceSize: number;
  signal?: AbortSignal;
}

/** The whole value of a file entry: read, checked against its local header, inflated, CRC-checked. */
export async function readEntry(entry: ZipEntry, context: ReadContext): Promise<Uint8Array> {
  const key = entry.name;
  checkReadable(entry);
  checkSizes(entry);
  const compressed = await readCompressed(entry, context);
  const value = decompress(entry, compressed);
  const actual = crc32(value);
  if (actual !== entry.crc32) {
    throw new StoreError(
      `corrupt zip entry ${JSON.stringify(key)}: CRC-32 mismatch (the central directory says ${hex(entry.crc32)}, the data has ${hex(actual)})`,
      { key },
    );
  }
  return value;
}

/**
 * Bytes `start` to `end` of a stored entry's value, reading only those (plus its local header the
 * first time). The CRC of a part cannot be checked; whole reads check it.
 */
export async function readStoredRange(
  entry: ZipEntry,
  start: number,
  end: number,
  context: ReadContext,
): Promise<Uint8Array> {
  checkReadable(entry);
  if (entry.compressedSize !== entry.size)
    throw sizesDisagree(entry, `a stored entry of ${entry.size} bytes holds ${entry.compressedSize} bytes`);
  if (end <= start) return new Uint8Array(0);
  const dataOffset = entry.dataOffset ?? (await locateData(entry, context, 0)).dataOffset;
  const part = await readExactly(
    context.source,
    dataOffset + start,
    end - start,
    `zip entry ${JSON.stringify(entry.name)}`,
    { key: entry.name, signal: context.signal },
  );
  return part.slice();
}

/**
 * How many bytes the entry takes in the archive from its local header on: header, data and, when
 * flag bit 3 says the sizes follow the data, the data descriptor (with or without its signature,
 * 32- or 64-bit sizes: whichever agrees with the central directory). For moving entries.
 */
export async function recordLength(entry: ZipEntry, context: ReadContext): Promise<number> {
  const key = entry.name;
  const { dataOffset } = await locateData(entry, context, 0);
  const dataEnd = dataOffset + entry.compressedSize;
  if ((entry.flags & FLAG_DATA_DESCRIPTOR) === 0) return dataEnd - entry.offset;
  const tail = await readExactly(
    context.source,
    dataEnd,
    Math.min(24, context.sourceSize - dataEnd),
    `the data descriptor of zip entry ${JSON.stringify(key)}`,
    { key, signal: context.signal },
  );
  for (const signed of [true, false]) {
    const at = signed ? 4 : 0;
    if (signed && !(tail.length >= 4 && u32(tail, 0) === SIG_DATA_DESCRIPTOR)) continue;
    if (tail.length < at + 12 || u32(tail, at) !== entry.crc32) continue;
    if (tail.length >= at + 20 && u64(tail, at + 4) === entry.compressedSize && u64(tail, at + 12) === entry.size)
      return dataEnd + at + 20 - entry.offset;
    if (u32(tail, at + 4) === entry.compressedSize && u32(tail, at + 8) === entry.size)
      return dataEnd + at + 12 - entry.offset;
  }
  throw new StoreError(
    `corrupt zip entry ${JSON.stringify(key)}: no data descriptor matching the central directory's CRC and sizes after its data (offset ${dataEnd})`,
    { key },
  );
}

function checkReadable(entry: ZipEntry): void {
  const key = entry.name;
  if ((entry.flags & FLAG_ENCRYPTED) !== 0)
    throw new StoreError(`cannot read zip entry ${JSON.stringify(key)}: it is encrypted`, { key });
  if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATE) {
    throw new StoreError(
      `cannot read zip entry ${JSON.stringify(key)}: unsupported compression ${methodName(entry.method)} (only stored and deflate are)`,
      { key },
    );
  }
}

/**
 * The sizes the central directory claims must be possible before anything is read or allocated
 * for them: a stored entry holds exactly its size, and deflate cannot expand more than
 * {@link MAX_DEFLATE_RATIO} to 1 (so a corrupt size of terabytes fails here, not in `new
 * Uint8Array`). The compressed size itself is bounded by the archive (checked before reading).
 */
function checkSizes(entry: ZipEntry): void {
  if (entry.method === METHOD_STORED && entry.size !== entry.compressedSize) {
    throw sizesDisagree(entry, `a stored entry of ${entry.size} bytes holds ${entry.compressedSize} bytes`);
  }
  const most = entry.compressedSize * MAX_DEFLATE_RATIO + 1024;
  if (entry.method === METHOD_DEFLATE && entry.size > most) {
    throw sizesDisagree(
      entry,
      `the central directory says ${entry.size} bytes inflated from ${entry.compressedSize} compressed, more than deflate can produce (at most ${most})`,
    );
  }
}

/** The entry's compressed bytes. */
async function readCompressed(entry: ZipEntry, context: ReadContext): Promise<Uint8Array> {
  const what = `zip entry ${JSON.stringify(entry.name)}`;
  if (entry.dataOffset !== undefined) {
    checkDataFits(entry, entry.dataOffset, context);
    return readExactly(context.source, entry.dataOffset, entry.compressedSize, what, {
      key: entry.name,
      signal: context.signal,
    });
  }
  const { dataOffset, head, headStart } = await locateData(entry, context, entry.compressedSize);
  const from = dataOffset - headStart;
  if (from + entry.compressedSize <= head.length) return head.subarray(from, from + entry.compressedSize);
  return readExactly(context.source, dataOffset, entry.compressedSize, what, {
    key: entry.name,
    signal: context.signal,
  });
}

/**
 * Reads and checks the local header (and, speculatively, `prefetch` bytes after it), records where
 * the data starts on the entry, and returns the bytes read.
 */
async function locateData(
  entry: ZipEntry,
  context: ReadContext,
  prefetch: number,
): Promise<{ dataOffset: number; head: Uint8Array; headStart: number }> {
  const key = entry.name;
  const available = context.sourceSize - entry.offset;
  if (available < LOCAL_HEADER_SIZE) {
    throw new StoreError(
      `corrupt zip entry ${JSON.stringify(key)}: its local header at offset ${entry.offset} lies past the end of the ${context.sourceSize}-byte archive (truncated?)`,
      { key },
    );
  }
  const want = Math.min(
    available,
    LOCAL_HEADER_SIZE + entry.rawName.length + entry.extra.length + LOCAL_SLACK + prefetch,
  );
  let head = await readExactly(
    context.source,
    entry.offset,
    want,
    `the local header of zip entry ${JSON.stringify(key)}`,
    { key, signal: context.signal },
  );
  if (u32(head, 0) !== SIG_LOCAL) {
    throw new StoreError(
      `corrupt zip entry ${JSON.stringify(key)}: bad local header signature 0x${u32(head, 0).toString(16).padStart(8, "0")} at offset ${entry.offset} (expected 0x${SIG_LOCAL.toString(16).padStart(8, "0")})`,
      { key },
    );
  }
  const nameLength = u16(head, 26);
  const extraLength = u16(head, 28);
  const headerLength = LOCAL_HEADER_SIZE + nameLength + extraLength;
  if (headerLength > available) {
    throw new StoreError(
      `corrupt zip entry ${JSON.stringify(key)}: its local header runs past the end of the archive (truncated?)`,
      { key },
    );
  }
  if (headerLength > head.length) {
    head = await readExactly(
      context.source,
      entry.offset,
      headerLength,
      `the local header of zip entry ${JSON.stringify(key)}`,
      { key, signal: context.signal },
    );
  }
  checkLocalHeader(entry, head, nameLength, extraLength);
  const dataOffset = entry.offset + headerLength;
  checkDataFits(entry, dataOffset, context);
  entry.dataOffset = dataOffset;
  return { dataOffset, head, headStart: entry.offset };
}

/** The local header must name the same entry and, unless sizes follow the data, agree on them. */
function checkLocalHeader(entry: ZipEntry, head: Uint8Array, nameLength: number, extraLength: number): void {
  const key = entry.name;
  const localName = head.subarray(LOCAL_HEADER_SIZE, LOCAL_HEADER_SIZE + nameLength);
  if (!sameBytes(localName, entry.rawName)) {
    const shown = new TextDecoder().decode(localName);
    throw new StoreError(
      `corrupt zip entry ${JSON.stringify(key)}: its local header names ${JSON.stringify(shown)} (the central directory points at another entry's header)`,
      { key },
    );
  }
  const flags = u16(head, 6);
  if ((flags & FLAG_DATA_DESCRIPTOR) !== 0) return;
  let compressedSize = u32(head, 18);
  let size = u32(head, 22);
  if (size === MAX_U32 || compressedSize === MAX_U32) {
    const extra = head.subarray(LOCAL_HEADER_SIZE + nameLength, LOCAL_HEADER_SIZE + nameLength + extraLength);
    const zip64 = splitExtra(extra, "its local header", key).find((field) => field.id === EXTRA_ZIP64);
    if (zip64 !== undefined) {
      let cursor = 0;
      const next = (): number => {
        const value = cursor + 8 <= zip64.data.length ? u64(zip64.data, cursor) : undefined;
        cursor += 8;
        return value ?? -1;
      };
      if (size === MAX_U32) size = next();
      if (compressedSize === MAX_U32) compressedSize = next();
    }
  }
  if (size !== entry.size || compressedSize !== entry.compressedSize) {
    throw sizesDisagree(
      entry,
      `the central directory says ${entry.compressedSize} bytes compressed, ${entry.size} uncompressed; the local header says ${compressedSize} and ${size}`,
    );
  }
}

function checkDataFits(entry: ZipEntry, dataOffset: number, context: ReadContext): void {
  if (dataOffset + entry.compressedSize > context.sourceSize) {
    const key = entry.name;
    throw new StoreError(
      `corrupt zip entry ${JSON.stringify(key)}: its ${entry.compressedSize} bytes of data at offset ${dataOffset} run past the end of the ${context.sourceSize}-byte archive (truncated?)`,
      { key },
    );
  }
}

function decompress(entry: ZipEntry, compressed: Uint8Array): Uint8Array {
  const key = entry.name;
  if (entry.method === METHOD_STORED) {
    if (compressed.length !== entry.size)
      throw sizesDisagree(entry, `a stored entry of ${entry.size} bytes holds ${compressed.length} bytes`);
    // A copy: the bytes may be a view of the source's memory, and callers own what they get.
    return compressed.slice();
  }
  if (entry.size === 0 && compressed.length === 0) return new Uint8Array(0);
  let out: Uint8Array;
  try {
    // One byte more than declared: fflate cuts output at the buffer's end, so a full buffer means
    // the data inflates to more than the central directory says.
    out = inflateSync(compressed, { out: new Uint8Array(entry.size + 1) });
  } catch (err) {
    if (err instanceof RangeError) {
      throw new StoreError(`cannot read zip entry ${JSON.stringify(key)}: ${entry.size} bytes do not fit in memory`, {
        key,
        cause: err,
      });
    }
    const detail = err instanceof Error ? err.message : String(err);
    throw new StoreError(`corrupt zip entry ${JSON.stringify(key)}: invalid deflate data (${detail})`, {
      key,
      cause: err,
    });
  }
  if (out.length !== entry.size) {
    throw sizesDisagree(
      entry,
      `the central directory says ${entry.size} bytes, the data inflates to ${out.length > entry.size ? "more" : out.length}`,
    );
  }
  // fflate may return a view of the larger buffer; give back exactly the value.
  return out.byteLength === out.buffer.byteLength ? out : out.slice();
}

function sizesDisagree(entry: ZipEntry, detail: string): StoreError {
  return new StoreError(`corrupt zip entry ${JSON.stringify(entry.name)}: sizes disagree (${detail})`, {
    key: entry.name,
  });
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, "0")}`;
}
