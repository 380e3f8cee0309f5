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
  /** Where the local header starts in the byte source (archive offset plus any prepended bytes). */
  readonly offset: number;
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

/** What {@link ZipStore.info} says about an entry. */
export interface ZipEntryInfo {
  readonly key: string;
  /** `"stored"`, `"deflate"`, or the name or number of a method this store cannot read. */
  readonly method: string;
  /** Bytes when uncompressed. */
  readonly size: number;
  readonly compressedSize: number;
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
