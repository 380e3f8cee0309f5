import { fromDosDateTime } from "./dos-time.js";
import { methodName } from "./records.js";

/** One entry of the central directory, as read from an archive or about to be written to one. */
export interface ZipEntry {
  /** The decoded name (the key, for files; ending in `/` for directories). */
  readonly name: string;
  /** The name's bytes as stored; rewritten as they were, so foreign names keep their encoding. */
  readonly rawName: Uint8Array;
  /** General purpose bit flags. */
  readonly flags: number;
  readonly method: number;
  readonly dosTime: number;
  readonly dosDate: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly size: number;
  /**
   * Where the local header starts in the byte source (archive offset plus any prepended bytes).
   * Set once, when a new entry is placed in the archive.
   */
  offset: number;
  readonly versionMadeBy: number;
  readonly versionNeeded: number;
  readonly internalAttributes: number;
  readonly externalAttributes: number;
  /** The central directory's extra fields except zip64's, kept when the directory is rewritten. */
  readonly extra: Uint8Array;
  readonly comment: Uint8Array;
  /** Where the entry's data starts, once a read has parsed its local header. */
  dataOffset?: number;
}

/** A zero-length array shared by the many entries with no extra field or comment. */
export const NO_BYTES: Uint8Array = new Uint8Array(0);

/**
 * An entry with its fields always in the same order, so every entry object has one shape: with
 * 65,536 and more of them, reading fields stays fast and the objects stay small.
 */
export function makeEntry(fields: Omit<ZipEntry, "dataOffset">, dataOffset?: number): ZipEntry {
  return {
    name: fields.name,
    rawName: fields.rawName,
    flags: fields.flags,
    method: fields.method,
    dosTime: fields.dosTime,
    dosDate: fields.dosDate,
    crc32: fields.crc32,
    compressedSize: fields.compressedSize,
    size: fields.size,
    offset: fields.offset,
    versionMadeBy: fields.versionMadeBy,
    versionNeeded: fields.versionNeeded,
    internalAttributes: fields.internalAttributes,
    externalAttributes: fields.externalAttributes,
    extra: fields.extra.length === 0 ? NO_BYTES : fields.extra,
    comment: fields.comment.length === 0 ? NO_BYTES : fields.comment,
    dataOffset,
  };
}

/** What {@link ZipStore.info} says about an entry. */
export interface ZipEntryInfo {
  /** The entry's name, which is the key. */
  readonly key: string;
  /** `"stored"`, `"deflate"`, or the name or number of a method this store cannot read. */
  readonly method: string;
  /** Bytes when uncompressed. */
  readonly size: number;
  /** Bytes as stored in the archive. */
  readonly compressedSize: number;
  /** The CRC-32 of the uncompressed bytes, as the central directory records it. */
  readonly crc32: number;
  /** The modification time (local time, two-second resolution, as zip keeps it). */
  readonly modified: Date;
  /** Where the entry's local header starts in the archive. */
  readonly offset: number;
}

export function isDirectoryEntry(entry: ZipEntry): boolean {
  return entry.name.endsWith("/");
}

export function entryInfo(entry: ZipEntry, base: number): ZipEntryInfo {
  return {
    key: entry.name,
    method: methodName(entry.method),
    size: entry.size,
    compressedSize: entry.compressedSize,
    crc32: entry.crc32,
    modified: fromDosDateTime(entry.dosDate, entry.dosTime),
    offset: entry.offset - base,
  };
}
