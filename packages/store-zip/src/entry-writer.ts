import { deflateSync } from "fflate";
import { ByteWriter } from "./binary.js";
import { crc32 } from "./crc32.js";
import { toDosDateTime } from "./dos-time.js";
import type { ZipEntry } from "./entry.js";
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
 * A new file entry for `value`: its central directory record (the offset still to be set), the
 * bytes to write (local header followed by the compressed data) and the local header's length. Sizes go in the header, so no
 * data descriptor is needed.
 */
export function encodeEntry(name: string, value: Uint8Array, encoding: EntryEncoding): { entry: Omit<ZipEntry, "offset" | "dataOffset">; bytes: Uint8Array; headerLength: number } {
  const data = encoding.method === METHOD_DEFLATE ? deflateSync(value, { level: encoding.level as 0 }) : value;
  const { raw, flags } = encodeName(name);
  const { dosDate, dosTime } = toDosDateTime(encoding.modified);
  const crc = crc32(value);
  const zip64 = encoding.forceZip64 || value.length >= MAX_U32 || data.length >= MAX_U32;
  const version = zip64 ? VERSION_ZIP64 : VERSION_DEFAULT;

  const header = new ByteWriter(LOCAL_HEADER_SIZE + raw.length + 20);
  header.u32(SIG_LOCAL).u16(version).u16(flags).u16(encoding.method).u16(dosTime).u16(dosDate).u32(crc);
  header.u32(zip64 ? MAX_U32 : data.length).u32(zip64 ? MAX_U32 : value.length);
  header.u16(raw.length).u16(zip64 ? 20 : 0).bytes(raw);
  // In a local header the zip64 field holds both sizes, uncompressed first.
  if (zip64) header.u16(EXTRA_ZIP64).u16(16).u64(value.length).u64(data.length);
  const head = header.result();

  const bytes = new Uint8Array(head.length + data.length);
  bytes.set(head);
  bytes.set(data, head.length);
  const entry: Omit<ZipEntry, "offset" | "dataOffset"> = {
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
    extra: new Uint8Array(0),
    comment: new Uint8Array(0),
  };
  return { entry, bytes, headerLength: head.length };
}

/**
 * The central directory for `entries` and the end records after it, to be written at
 * `centralStart` in a source whose archive begins at `base`. Zip64 records and fields are written
 * where a value does not fit its 32- or 16-bit field (or always, with `forceZip64`).
 */
export function encodeCentralDirectory(entries: readonly ZipEntry[], centralStart: number, base: number, comment: Uint8Array, forceZip64: boolean): Uint8Array {
  const out = new ByteWriter(entries.reduce((sum, entry) => sum + CENTRAL_HEADER_SIZE + entry.rawName.length + entry.extra.length + entry.comment.length + 28, 200));
  for (const entry of entries) {
    const offset = entry.offset - base;
    const big = [entry.size, entry.compressedSize, offset].map((value) => forceZip64 || value >= MAX_U32);
    const zip64 = new ByteWriter(28);
    [entry.size, entry.compressedSize, offset].forEach((value, i) => big[i] && zip64.u64(value));
    const extra = zip64.length === 0 ? entry.extra : concat(new ByteWriter(4).u16(EXTRA_ZIP64).u16(zip64.length).result(), zip64.result(), entry.extra);
    const needed = zip64.length === 0 ? entry.versionNeeded : Math.max(entry.versionNeeded, VERSION_ZIP64);
    const madeBy = zip64.length === 0 ? entry.versionMadeBy : (entry.versionMadeBy & 0xff00) | Math.max(entry.versionMadeBy & 0xff, VERSION_ZIP64);
    out.u32(SIG_CENTRAL).u16(madeBy).u16(needed).u16(entry.flags).u16(entry.method).u16(entry.dosTime).u16(entry.dosDate).u32(entry.crc32);
    out.u32(big[1] ? MAX_U32 : entry.compressedSize).u32(big[0] ? MAX_U32 : entry.size);
    out.u16(entry.rawName.length).u16(extra.length).u16(entry.comment.length).u16(0).u16(entry.internalAttributes).u32(entry.externalAttributes);
    out.u32(big[2] ? MAX_U32 : offset).bytes(entry.rawName).bytes(extra).bytes(entry.comment);
  }
  const centralSize = out.length;
  const centralOffset = centralStart - base;
  const count = entries.length;
  if (forceZip64 || count >= MAX_U16 || centralSize >= MAX_U32 || centralOffset >= MAX_U32) {
    const zip64EndOffset = centralOffset + centralSize;
    out.u32(SIG_ZIP64_END).u64(ZIP64_END_SIZE - 12).u16(MADE_BY_UNIX | VERSION_ZIP64).u16(VERSION_ZIP64).u32(0).u32(0);
    out.u64(count).u64(count).u64(centralSize).u64(centralOffset);
    out.u32(SIG_ZIP64_LOCATOR).u32(0).u64(zip64EndOffset).u32(1);
  }
  const shownCount = Math.min(count, MAX_U16);
  const kept = comment.subarray(0, MAX_U16);
  out.u32(SIG_END).u16(0).u16(0).u16(shownCount).u16(shownCount);
  out.u32(Math.min(centralSize, MAX_U32)).u32(Math.min(centralOffset, MAX_U32)).u16(kept.length).bytes(kept);
  return out.result();
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
