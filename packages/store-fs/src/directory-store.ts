import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, type Dirent } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import {
  StoreError,
  checkByteRange,
  checkKey,
  type ByteRange,
  type DirectoryListing,
  type ListableStore,
  type SyncReadableStore,
  type StoreOptions,
  type ThreadStoreSpec,
  type WritableStore,
} from "@z/meta";
import { PARTIAL_FILE, writeFileAtomic } from "./atomic-write.js";
import { forgetFiles } from "./file-read.js";
import { fileSystem, type StoreFileSystem } from "./file-system.js";
import { errorCode, ioError, isMissing, rethrow } from "./io-errors.js";
import { keySegments, listPrefix, prefixSegments } from "./keys.js";
import { readParts } from "./read-parts.js";
import { threadModule } from "./thread-module.js";

export interface DirectoryStoreOptions {
  /**
   * Flush each value to disk (and its directory entry) before `set` resolves; default `false`,
   * as in zarr-python. Without it a write is atomic but may be lost on power failure.
   */
  fsync?: boolean;
  /**
   * The chunk key separator this store suggests for arrays created in it that do not choose one,
   * and for reading arrays whose `.zarray` names none, as zarr-python's `dimension_separator`
   * store argument does. The store itself never rewrites keys. Default: none (arrays use `.`).
   */
  dimensionSeparator?: "." | "/";
  /** Replacements for some `node:fs/promises` functions, e.g. to simulate failures in tests. */
  fs?: Partial<StoreFileSystem>;
}

/**
 * A store keeping each value in a file under a root directory, like zarr-python's
 * `DirectoryStore`: the key `foo/bar/0.0` is the file `<root>/foo/bar/0.0`, so groups are
 * directories, and chunk keys of arrays with dimension separator `/` (`foo/bar/0/0`) are nested
 * directories. Writes are atomic: a temporary `.<name>.<hex>.partial` file renamed into place,
 * written in the file's directory or, for a chunk in nested directories (`a/0/1`), in the
 * array's (`a/`): zarr-python counts every file under an array's numbered directories as a chunk,
 * so a temporary file left there by a killed write would count. Listings skip temporary files in
 * this naming and in zarr-python's (`<name>.<hex>.partial`); `findTemporaryFiles` finds the ones
 * killed writes left, and `removeTemporaryFile` removes them.
 *
 * Keys that could reach outside the root (`..`, `/abs`, `a\b`, empty segments) are refused with a
 * `StoreError` naming the key; so are I/O failures other than a missing file, with the Node error
 * as `cause`. Values returned are fresh `Uint8Array`s (not `Buffer`s) owned by the caller.
 *
 * Where it differs from zarr-python: `delete` of a directory does nothing (zarr-python removes
 * the subtree; use {@link DirectoryStore.rmdir}), and `set` over a directory fails instead of
 * removing it. Like zarr-python, `delete` leaves emptied directories in place.
 */
export class DirectoryStore implements WritableStore, ListableStore, SyncReadableStore {
  /** The absolute path of the root directory. It need not exist until the first `set`. */
  readonly root: string;
  /** See {@link DirectoryStoreOptions.dimensionSeparator}. */
  readonly dimensionSeparator: "." | "/" | undefined;
  readonly #fs: StoreFileSystem;
  readonly #fsync: boolean;
  readonly #ownFs: boolean;
  readonly #rootSlash: string;

  constructor(root: string, options: DirectoryStoreOptions = {}) {
    this.root = resolve(root);
    this.#rootSlash = this.root.endsWith(sep) ? this.root : this.root + sep;
    const stats = statSync(this.root, { throwIfNoEntry: false });
    if (stats !== undefined && !stats.isDirectory()) {
      throw new StoreError(`cannot use ${this.root} as a directory store: it exists and is not a directory`);
    }
    this.dimensionSeparator = options.dimensionSeparator;
    this.#fs = fileSystem(options.fs);
    this.#fsync = options.fsync ?? false;
    this.#ownFs = options.fs !== undefined;
  }

  /**
   * The options that open this same store again as a plain `DirectoryStore`, e.g. in a worker
   * thread; `undefined` when that store would behave differently: made with a replaced `fs`, or a
   * subclass that changes how values are read, written or deleted.
   */
  get reopenOptions(): { readonly root: string; readonly fsync: boolean } | undefined {
    if (this.#ownFs || !this.plainValues()) return undefined;
    return { root: this.root, fsync: this.#fsync };
  }

  /**
   * How a worker thread opens this same store again (the `Store.threadStore` contract of
   * `@z/meta`): a `directory` spec from {@link DirectoryStore.reopenOptions}, `undefined` when
   * that would behave differently. `@z/core`'s pool threads then read and write chunks themselves.
   */
  threadStore(): ThreadStoreSpec | undefined {
    const reopen = this.reopenOptions;
    if (reopen === undefined) return undefined;
    return { kind: "directory", root: reopen.root, fsync: reopen.fsync, module: threadModule() };
  }

  /**
   * True when values are read, written and deleted as `DirectoryStore` does. A subclass that only
   * adds checks around them may say so by overriding this.
   */
  protected plainValues(): boolean {
    const own = DirectoryStore.prototype;
    return this.get === own.get && this.set === own.set && this.delete === own.delete;
  }

  /** The file `key` maps to. Throws a `StoreError` for keys that could escape the root. */
  filePath(key: string): string {
    // A checked key has no empty, `.` or `..` segment: on POSIX, joining is concatenating.
    if (sep === "/") {
      checkKey(key);
      return this.#rootSlash + key;
    }
    return join(this.root, ...keySegments(key));
  }

  /** The value under `key`; `undefined` when there is no such file (or it is a directory). */
  async get(key: string, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    const path = this.filePath(key);
    options.signal?.throwIfAborted();
    try {
      return owned(await this.#fs.readFile(path, { signal: options.signal }));
    } catch (err) {
      if (isMissing(err) || errorCode(err) === "EISDIR") return undefined;
      rethrow(options.signal, "read", key, path, err);
    }
  }

  /**
   * `get` without waiting on Node's thread pool: the file is read on the calling thread. For worker
   * threads whose whole job is reading chunks, where an async read only adds hops (a small file
   * costs four of them); the event loop of a main thread is better served by `get`.
   */
  getSync(key: string): Uint8Array | undefined {
    const path = this.filePath(key);
    if (this.#ownFs) throw new StoreError(`getSync cannot use the replaced fs of this store (${key})`, { key });
    try {
      return owned(readFileSync(path));
    } catch (err) {
      if (isMissing(err) || errorCode(err) === "EISDIR") return undefined;
      throw ioError("read", key, path, err);
    }
  }

  /**
   * Reads the value of `key` into `parts`, one after another, on Node's thread pool with `readv`:
   * the kernel copies the file straight into them (a chunk stored raw into the rows of a result),
   * and the calling thread copies nothing. Resolves to true when the value filled `parts` exactly,
   * false when it is shorter or longer (`parts` then hold what it had), `undefined` when there is
   * no value. Errors as `get`'s.
   */
  async getIntoParts(
    key: string,
    parts: readonly Uint8Array[],
    options: StoreOptions = {},
  ): Promise<boolean | undefined> {
    const path = this.filePath(key);
    if (this.#ownFs) throw new StoreError(`getIntoParts cannot use the replaced fs of this store (${key})`, { key });
    options.signal?.throwIfAborted();
    try {
      return await readParts(path, parts, options.signal);
    } catch (err) {
      rethrow(options.signal, "read", key, path, err);
    }
  }

  /**
   * `getSync` into `buffer`: the value is read into its start and returned as a view of it when it
   * fits, else as a view of the start of a new, larger array. For a reader done with each value before it reads the next (a
   * pool thread decoding chunk after chunk), which then allocates nothing per value.
   */
  getSyncInto(key: string, buffer: Uint8Array): Uint8Array | undefined {
    const path = this.filePath(key);
    if (this.#ownFs) throw new StoreError(`getSyncInto cannot use the replaced fs of this store (${key})`, { key });
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch (err) {
      if (isMissing(err) || errorCode(err) === "EISDIR") return undefined;
      throw ioError("read", key, path, err);
    }
    try {
      // Read until the end rather than ask the size first: no fstat, no Stats object per value.
      // A read of a regular file that returns less than asked has reached the end (POSIX allows
      // a short read of one only at its end or on a signal, which Linux does not do to file
      // reads), so a value that fits takes one read, not a second one returning nothing: three
      // system calls a value instead of four (R7's 4,096 files of 8 KiB: ~11% faster). A value
      // that outgrows `buffer` continues in a larger array.
      let out = buffer;
      let filled = 0;
      for (;;) {
        if (filled === out.length) {
          const larger = new Uint8Array(Math.max(2 * out.length, 65536));
          larger.set(out);
          out = larger;
        }
        const asked = out.length - filled;
        const n = readSync(fd, out, filled, asked, filled);
        filled += n;
        if (n < asked) break;
      }
      return out.subarray(0, filled);
    } catch (err) {
      if (errorCode(err) === "EISDIR") return undefined;
      throw ioError("read", key, path, err);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Part of the value under `key`, reading only those bytes. Ranges are clamped to the file, like
   * `Uint8Array.prototype.slice`: past the end gives the bytes up to the end, or none.
   */
  async getRange(key: string, range: ByteRange, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    const path = this.filePath(key);
    checkByteRange(key, range);
    options.signal?.throwIfAborted();
    if (!("suffixLength" in range) && range.length !== undefined && range.length <= DIRECT_RANGE) {
      // The common case (a chunk's header, its blocks): no fstat, the buffer is the length asked for.
      try {
        return await this.#fs.readRange(path, range.offset, range.length, { signal: options.signal });
      } catch (err) {
        if (isMissing(err) || errorCode(err) === "EISDIR") return undefined;
        rethrow(options.signal, "read", key, path, err);
      }
    }
    let handle: Awaited<ReturnType<StoreFileSystem["open"]>>;
    try {
      handle = await this.#fs.open(path, "r");
    } catch (err) {
      if (isMissing(err) || errorCode(err) === "EISDIR") return undefined;
      rethrow(options.signal, "read", key, path, err);
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return undefined;
      const size = stats.size;
      const start = "suffixLength" in range ? Math.max(0, size - range.suffixLength) : Math.min(range.offset, size);
      const end =
        "suffixLength" in range || range.length === undefined ? size : Math.min(size, range.offset + range.length);
      const out = new Uint8Array(end - start);
      let filled = 0;
      while (filled < out.length) {
        options.signal?.throwIfAborted();
        const { bytesRead } = await handle.read(out, filled, out.length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === out.length ? out : out.slice(0, filled);
    } catch (err) {
      rethrow(options.signal, "read", key, path, err);
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /**
   * Whether `getSync` and `getRangeSync` read exactly what `get` and `getRange` would: not with a
   * replaced `fs`, nor in a subclass that changes how values are read. Readers check it before
   * preferring the synchronous reads.
   */
  get readsSync(): boolean {
    const own = DirectoryStore.prototype;
    return !this.#ownFs && this.get === own.get && this.getRange === own.getRange;
  }

  /**
   * `getRange` on the calling thread: open, read and close with no hop through Node's thread
   * pool. For a reader of small parts of chunks one after another (a window of a large array),
   * where each hop costs more than the read itself, and which accepts that a slow disk then holds
   * up the event loop. Same results and errors as `getRange`.
   */
  getRangeSync(key: string, range: ByteRange): Uint8Array | undefined {
    return this.getRangeSyncInto(key, range, undefined);
  }

  /**
   * `getRangeSync` into `buffer`: a range that fits is read into its start and returned as a view
   * of it; a longer one comes in a new array. For a reader that is done with
   * the bytes before it reuses the buffer, which then allocates (and page-faults) nothing per read.
   */
  getRangeSyncInto(key: string, range: ByteRange, buffer: Uint8Array | undefined): Uint8Array | undefined {
    const path = this.filePath(key);
    checkByteRange(key, range);
    if (this.#ownFs) throw new StoreError(`getRangeSync cannot use the replaced fs of this store (${key})`, { key });
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch (err) {
      if (isMissing(err) || errorCode(err) === "EISDIR") return undefined;
      throw ioError("read", key, path, err);
    }
    try {
      let start: number;
      let length: number;
      if (!("suffixLength" in range) && range.length !== undefined) {
        // No fstat: the read stops at the end of the file.
        [start, length] = [range.offset, range.length];
      } else {
        const stats = fstatSync(fd);
        if (!stats.isFile()) return undefined;
        start =
          "suffixLength" in range ? Math.max(0, stats.size - range.suffixLength) : Math.min(range.offset, stats.size);
        length = stats.size - start;
      }
      const out = buffer !== undefined && length <= buffer.length ? buffer.subarray(0, length) : new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        const asked = length - filled;
        const n = readSync(fd, out, filled, asked, start + filled);
        filled += n;
        if (n < asked) break; // the end of the file (see getSyncInto)
      }
      return filled === length ? out : out.buffer === buffer?.buffer ? out.subarray(0, filled) : out.slice(0, filled);
    } catch (err) {
      if (errorCode(err) === "EISDIR") return undefined;
      throw ioError("read", key, path, err);
    } finally {
      closeSync(fd);
    }
  }

  /** Replaces the file for `key` atomically, creating its directories. */
  async set(key: string, value: Uint8Array, options: StoreOptions = {}): Promise<void> {
    const path = this.filePath(key);
    options.signal?.throwIfAborted();
    try {
      await writeFileAtomic(this.#fs, path, value, { fsync: this.#fsync, tempDir: this.#temporaryDirectory(key) });
      forgetFiles(path);
    } catch (err) {
      forgetFiles(path);
      if (errorCode(err) === "EISDIR" || errorCode(err) === "ENOTEMPTY" || errorCode(err) === "EEXIST") {
        const stats = await this.#fs.stat(path).catch(() => undefined);
        if (stats?.isDirectory() === true) {
          throw new StoreError(`cannot write ${JSON.stringify(key)} (${path}): a directory is in the way`, {
            key,
            cause: err,
          });
        }
      }
      throw ioError("write", key, path, err);
    }
  }

  /**
   * Where `set(key)` writes its temporary file: the key's directory, or the nearest one above it
   * whose name is not all digits. zarr-python's `nchunks_initialized` counts, in an array's
   * directory, the names starting with a digit and, with `dimension_separator` "/", every file in
   * the numbered directories below it, whatever its name; TensorStore reads chunks only by key.
   */
  #temporaryDirectory(key: string): string {
    const dirs = keySegments(key).slice(0, -1);
    while (dirs.length > 0 && /^\d+$/.test(dirs[dirs.length - 1]!)) dirs.pop();
    return join(this.root, ...dirs);
  }

  /** Removes the file for `key`. A missing key, or a directory, is left alone. */
  async delete(key: string, options: StoreOptions = {}): Promise<void> {
    const path = this.filePath(key);
    options.signal?.throwIfAborted();
    try {
      await this.#fs.unlink(path);
      forgetFiles(path);
    } catch (err) {
      if (isMissing(err)) return;
      // unlink of a directory fails with EISDIR on Linux, EPERM on macOS: not a key, nothing to do
      const stats = await this.#fs.stat(path).catch(() => undefined);
      if (stats?.isDirectory() === true) return;
      throw ioError("delete", key, path, err);
    }
  }

  /**
   * Every key starting with `prefix` (all when omitted), walking only the directory the prefix
   * lies in. Temporary files of writes in progress are not keys. Like zarr-python (`os.walk`),
   * it does not descend into symbolic links to directories.
   */
  async list(prefix = "", options: StoreOptions = {}): Promise<string[]> {
    const { dir, partial } = listPrefix(prefix);
    const keys: string[] = [];
    const base = dir.join("/");
    await this.#walk(join(this.root, ...dir), base === "" ? "" : `${base}/`, partial, keys, options.signal);
    return keys;
  }

  /**
   * The files (`keys`) and directories (`prefixes`) directly in the directory `prefix` (`""` for
   * the root, else ending in `/`), sorted. A missing directory is empty. Unlike zarr-python's
   * `NestedDirectoryStore.listdir`, nested chunk directories are reported as they are (`0/` is a
   * prefix), not folded back into `0.0`-style names.
   */
  async listDir(prefix: string, options: StoreOptions = {}): Promise<DirectoryListing> {
    const segments = prefixSegments(prefix);
    const path = join(this.root, ...segments);
    const entries = await this.#readdir(path, prefix, options.signal);
    const keys: string[] = [];
    const prefixes: string[] = [];
    for (const entry of entries) {
      const kind = await this.#kind(entry, path);
      if (kind === "file" && !PARTIAL_FILE.test(entry.name)) keys.push(entry.name);
      else if (kind === "directory" || kind === "link to directory") prefixes.push(entry.name);
    }
    return { keys: keys.sort(), prefixes: prefixes.sort() };
  }

  /**
   * Removes the directory `path` (a key prefix, `""` for the root itself) with everything in it,
   * as zarr-python's `rmdir` does when overwriting a node. A missing directory, or a file, is
   * left alone.
   */
  async rmdir(path = "", options: StoreOptions = {}): Promise<void> {
    const dir = join(this.root, ...prefixSegments(path));
    options.signal?.throwIfAborted();
    try {
      const stats = await this.#fs.stat(dir);
      if (!stats.isDirectory()) return;
      await this.#fs.rm(dir, { recursive: true, force: true });
      forgetFiles(dir);
    } catch (err) {
      if (isMissing(err)) return;
      rethrow(options.signal, "remove directory", path, dir, err);
    }
  }

  /**
   * Moves the file or directory `from` (a key or path) to `to` in one filesystem rename, creating
   * the directories above `to`, as zarr-python's `DirectoryStore.rename`. Fails with a `StoreError`
   * when `from` is missing or `to` exists, so nothing is ever overwritten.
   */
  async rename(from: string, to: string, options: StoreOptions = {}): Promise<void> {
    const source = join(this.root, ...prefixSegments(from));
    const target = join(this.root, ...prefixSegments(to));
    options.signal?.throwIfAborted();
    const exists = async (path: string): Promise<boolean> =>
      this.#fs.stat(path).then(
        () => true,
        (err: unknown) => (isMissing(err) ? false : rethrow(options.signal, "inspect", to, path, err)),
      );
    if (!(await exists(source)))
      throw new StoreError(`cannot rename ${JSON.stringify(from)}: it does not exist`, { key: from });
    if (await exists(target)) throw new StoreError(`cannot rename to ${JSON.stringify(to)}: it exists`, { key: to });
    try {
      await this.#fs.mkdir(dirname(target), { recursive: true });
      await this.#fs.rename(source, target);
      forgetFiles(source);
      forgetFiles(target);
    } catch (err) {
      rethrow(options.signal, "rename", from, source, err);
    }
  }

  async #walk(
    dir: string,
    keyPrefix: string,
    partial: string,
    out: string[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const entries = await this.#readdir(dir, keyPrefix, signal);
    const below: Promise<void>[] = [];
    for (const entry of entries) {
      if (!entry.name.startsWith(partial)) continue;
      const kind = await this.#kind(entry, dir);
      if (kind === "file" && !PARTIAL_FILE.test(entry.name)) out.push(keyPrefix + entry.name);
      else if (kind === "directory")
        below.push(this.#walk(join(dir, entry.name), `${keyPrefix}${entry.name}/`, "", out, signal));
    }
    await Promise.all(below);
  }

  /** The entries of a directory; none when it is missing or is a file. */
  async #readdir(dir: string, prefix: string, signal: AbortSignal | undefined): Promise<Dirent[]> {
    signal?.throwIfAborted();
    try {
      return await this.#fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return [];
      rethrow(signal, "list", prefix, dir, err);
    }
  }

  /** What a directory entry is, following a symbolic link to see what it points at. */
  async #kind(entry: Dirent, dir: string): Promise<"file" | "directory" | "link to directory" | "other"> {
    if (entry.isFile()) return "file";
    if (entry.isDirectory()) return "directory";
    if (!entry.isSymbolicLink()) return "other";
    const stats = await this.#fs.stat(join(dir, entry.name)).catch(() => undefined);
    if (stats?.isFile() === true) return "file";
    return stats?.isDirectory() === true ? "link to directory" : "other";
  }
}

/** Ranges up to this long are read into a buffer of their length without asking the file's size first. */
const DIRECT_RANGE = 64 << 20;

/**
 * A plain `Uint8Array` over memory of its own. Node hands out `Buffer`s, whose `slice` makes a
 * view rather than a copy, and small ones may share a pool with unrelated data.
 */
function owned(buffer: Uint8Array): Uint8Array {
  if (buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength) {
    return new Uint8Array(buffer.buffer, 0, buffer.byteLength);
  }
  return new Uint8Array(buffer);
}
