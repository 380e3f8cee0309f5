import {
  StoreError,
  type ByteRange,
  type DirectoryListing,
  type ListableStore,
  type StoreOptions,
  type WritableStore,
} from "@z/meta";
import {
  blobSource,
  bytesSource,
  isWritableSource,
  readExactly,
  type ByteSource,
  type WritableByteSource,
} from "./byte-source.js";
import { readArchive } from "./central-directory.js";
import { entryInfo, isDirectoryEntry, type ZipEntry, type ZipEntryInfo } from "./entry.js";
import { readEntry, readStoredRange, recordLength, type ReadContext } from "./entry-reader.js";
import { encodeCentralDirectory, encodeEntry } from "./entry-writer.js";
import { unsafeKeyReason } from "@z/meta";
import { checkKey, checkListPrefix, clampRange, directoryPrefix } from "./keys.js";
import { Mutex } from "./mutex.js";
import { END_SIZE, MAX_U16, METHOD_DEFLATE, METHOD_STORED } from "./records.js";

/** How much of an entry {@link ZipStore.compact} holds in memory at once while moving it. */
const MOVE_PIECE = 1 << 20;

/** How {@link ZipStore.open} opens an archive and writes new entries. */
export interface ZipStoreOptions {
  /**
   * `"r"` reads only; `"a"` reads and writes, starting a new archive when the source is empty;
   * `"w"` empties the source and starts a new archive. Default: `"a"` when the source is writable
   * (a {@link @z/meta#WritableByteSource}), else `"r"`.
   */
  mode?: "r" | "a" | "w";
  /** How new entries are compressed; default `"stored"`, as zarr-python's `ZipStore` (`ZIP_STORED`). */
  compression?: "stored" | "deflate";
  /** The deflate level, 0 to 9; default 6 (zlib's default, which zipfile uses). */
  level?: number;
  /**
   * Write zip64 fields and end records even when nothing needs them (as zipfile's `force_zip64`).
   * Without it they are written exactly when a size, an offset or the entry count does not fit.
   */
  forceZip64?: boolean;
  /** The modification time given to new entries; default: the time of the write. */
  now?: () => Date;
  /** How error messages name the archive, e.g. its path or URL; default `"zip archive"`. */
  name?: string;
  /** The chunk key separator this store suggests to arrays, like zarr-python's `dimension_separator`. */
  dimensionSeparator?: "." | "/";
  /** Aborts reading the central directory. */
  signal?: AbortSignal;
}

/**
 * A store in a zip archive, like zarr-python's `ZipStore`: the key `foo/bar/0.0` is the entry of
 * that name. It reads any byte source with random access ({@link @z/meta#ByteSource}: memory, a `Blob`, a
 * local file, HTTP range requests), fetching the end records and central directory once when
 * opened and then only the entries asked for; so a remote archive is never downloaded whole.
 *
 * Reading: stored and deflated entries, zip64 (more than 65535 entries, sizes and offsets past
 * 4 GiB), entries in any order, bytes prepended to the archive, directory entries (which are not
 * keys but show up as prefixes in `listDir`). Every whole read is checked against the entry's
 * local header and CRC-32; a corrupt archive or entry is a `StoreError` saying what is wrong (and
 * naming the key, for an entry). When a name appears twice, the last entry counts, as in zipfile.
 * Entries with names that are not canonical keys (`../x`, `/abs`, `a\b`) are not keys here.
 *
 * Writing (modes `"a"`/`"w"`, on a {@link @z/meta#WritableByteSource}): each `set` writes a local entry
 * to the source right away; the central directory lives in memory and is written after the last
 * entry by `flush()` and `close()`, which commit the changes: until then the source holds the
 * archive as last committed. What was committed is never lost to a crash (a killed process, a
 * power failure) part way through writing:
 * - in an {@link @z/meta#WritableByteSource.atomic} source (`fileByteSource` of `@z/store-fs`, which
 *   writes a copy of the file and renames it over the file when the store commits), new entries
 *   go where the central directory was, as zipfile's mode `"a"` puts them;
 * - in any other, new entries go after the archive's end record, the new central directory after
 *   them, and the new end record last (the first byte of its signature after everything else, with
 *   `sync()` before and after): the old end record stays the last one in the source until the new
 *   one is whole. Readers find the end record by searching back from the end of the source over
 *   at most 64 KiB (zipfile does, and so does this class), so after a crash they read the old
 *   archive when less than that was written since the last commit. The old directory is left in
 *   the source as unreferenced space.
 *
 * Setting a key again or deleting it takes the old entry out of the central directory, so there
 * are never duplicate names (zarr-python's `ZipStore` writes duplicates and cannot delete); the
 * old entry's bytes stay in the file as unreferenced space until {@link ZipStore.compact} reclaims
 * it (`close()` does not, as in zarr-python). Zip64 records are written when needed. Reads see
 * writes at once.
 *
 * `set`/`delete` exist in every mode; in mode `"r"` they throw a "read-only" `StoreError`. After
 * `close()` every method throws. Keys must be canonical (no `..`, leading `/`, backslash, empty
 * segment): others are refused with a `StoreError`.
 */
export class ZipStore implements WritableStore, ListableStore {
  /** Where the archive is read from (and written to). */
  readonly source: ByteSource;
  /** The mode it was opened in (see {@link ZipStoreOptions.mode}). */
  readonly mode: "r" | "a" | "w";
  /** See {@link ZipStoreOptions.dimensionSeparator}. */
  readonly dimensionSeparator: "." | "/" | undefined;
  readonly #name: string;
  readonly #method: number;
  readonly #level: number;
  readonly #forceZip64: boolean;
  readonly #now: () => Date;
  /** Live file entries by key. */
  readonly #files: Map<string, ZipEntry>;
  /** Directory entries and entries whose names are not keys: kept as they are when rewriting. */
  readonly #kept: Map<string, ZipEntry>;
  readonly #base: number;
  readonly #comment: Uint8Array;
  readonly #mutex = new Mutex();
  /** The source publishes writes atomically on `sync()` (see {@link @z/meta#WritableByteSource.atomic}). */
  readonly #atomic: boolean;
  /** Where the next entry (or else the central directory) is written. */
  #appendAt: number;
  /** Where the archive as last committed (opened, flushed) ends: bytes after it are not part of it. */
  #committedEnd: number;
  /** Where the committed central directory starts, while nothing was written after it; else undefined. */
  #directoryAt: number | undefined;
  /** Bytes after the committed archive (an append cut short) were cut off, before writing after it. */
  #tailCut = false;
  /** The size of the source, which reads must stay within. */
  #size: number;
  /** The central directory in the source is not the one in memory. */
  #dirty: boolean;
  #closed = false;

  private constructor(
    source: ByteSource,
    mode: "r" | "a" | "w",
    options: ZipStoreOptions,
    state: {
      entries: ZipEntry[];
      base: number;
      centralStart: number;
      end: number;
      comment: Uint8Array;
      size: number;
      dirty: boolean;
    },
  ) {
    this.source = source;
    this.mode = mode;
    this.dimensionSeparator = options.dimensionSeparator;
    this.#name = options.name ?? "zip archive";
    this.#method = (options.compression ?? "stored") === "deflate" ? METHOD_DEFLATE : METHOD_STORED;
    this.#level = options.level ?? 6;
    this.#forceZip64 = options.forceZip64 ?? false;
    this.#now = options.now ?? (() => new Date());
    this.#base = state.base;
    this.#comment = state.comment;
    this.#atomic = isWritableSource(source) && source.atomic === true;
    this.#committedEnd = state.end;
    this.#directoryAt = state.end > state.centralStart ? state.centralStart : undefined;
    // Over the old central directory only where a crash cannot expose the overwritten bytes.
    this.#appendAt = this.#atomic ? state.centralStart : state.end;
    this.#size = state.size;
    this.#dirty = state.dirty;
    this.#files = new Map();
    this.#kept = new Map();
    for (const entry of state.entries) {
      const file = !isDirectoryEntry(entry) && unsafeKeyReason(entry.name) === undefined;
      // A later entry of the same name replaces an earlier one, as zipfile's `NameToInfo` does.
      if (file) this.#files.set(entry.name, entry);
      else this.#kept.set(entry.name, entry);
    }
  }

  /**
   * Opens the archive in `source` (a `Uint8Array` or `Blob` is read in place, without copying);
   * see {@link ZipStoreOptions.mode}. Reads the end records and the central directory.
   */
  static async open(source: ByteSource | Uint8Array | Blob, options: ZipStoreOptions = {}): Promise<ZipStore> {
    const bytes =
      source instanceof Uint8Array
        ? bytesSource(source)
        : typeof Blob !== "undefined" && source instanceof Blob
          ? blobSource(source)
          : (source as ByteSource);
    const mode = options.mode ?? (isWritableSource(bytes) ? "a" : "r");
    if (mode !== "r" && mode !== "a" && mode !== "w")
      throw new StoreError(`invalid ZipStore mode ${JSON.stringify(mode)}: expected "r", "a" or "w"`);
    const level = options.level ?? 6;
    if (!(Number.isInteger(level) && level >= 0 && level <= 9))
      throw new StoreError(`invalid deflate level ${level}: expected an integer from 0 to 9`);
    const what = options.name ?? "zip archive";
    if (mode !== "r" && !isWritableSource(bytes)) {
      throw new StoreError(
        `cannot open ${what} in mode ${JSON.stringify(mode)}: the byte source is read-only (it has no write and truncate)`,
      );
    }
    const empty = { entries: [], base: 0, centralStart: 0, end: 0, comment: new Uint8Array(0), size: 0, dirty: true };
    if (mode === "w") {
      await (bytes as WritableByteSource).truncate(0, { signal: options.signal });
      return new ZipStore(bytes, mode, options, empty);
    }
    const size = await bytes.size({ signal: options.signal });
    if (size === 0 && mode === "a") return new ZipStore(bytes, mode, options, empty);
    const archive = await readArchive(bytes, size, what, options.signal);
    if (mode === "a") {
      const after = archive.entries.find((entry) => entry.offset >= archive.centralStart);
      if (after !== undefined) {
        throw new StoreError(
          `cannot open ${what} for appending: entry ${JSON.stringify(after.name)} lies after the central directory, where new entries would overwrite it`,
          { key: after.name },
        );
      }
    }
    return new ZipStore(bytes, mode, options, { ...archive, size, dirty: false });
  }

  /** Whether `set` and `delete` are allowed (mode `"a"` or `"w"`). */
  get writable(): boolean {
    return this.mode !== "r";
  }

  /** Whether `close()` has completed; every method throws after that. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The whole value under `key`, checked against its CRC-32; `undefined` when there is no such entry. */
  async get(key: string, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    checkKey(key);
    this.#checkOpen(key);
    options.signal?.throwIfAborted();
    const entry = this.#files.get(key);
    return entry === undefined ? undefined : readEntry(entry, this.#readContext(options));
  }

  /**
   * Part of the value under `key`, clamped like `Uint8Array.prototype.slice`. For a stored entry
   * only those bytes are read (its CRC cannot be checked then); a deflated one is read whole.
   */
  async getRange(key: string, range: ByteRange, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    checkKey(key);
    this.#checkOpen(key);
    options.signal?.throwIfAborted();
    const entry = this.#files.get(key);
    if (entry === undefined) return undefined;
    const { start, end } = clampRange(key, range, entry.size);
    if (entry.method === METHOD_STORED) return readStoredRange(entry, start, end, this.#readContext(options));
    return (await readEntry(entry, this.#readContext(options))).slice(start, end);
  }

  /** Appends an entry for `key` (compressed as configured) and points the central directory at it. */
  async set(key: string, value: Uint8Array, options: StoreOptions = {}): Promise<void> {
    checkKey(key);
    this.#checkWritable(key);
    options.signal?.throwIfAborted();
    const { entry, bytes, headerLength } = encodeEntry(key, value, {
      method: this.#method,
      level: this.#level,
      modified: this.#now(),
      forceZip64: this.#forceZip64,
    });
    await this.#mutex.run(async () => {
      this.#checkWritable(key);
      await this.#cutTail(key, options.signal);
      const offset = this.#appendAt;
      await this.#write(offset, bytes, key, options.signal);
      this.#appendAt = offset + bytes.length;
      this.#size = Math.max(this.#size, this.#appendAt);
      entry.offset = offset;
      entry.dataOffset = offset + headerLength;
      this.#files.set(key, entry);
      this.#dirty = true;
      this.#directoryAt = undefined;
    });
  }

  /** Takes `key` out of the central directory; a missing key is not an error. */
  async delete(key: string, options: StoreOptions = {}): Promise<void> {
    checkKey(key);
    this.#checkWritable(key);
    options.signal?.throwIfAborted();
    await this.#mutex.run(async () => {
      if (this.#files.delete(key)) this.#dirty = true;
    });
  }

  /** Every key starting with `prefix` (plain string match), in central directory order. */
  async list(prefix = "", options: StoreOptions = {}): Promise<string[]> {
    checkListPrefix(prefix);
    this.#checkOpen();
    options.signal?.throwIfAborted();
    return [...this.#files.keys()].filter((key) => key.startsWith(prefix));
  }

  /**
   * The keys and sub-directories directly under `prefix` (`""` for the root), sorted. Directory
   * entries count as sub-directories even when nothing is in them, as directories do in
   * `DirectoryStore`.
   */
  async listDir(prefix: string, options: StoreOptions = {}): Promise<DirectoryListing> {
    const dir = directoryPrefix(prefix);
    this.#checkOpen();
    options.signal?.throwIfAborted();
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    const visit = (name: string, isFile: boolean): void => {
      if (!name.startsWith(dir)) return;
      const rest = name.slice(dir.length);
      const slash = rest.indexOf("/");
      if (slash > 0) prefixes.add(rest.slice(0, slash));
      else if (slash < 0 && isFile) keys.add(rest);
    };
    for (const name of this.#files.keys()) visit(name, true);
    for (const entry of this.#kept.values())
      if (isDirectoryEntry(entry) && unsafeKeyReason(entry.name.slice(0, -1)) === undefined) visit(entry.name, false);
    return { keys: [...keys].sort(), prefixes: [...prefixes].sort() };
  }

  /** What the central directory says about `key`'s entry; `undefined` when there is none. */
  info(key: string): ZipEntryInfo | undefined {
    checkKey(key);
    this.#checkOpen(key);
    const entry = this.#files.get(key);
    return entry === undefined ? undefined : entryInfo(entry, this.#base);
  }

  /**
   * Commits: writes the central directory and end records after the last entry and cuts the
   * source there, so it holds a valid zip archive with every change; calls the source's `sync()`
   * (see the class notes for the order of writes). Does nothing when nothing changed (or in mode
   * `"r"`).
   */
  async flush(options: StoreOptions = {}): Promise<void> {
    this.#checkOpen();
    if (!this.writable) return;
    await this.#mutex.run(async () => {
      if (this.#dirty) await this.#writeDirectory(options.signal);
    });
  }

  /**
   * Reclaims the space of entries that were overwritten or deleted: moves every live entry down
   * over the unused bytes before it, in file order, then writes the central directory after the
   * last one and cuts the source there. Returns the number of bytes reclaimed (0 when there were
   * none, and then nothing is written).
   *
   * `close()` does not do this, as zarr-python's `ZipStore.close()` only writes the directory:
   * compacting reads and rewrites everything after the first unused byte, which is the caller's
   * choice to pay. Call it before `close()` when a key was set twice or deleted. It commits like
   * `flush()`. In an {@link @z/meta#WritableByteSource.atomic} source it is as safe as any write: the
   * source holds the old archive until the compacted one is whole. In any other it works in place
   * over committed bytes: an error or a crash part way leaves the source without a valid central
   * directory until the next successful `flush()`/`close()` (the store itself stays consistent);
   * there, to keep the original intact, copy the store into a new archive instead.
   */
  async compact(options: StoreOptions = {}): Promise<number> {
    this.#checkOpen();
    if (!this.writable) throw new StoreError(`cannot compact ${this.#name}: it is open read-only (mode "r")`);
    return this.#mutex.run(async () => {
      const signal = options.signal;
      signal?.throwIfAborted();
      const entries = [...this.#files.values(), ...this.#kept.values()].sort((a, b) => a.offset - b.offset);
      const context = this.#readContext(options);
      let cursor = this.#base;
      for (const entry of entries) {
        const length = await recordLength(entry, context);
        if (entry.offset !== cursor) {
          await this.#move(entry.offset, cursor, length, entry.name, signal);
          this.#dirty = true;
          // Where the entry now is, at once: after a failure part way the store still reads right.
          const moved = cursor - entry.offset;
          entry.offset = cursor;
          if (entry.dataOffset !== undefined) entry.dataOffset += moved;
        }
        cursor += length;
      }
      // Entries end where new ones would go, or where the committed directory starts when that is last.
      const entriesEnd = this.#atomic || this.#directoryAt === undefined ? this.#appendAt : this.#directoryAt;
      const reclaimed = entriesEnd - cursor;
      if (reclaimed === 0 && !this.#dirty) return 0;
      this.#appendAt = cursor;
      await this.#writeDirectory(signal);
      return reclaimed;
    });
  }

  /**
   * Flushes (when writable), then closes the store; calling it again does nothing. The byte source
   * is not closed: it belongs to the caller.
   */
  async close(options: StoreOptions = {}): Promise<void> {
    if (this.#closed) return;
    await this.flush(options);
    this.#closed = true;
  }

  /**
   * Commits (inside the mutex): writes the central directory and end records at `#appendAt`, cuts
   * the source after them and syncs it.
   *
   * In a source that is not atomic the old end record must stay the one readers find until the
   * new one is whole, and must not be found whole before everything it points at is written: a
   * reader takes the last end record signature in the source's last 64 KiB. So the new records are
   * written with the first byte of that signature zero, synced, and the byte written last (one
   * byte cannot be written in part), then synced again. Before that byte the source ends in bytes
   * no reader takes for an end record, after the old archive; after it, in the new archive.
   */
  async #writeDirectory(signal: AbortSignal | undefined): Promise<void> {
    const entries = [...this.#files.values(), ...this.#kept.values()].sort((a, b) => a.offset - b.offset);
    const at = this.#appendAt;
    const directory = encodeCentralDirectory(entries, at, this.#base, this.#comment, this.#forceZip64);
    const end = at + directory.length;
    if (this.#atomic) {
      await this.#write(at, directory, undefined, signal);
      await this.#truncate(end, signal);
    } else {
      await this.#cutTail(undefined, signal);
      // The end record is last but for the comment (encodeCentralDirectory keeps at most 65535 bytes of it).
      const endRecordAt = directory.length - END_SIZE - Math.min(this.#comment.length, MAX_U16);
      const signatureByte = directory.subarray(endRecordAt, endRecordAt + 1).slice();
      directory[endRecordAt] = 0;
      await this.#write(at, directory, undefined, signal);
      await this.#sync(signal);
      await this.#write(at + endRecordAt, signatureByte, undefined, signal);
      await this.#truncate(end, signal);
    }
    await this.#sync(signal);
    this.#size = end;
    this.#committedEnd = end;
    this.#dirty = false;
    if (!this.#atomic) {
      this.#appendAt = end;
      this.#directoryAt = at;
    }
  }

  /**
   * Before the first write after the committed archive in a source that is not atomic: cuts off
   * what lies after it (what a crash left of an append), so that nothing but this session's
   * writes follows the old end record.
   */
  async #cutTail(key: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    if (this.#atomic || this.#tailCut) return;
    if (this.#size > this.#committedEnd) {
      await this.#truncate(this.#committedEnd, signal, key);
      this.#size = this.#committedEnd;
    }
    this.#tailCut = true;
  }

  async #truncate(size: number, signal: AbortSignal | undefined, key?: string): Promise<void> {
    try {
      await (this.source as WritableByteSource).truncate(size, { signal });
    } catch (err) {
      throw this.#ioError(`cannot write ${this.#name}: truncating it to ${size} bytes failed`, key, err, signal);
    }
  }

  /** The source's `sync()`, when it has one. */
  async #sync(signal: AbortSignal | undefined): Promise<void> {
    const source = this.source as WritableByteSource;
    if (source.sync === undefined) return;
    try {
      await source.sync({ signal });
    } catch (err) {
      throw this.#ioError(`cannot write ${this.#name}: syncing it failed`, undefined, err, signal);
    }
  }

  /**
   * Copies `length` bytes from `from` down to `to` (`to < from`), a piece at a time so memory
   * stays bounded; front to back, so a piece never overwrites bytes not yet copied.
   */
  async #move(from: number, to: number, length: number, key: string, signal: AbortSignal | undefined): Promise<void> {
    for (let done = 0; done < length; done += MOVE_PIECE) {
      const size = Math.min(MOVE_PIECE, length - done);
      const piece = (
        await readExactly(this.source, from + done, size, `zip entry ${JSON.stringify(key)}`, { key, signal })
      ).slice();
      await this.#write(to + done, piece, key, signal);
    }
  }

  #readContext(options: StoreOptions): ReadContext {
    return { source: this.source, sourceSize: this.#size, signal: options.signal };
  }

  async #write(
    offset: number,
    bytes: Uint8Array,
    key: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    try {
      await (this.source as WritableByteSource).write(offset, bytes, { signal });
    } catch (err) {
      const what = key === undefined ? "the central directory" : JSON.stringify(key);
      throw this.#ioError(
        `cannot write ${what} to ${this.#name} (${bytes.length} bytes at offset ${offset})`,
        key,
        err,
        signal,
      );
    }
  }

  #ioError(message: string, key: string | undefined, err: unknown, signal: AbortSignal | undefined): unknown {
    if (signal?.aborted === true || (err instanceof Error && err.name === "AbortError") || err instanceof StoreError)
      return err;
    return new StoreError(`${message}: ${err instanceof Error ? err.message : String(err)}`, { key, cause: err });
  }

  #checkOpen(key?: string): void {
    if (this.#closed) throw new StoreError(`${this.#name} is closed`, { key });
  }

  #checkWritable(key: string): void {
    this.#checkOpen(key);
    if (!this.writable)
      throw new StoreError(`cannot write ${JSON.stringify(key)}: ${this.#name} is open read-only (mode "r")`, { key });
  }
}
