import { constants } from "node:fs";
import { type FileHandle, open, readlink, realpath, stat } from "node:fs/promises";
import { sep } from "node:path";
import type { Readable } from "node:stream";
import { type ByteRange, type Store, type StoreOptions, StoreError } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";

// What `zarr serve` reads a directory through. A DirectoryStore follows symbolic links wherever
// they lead, as zarr-python's does, and a program opening its own store wants that; a server
// answering every origin must not hand out `/etc/passwd` because the directory holds a link to
// `/etc`. So each read opens the file (following links, as the store does) and then asks where
// the file it holds open really is: that answer cannot be changed by renaming or relinking after
// the open, so a link swapped in between a check and the open gains nothing. A file that is not
// under the root's real path is answered as a missing key.
//
// The server streams what it opened rather than reading it whole first, so a client that stops
// reading holds a file descriptor and a stream's buffer, not the whole value in memory.

// Non-blocking: a FIFO put in the directory must not hold a thread of the pool (regular files
// ignore the flag).
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** How the real path of an open file is found: Linux names it in /proc; elsewhere see `sameFile`. */
let procFd: boolean | undefined;

/** A value opened for serving: its size, and its bytes `start` to `end` (inclusive) as a stream. */
export interface OpenedValue {
  readonly size: number;
  /** The stream closes the file when it ends or is destroyed; call once, or call `close`. */
  stream(start: number, end: number): Readable;
  close(): Promise<void>;
}

/** A store `zarr serve` can stream values from. */
export interface StreamingStore extends Store {
  openValue(key: string): Promise<OpenedValue | undefined>;
}

export const isStreamingStore = (store: Store): store is StreamingStore =>
  typeof (store as Partial<StreamingStore>).openValue === "function";

export interface ServedDirectoryStoreOptions {
  /** Follow every link, wherever it leads (`--follow-symlinks`); default `false`. */
  readonly followSymlinks?: boolean;
}

/**
 * A read-only {@link DirectoryStore} for serving: its reads answer only with regular files inside
 * its root's real path, so a key reached through a symbolic link (of a file or of a directory,
 * relative or absolute) that resolves outside is `undefined`, as a missing key; links that stay
 * inside are followed. With `followSymlinks`, every link is followed, as DirectoryStore does.
 */
export class ServedDirectoryStore extends DirectoryStore implements StreamingStore {
  readonly followSymlinks: boolean;
  #realRoot: Promise<string> | undefined;

  constructor(root: string, options: ServedDirectoryStoreOptions = {}) {
    super(root);
    this.followSymlinks = options.followSymlinks ?? false;
  }

  /** The root's real path, resolved once: the boundary every read is checked against. */
  realRoot(): Promise<string> {
    this.#realRoot ??= realpath(this.root);
    return this.#realRoot;
  }

  /** The file under `key`, open; `undefined` for no regular file there, or one outside the root. */
  async openValue(key: string): Promise<OpenedValue | undefined> {
    const path = this.filePath(key);
    const root = this.followSymlinks ? undefined : await this.realRoot();
    let handle: FileHandle;
    try {
      handle = await open(path, READ_FLAGS);
    } catch (err) {
      if (unreadable(err)) return undefined;
      throw new StoreError(`cannot read ${JSON.stringify(key)}: ${(err as Error).message}`, { key, cause: err });
    }
    try {
      const info = await handle.stat();
      if (!info.isFile() || (root !== undefined && !(await insideRoot(handle, path, info, root)))) {
        await handle.close();
        return undefined;
      }
      return {
        size: info.size,
        stream: (start, end) => handle.createReadStream({ start, end, autoClose: true }),
        close: () => handle.close(),
      };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  override async get(key: string, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    options.signal?.throwIfAborted();
    const opened = await this.openValue(key);
    if (opened === undefined) return undefined;
    const chunks: Buffer[] = [];
    if (opened.size > 0) for await (const chunk of opened.stream(0, opened.size - 1)) chunks.push(chunk as Buffer);
    else await opened.close();
    const bytes = Buffer.concat(chunks);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Part of the value `get` would give (read whole first). */
  override async getRange(key: string, range: ByteRange, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    const offsets = "suffixLength" in range ? [range.suffixLength] : [range.offset, range.length ?? 0];
    if (!offsets.every((n) => Number.isSafeInteger(n) && n >= 0))
      throw new StoreError(`invalid byte range for ${JSON.stringify(key)}: ${JSON.stringify(range)}`, { key });
    const value = await this.get(key, options);
    if (value === undefined) return undefined;
    const size = value.length;
    if ("suffixLength" in range) return value.subarray(Math.max(0, size - range.suffixLength));
    const start = Math.min(range.offset, size);
    return value.subarray(start, range.length === undefined ? size : Math.min(size, range.offset + range.length));
  }
}

/** Errors that mean "no value here": missing, a directory, a loop of links, a socket. */
function unreadable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return ["ENOENT", "ENOTDIR", "EISDIR", "ELOOP", "ENXIO", "ENAMETOOLONG"].includes(String(code));
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Whether the file `handle` holds open (opened as `path`) lies under `root` (a real path). */
async function insideRoot(
  handle: FileHandle,
  path: string,
  info: { dev: number; ino: number },
  root: string,
): Promise<boolean> {
  if (procFd !== false) {
    try {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`);
      procFd = true;
      return isInside(opened, root);
    } catch (err) {
      if (procFd === true) throw err;
      procFd = false; // no /proc (macOS, some sandboxes)
    }
  }
  return sameFile(path, info, root);
}

/**
 * Without /proc: the path resolved after the open must lie under the root and name the very file
 * that was opened (same device and inode). A link swapped in for the open and back out again
 * before this check leaves the opened file a different one than the path names now, and is refused.
 */
export async function sameFile(path: string, info: { dev: number; ino: number }, root: string): Promise<boolean> {
  const resolved = await realpath(path).catch(() => undefined);
  if (resolved === undefined || !isInside(resolved, root)) return false;
  const now = await stat(resolved).catch(() => undefined);
  return now !== undefined && now.dev === info.dev && now.ino === info.ino;
}
