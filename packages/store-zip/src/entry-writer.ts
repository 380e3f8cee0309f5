import { deflateSync } from "fflate";
import { ByteWriter } from "./binary.js";
import { crc32 } from "./crc32.js";
import { toDosDateTime } from "./dos-time.js";
import { NO_BYTES, makeEntry, type ZipEntry } from "./entry.js";
import { encodeName } from "./names.js";
import {
  CENTRAL_HEADER_SIZE,
  EXTRA_ZIP64,
  LOCAL_HEADER_SIZE,
  MADE_BY_UNIX,
  MAX_U16,
  MAX_U32,
  METHOD_DEFLATE,
  SIG_CENTRAL,
  SIG_END,
  SIG_LOCAL,
  SIG_ZIP64_END,
  SIG_ZIP64_LOCATOR,
  END_SIZE,
  ZIP64_LOCATOR_SIZE,
  VERSION_DEFAULT,
  VERSION_ZIP64,
  ZIP64_END_SIZE,
} from "./records.js";

export interface EntryEncoding {
  /** 0 (stored) or 8 (deflate). */
  method: number;
  /** Deflate level, 0 to 9. */
  level: number;
  modified: Date;
  /** Write zip64 fields even when the values fit in 32 bits, as zipfile's `force_zip64` does. */
  forceZip64: boolean;
}

/** `rw-r--r--` in the high 16 bits, as zarr-python's `ZipStore` sets for every key. */
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

/**
 * A new file entry for `value`: its central directory record (at offset 0 until placed), the
 * bytes to write (local header followed by the compressed data) and the local header's length. Sizes go in the header, so no
 * data descriptor is needed.
 */
export function encodeEntry(
  name: string,
  value: Uint8Array,
  encoding: EntryEncoding,
): { entry: ZipEntry; bytes: Uint8Array; headerLength: number } {
  const data = encoding.method === METHOD_DEFLATE ? deflateSync(value, { level: encoding.level as 0 }) : value;
  const { raw, flags } = encodeName(name);
  const { dosDate, dosTime } = toDosDateTime(encoding.modified);
  const crc = crc32(value);
  const zip64 = encoding.forceZip64 || value.length >= MAX_U32 || data.length >= MAX_U32;
  const version = zip64 ? VERSION_ZIP64 : VERSION_DEFAULT;

  const headerLength = LOCAL_HEADER_SIZE + raw.length + (zip64 ? 20 : 0);
  // Sized exactly, so the result is the writer's buffer itself, not a copy.
  const out = new ByteWriter(headerLength + data.length);
  out.u32(SIG_LOCAL).u16(version).u16(flags).u16(encoding.method).u16(dosTime).u16(dosDate).u32(crc);
  out.u32(zip64 ? MAX_U32 : data.length).u32(zip64 ? MAX_U32 : value.length);
  out
    .u16(raw.length)
    .u16(zip64 ? 20 : 0)
    .bytes(raw);
  // In a local header the zip64 field holds both sizes, uncompressed first.
  if (zip64) out.u16(EXTRA_ZIP64).u16(16).u64(value.length).u64(data.length);
  const bytes = out.bytes(data).result();
  const entry = makeEntry({
    name,
    rawName: raw,
    flags,
    method: encoding.method,
    dosTime,
    dosDate,
    crc32: crc,
    compressedSize: data.length,
    size: value.length,
    versionMadeBy: MADE_BY_UNIX | version,
    versionNeeded: version,
    internalAttributes: 0,
    externalAttributes: FILE_ATTRIBUTES,
    offset: 0,
    extra: NO_BYTES,
    comment: NO_BYTES,
  });
  return { entry, bytes, headerLength };
}

/**
 * The central directory for `entries` and the end records after it, to be written at
 * `centralStart` in a source whose archive begins at `base`. Zip64 records and fields are written
 * where a value does not fit its 32- or 16-bit field (or always, with `forceZip64`).
 */
export function encodeCentralDirectory(
  entries: readonly ZipEntry[],
  centralStart: number,
  base: number,
  comment: Uint8Array,
  forceZip64: boolean,
): Uint8Array {
  const zip64Fields = (entry: ZipEntry): number =>
    (forceZip64 || entry.size >= MAX_U32 ? 1 : 0) +
    (forceZip64 || entry.compressedSize >= MAX_U32 ? 1 : 0) +
    (forceZip64 || entry.offset - base >= MAX_U32 ? 1 : 0);
  let capacity = 0;
  for (const entry of entries) {
    const fields = zip64Fields(entry);
    capacity +=
      CENTRAL_HEADER_SIZE +
      entry.rawName.length +
      (fields > 0 ? 4 + 8 * fields : 0) +
      entry.extra.length +
      entry.comment.length;
  }
  const out = new ByteWriter(
    capacity + ZIP64_END_SIZE + ZIP64_LOCATOR_SIZE + END_SIZE + Math.min(comment.length, MAX_U16),
  );
  for (const entry of entries) {
    const offset = entry.offset - base;
    const bigSize = forceZip64 || entry.size >= MAX_U32;
    const bigCompressed = forceZip64 || entry.compressedSize >= MAX_U32;
    const bigOffset = forceZip64 || offset >= MAX_U32;
    const fields = zip64Fields(entry);
    const needed = fields === 0 ? entry.versionNeeded : Math.max(entry.versionNeeded, VERSION_ZIP64);
    const madeBy =
      fields === 0
        ? entry.versionMadeBy
        : (entry.versionMadeBy & 0xff00) | Math.max(entry.versionMadeBy & 0xff, VERSION_ZIP64);
    const extraLength = (fields > 0 ? 4 + 8 * fields : 0) + entry.extra.length;
    out
      .u32(SIG_CENTRAL)
      .u16(madeBy)
      .u16(needed)
      .u16(entry.flags)
      .u16(entry.method)
      .u16(entry.dosTime)
      .u16(entry.dosDate)
      .u32(entry.crc32);
    out.u32(bigCompressed ? MAX_U32 : entry.compressedSize).u32(bigSize ? MAX_U32 : entry.size);
    out
      .u16(entry.rawName.length)
      .u16(extraLength)
      .u16(entry.comment.length)
      .u16(0)
      .u16(entry.internalAttributes)
      .u32(entry.externalAttributes);
    out.u32(bigOffset ? MAX_U32 : offset).bytes(entry.rawName);
    // The zip64 field holds, in this order, exactly the values whose 32-bit fields are maxed out.
    if (fields > 0) {
      out.u16(EXTRA_ZIP64).u16(8 * fields);
      if (bigSize) out.u64(entry.size);
      if (bigCompressed) out.u64(entry.compressedSize);
      if (bigOffset) out.u64(offset);
    }
    out.bytes(entry.extra).bytes(entry.comment);
  }
  const centralSize = out.length;
  const centralOffset = centralStart - base;
  const count = entries.length;
  if (forceZip64 || count >= MAX_U16 || centralSize >= MAX_U32 || centralOffset >= MAX_U32) {
    const zip64EndOffset = centralOffset + centralSize;
    out
      .u32(SIG_ZIP64_END)
      .u64(ZIP64_END_SIZE - 12)
      .u16(MADE_BY_UNIX | VERSION_ZIP64)
      .u16(VERSION_ZIP64)
      .u32(0)
      .u32(0);
    out.u64(count).u64(count).u64(centralSize).u64(centralOffset);
    out.u32(SIG_ZIP64_LOCATOR).u32(0).u64(zip64EndOffset).u32(1);
  }
  const shownCount = Math.min(count, MAX_U16);
  const kept = comment.subarray(0, MAX_U16);
  out.u32(SIG_END).u16(0).u16(0).u16(shownCount).u16(shownCount);
  out.u32(Math.min(centralSize, MAX_U32)).u32(Math.min(centralOffset, MAX_U32)).u16(kept.length).bytes(kept);
  return out.result();
}
