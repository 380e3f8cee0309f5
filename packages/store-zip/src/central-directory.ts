import { StoreError } from "@z/meta";
import { u16, u32, u64 } from "./binary.js";
import { readExactly, type ByteSource } from "./byte-source.js";
import { makeEntry, type ZipEntry } from "./entry.js";
import { splitExtra, withoutZip64 } from "./extra-fields.js";
import { decodeName } from "./names.js";
import {
  CENTRAL_HEADER_SIZE,
  END_SIZE,
  EXTRA_ZIP64,
  MAX_COMMENT,
  MAX_U16,
  MAX_U32,
  SIG_CENTRAL,
  SIG_END,
  SIG_ZIP64_END,
  SIG_ZIP64_LOCATOR,
  ZIP64_END_SIZE,
  ZIP64_LOCATOR_SIZE,
} from "./records.js";

/** What opening an archive learns from its end records and central directory. */
export interface Archive {
  /**
   * Bytes before the archive proper (a self-extractor's program, say): offsets in the archive
   * count from its start, offsets in the byte source from the source's. Usually 0.
   */
  base: number;
  /** Where the central directory starts in the source: new entries are written from here on. */
  centralStart: number;
  /** The entries in central directory order (a name may appear twice; the last one counts). */
  entries: ZipEntry[];
  /** The archive comment. */
  comment: Uint8Array;
  /**
   * Where the archive ends in the source: after its end record and comment. Bytes after it (an
   * append that was cut short, say) are not part of it.
   */
  end: number;
}

/**
 * Reads the end records and the central directory of the zip archive in `source` (`size` bytes),
 * as Python's zipfile does: the end record is found by searching back from the end over the
 * longest possible comment; a zip64 locator right before it leads to the zip64 end record; bytes
 * prepended to the archive are allowed. At most two reads when the directory is near the end
 * (one when the archive is small). Throws a `StoreError` saying what is wrong otherwise.
 */
export async function readArchive(
  source: ByteSource,
  size: number,
  what: string,
  signal?: AbortSignal,
): Promise<Archive> {
  function fail(detail: string): never {
    throw new StoreError(`cannot open ${what}: ${detail}`);
  }
  if (size < END_SIZE) fail(`${size} bytes is too short to be a zip archive`);

  const tailLength = Math.min(size, END_SIZE + MAX_COMMENT + ZIP64_LOCATOR_SIZE + ZIP64_END_SIZE);
  const tailStart = size - tailLength;
  const tail = await readExactly(source, tailStart, tailLength, `the end of ${what}`, { signal });
  const read = async (at: number, length: number, part: string): Promise<Uint8Array> =>
    at >= tailStart && at + length <= size
      ? tail.subarray(at - tailStart, at - tailStart + length)
      : readExactly(source, at, length, `${part} of ${what}`, { signal });

  const endIndex = findEndRecord(tail);
  if (endIndex < 0) fail("not a zip archive (no end of central directory record in its last bytes)");
  const end = tailStart + endIndex;
  const commentLength = u16(tail, endIndex + 20);
  const comment = tail.slice(endIndex + END_SIZE, Math.min(tail.length, endIndex + END_SIZE + commentLength));
  const archiveEnd = Math.min(size, end + END_SIZE + commentLength);
  let disk = u16(tail, endIndex + 4);
  let centralDisk = u16(tail, endIndex + 6);
  let count = u16(tail, endIndex + 10);
  let centralSize = u32(tail, endIndex + 12);
  let centralOffset = u32(tail, endIndex + 16);
  let centralEnd = end;

  if (end >= ZIP64_LOCATOR_SIZE) {
    const locatorAt = end - ZIP64_LOCATOR_SIZE;
    const locator = await read(locatorAt, ZIP64_LOCATOR_SIZE, "the zip64 end locator");
    if (u32(locator, 0) === SIG_ZIP64_LOCATOR) {
      if (u32(locator, 4) !== 0 || u32(locator, 16) > 1) fail("archives spanning several disks are not supported");
      // zipfile looks for the zip64 end record right before the locator (so it works with bytes
      // prepended); where the locator says it is comes second (a record with extensible data).
      const candidates = [locatorAt - ZIP64_END_SIZE, u64(locator, 8) ?? -1].filter(
        (at) => at >= 0 && at + ZIP64_END_SIZE <= locatorAt,
      );
      let record: Uint8Array | undefined;
      for (const at of candidates) {
        const bytes = await read(at, ZIP64_END_SIZE, "the zip64 end record");
        if (u32(bytes, 0) === SIG_ZIP64_END) {
          record = bytes;
          centralEnd = at;
          break;
        }
      }
      if (record === undefined)
        fail("it has a zip64 end locator but no zip64 end of central directory record where the locator says");
      disk = u32(record, 16);
      centralDisk = u32(record, 20);
      const fields = [u64(record, 32), u64(record, 40), u64(record, 48)];
      if (fields.some((field) => field === undefined)) fail("its zip64 end record holds sizes past 2^53");
      [count, centralSize, centralOffset] = fields as [number, number, number];
    }
  }
  if (disk !== 0 || centralDisk !== 0) fail("archives spanning several disks are not supported");

  // Checked before anything is read or allocated for them: a corrupt (or hostile) end record may
  // claim any count and size, and the directory is then read whole.
  if (count > Math.floor(centralSize / CENTRAL_HEADER_SIZE)) {
    fail(
      `corrupt: its end record counts ${count} entries, which take at least ${count * CENTRAL_HEADER_SIZE} bytes, but says the central directory is ${centralSize} bytes`,
    );
  }
  const base = centralEnd - centralSize - centralOffset;
  if (base < 0) {
    fail(
      `truncated or corrupt: the end record puts a ${centralSize}-byte central directory at offset ${centralOffset}, but the directory must end at ${centralEnd}`,
    );
  }
  const centralStart = centralOffset + base;
  const directory = await read(centralStart, centralSize, "the central directory");
  const entries = parseCentralDirectory(directory, centralStart, base, what);
  if (entries.length % 0x10000 !== count % 0x10000) {
    // Compared modulo 2^16: some writers let the 16-bit count wrap instead of writing zip64.
    fail(`its end record counts ${count} entries, but the central directory holds ${entries.length}`);
  }
  return { base, centralStart, entries, comment, end: archiveEnd };
}

/**
 * The offset in `tail` of the end of central directory record: the last signature whose comment
 * ends exactly at the end of the data, or else the last one whose comment fits (zipfile accepts
 * trailing bytes after the comment too). -1 when there is none.
 */
function findEndRecord(tail: Uint8Array): number {
  let loose = -1;
  for (let at = tail.length - END_SIZE; at >= 0; at--) {
    if (tail[at] !== 0x50 || u32(tail, at) !== SIG_END) continue;
    const commentEnd = at + END_SIZE + u16(tail, at + 20);
    if (commentEnd === tail.length) return at;
    if (commentEnd < tail.length && loose < 0) loose = at;
  }
  return loose;
}

function parseCentralDirectory(directory: Uint8Array, centralStart: number, base: number, what: string): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let at = 0;
  while (at < directory.length) {
    const index = entries.length;
    const where = `central directory entry #${index} (offset ${centralStart + at})`;
    function fail(detail: string, key?: string): never {
      throw new StoreError(
        `cannot open ${what}: ${where}${key === undefined ? "" : ` for ${JSON.stringify(key)}`} ${detail}`,
        { key },
      );
    }
    if (at + CENTRAL_HEADER_SIZE > directory.length) fail(`is cut short: the central directory is truncated`);
    if (u32(directory, at) !== SIG_CENTRAL)
      fail(
        `has a bad signature 0x${u32(directory, at).toString(16).padStart(8, "0")} (expected 0x${SIG_CENTRAL.toString(16).padStart(8, "0")}): the central directory is corrupt`,
      );
    const nameLength = u16(directory, at + 28);
    const extraLength = u16(directory, at + 30);
    const commentLength = u16(directory, at + 32);
    const next = at + CENTRAL_HEADER_SIZE + nameLength + extraLength + commentLength;
    if (next > directory.length) fail(`runs past the end of the central directory: the central directory is truncated`);
    const flags = u16(directory, at + 8);
    const rawName = directory.slice(at + CENTRAL_HEADER_SIZE, at + CENTRAL_HEADER_SIZE + nameLength);
    const name = decodeName(rawName, flags);
    const extra = directory.subarray(
      at + CENTRAL_HEADER_SIZE + nameLength,
      at + CENTRAL_HEADER_SIZE + nameLength + extraLength,
    );

    let size = u32(directory, at + 24);
    let compressedSize = u32(directory, at + 20);
    let offset = u32(directory, at + 42);
    let disk = u16(directory, at + 34);
    if (size === MAX_U32 || compressedSize === MAX_U32 || offset === MAX_U32 || disk === MAX_U16) {
      // The zip64 field holds, in this order, exactly the values whose 32-bit fields are maxed out.
      const zip64 = splitExtra(extra, where, name).find((field) => field.id === EXTRA_ZIP64);
      if (zip64 !== undefined) {
        let cursor = 0;
        const next64 = (field: string): number => {
          if (cursor + 8 > zip64.data.length) fail(`has a zip64 extra field too short to hold its ${field}`, name);
          const value = u64(zip64.data, cursor);
          if (value === undefined) fail(`has a ${field} past 2^53 in its zip64 extra field`, name);
          cursor += 8;
          return value;
        };
        if (size === MAX_U32) size = next64("size");
        if (compressedSize === MAX_U32) compressedSize = next64("compressed size");
        if (offset === MAX_U32) offset = next64("local header offset");
        if (disk === MAX_U16) {
          if (cursor + 4 > zip64.data.length) fail("has a zip64 extra field too short to hold its disk number", name);
          disk = u32(zip64.data, cursor);
        }
      }
    }
    if (disk !== 0) fail("is on another disk: archives spanning several disks are not supported", name);

    entries.push(
      makeEntry({
        name,
        rawName,
        flags,
        method: u16(directory, at + 10),
        dosTime: u16(directory, at + 12),
        dosDate: u16(directory, at + 14),
        crc32: u32(directory, at + 16),
        compressedSize,
        size,
        offset: offset + base,
        versionMadeBy: u16(directory, at + 4),
        versionNeeded: u16(directory, at + 6),
        internalAttributes: u16(directory, at + 36),
        externalAttributes: u32(directory, at + 38),
        extra: extraLength === 0 ? extra : withoutZip64(extra).slice(),
        comment: directory.subarray(next - commentLength, next).slice(),
      }),
    );
    at = next;
  }
  return entries;
}
