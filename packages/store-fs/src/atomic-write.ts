import { randomUUID } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { StoreError } from "@z/meta";
import { errorCode, isMissing } from "./io-errors.js";
import { fileSystem, type StoreFileSystem } from "./file-system.js";

/**
 * The temporary files of atomic writes, which a write killed part way leaves behind: z's
 * `.<name>.<32 hex digits>.partial` and zarr-python's `<name>.<32 hex digits>.partial` (which z
 * wrote too before). Listings skip both, so a write in progress never shows up as a key.
 */
export const PARTIAL_FILE = /^.+\.[0-9a-f]{32}\.partial$/;

/**
 * The name of a new temporary file for an atomic write of the file `name`:
 * `.<name>.<32 hex digits>.partial`. The leading dot keeps it from every Zarr reader's chunk
 * keys: zarr-python's `nchunks_initialized` counts each name in an array's directory that starts
 * with a digit (`0.0.<hex>.partial`, its own temporary files, among them), and hidden files are
 * left alone by tools that list a directory.
 */
export function temporaryName(name: string): string {
  return `.${name}.${randomUUID().replaceAll("-", "")}.partial`;
}

/**
 * Whether a file named `name` is a temporary file of an atomic write, in either naming: z's
 * `.<name>.<32 hex digits>.partial` or zarr-python's `<name>.<32 hex digits>.partial`.
 */
export function isTemporaryFile(name: string): boolean {
  return PARTIAL_FILE.test(name);
}

export interface AtomicWriteOptions {
  /** Flush the file to disk before renaming it into place, and the directory after; default `false`. */
  fsync?: boolean;
  /**
   * The directory the temporary file is written in (an ancestor of the file's own, on the same file
   * system, for the rename to stay atomic); default: the file's own directory.
   */
  tempDir?: string;
}

/**
 * Writes `data` to `file` so that readers see either the old contents or the new, never a part:
 * creates the parent directories, writes a temporary file (named by {@link temporaryName}) in
 * `tempDir`, optionally fsyncs it, then renames it over `file`. On any failure the temporary file
 * is removed and `file` keeps its old contents; the error is passed on unchanged. Should the
 * rename cross file systems (a mount point between `tempDir` and the file), the write is made
 * again from the file's own directory.
 */
export async function writeFileAtomic(
  fs: StoreFileSystem,
  file: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(file);
  const tempDir = options.tempDir ?? dir;
  await fs.mkdir(dir, { recursive: true });
  const temp = join(tempDir, temporaryName(basename(file)));
  let created = false;
  try {
    const handle = await fs.open(temp, "wx");
    created = true;
    try {
      await handle.writeFile(data);
      if (options.fsync === true) await handle.sync();
    } finally {
      await handle.close();
    }
    await renameWithRetry(fs, temp, file);
  } catch (err) {
    if (created) await fs.unlink(temp).catch(() => undefined);
    if (errorCode(err) === "EXDEV" && tempDir !== dir)
      return writeFileAtomic(fs, file, data, { ...options, tempDir: dir });
    throw err;
  }
  if (options.fsync === true) {
    await syncDirectory(fs, dir);
    if (tempDir !== dir) await syncDirectory(fs, tempDir);
  }
}

/**
 * `rename`, retried for a second on Windows when another process (a virus scanner, an indexer)
 * holds the target open, as zarr-python retries `os.replace` on `PermissionError`.
 */
export async function renameWithRetry(fs: StoreFileSystem, from: string, to: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await fs.rename(from, to);
      return;
    } catch (err) {
      const code = errorCode(err);
      const transient = process.platform === "win32" && (code === "EPERM" || code === "EACCES" || code === "EBUSY");
      if (!transient || attempt >= 10) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Makes a rename durable; directories cannot be opened for syncing on Windows, so not there. */
export async function syncDirectory(fs: StoreFileSystem, dir: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await fs.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A temporary file of an atomic write, found by {@link findTemporaryFiles}. */
export interface TemporaryFile {
  /** Its absolute path. */
  readonly path: string;
  /** Its length in bytes: a whole value whose rename never came, or part of one. */
  readonly size: number;
  /** When it was last written: a write killed part way stopped then. */
  readonly modified: Date;
}

/**
 * The temporary files of atomic writes (see {@link isTemporaryFile}) in `dir` and, with `recursive`,
 * in every directory below it (not following symbolic links), sorted by path: what writes killed
 * part way left behind, or what writes in progress are writing. With `of`, only those of writes of
 * the file named `of` in `dir` (a zip file's working copies, written by `fileByteSource`). A
 * missing directory has none.
 */
export async function findTemporaryFiles(
  dir: string,
  options: { recursive?: boolean; of?: string } = {},
): Promise<TemporaryFile[]> {
  const fs = fileSystem();
  const found: TemporaryFile[] = [];
  const visit = async (at: string): Promise<void> => {
    let entries: Awaited<ReturnType<StoreFileSystem["readdir"]>>;
    try {
      entries = await fs.readdir(at, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    const below: Promise<void>[] = [];
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (options.recursive === true) below.push(visit(path));
      } else if (
        entry.isFile() &&
        isTemporaryFile(entry.name) &&
        (options.of === undefined || temporaryOf(entry.name, options.of))
      ) {
        const stats = await fs.stat(path).catch(() => undefined); // gone meanwhile: its write finished
        if (stats !== undefined) found.push({ path, size: stats.size, modified: stats.mtime });
      }
    }
    await Promise.all(below);
  };
  await visit(dir);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Whether `name` is a temporary file of a write of the file `target`: `.<target>.<hex>.partial` (z) or `<target>.<hex>.partial` (zarr-python). */
function temporaryOf(name: string, target: string): boolean {
  const stem = name.slice(0, -(1 + 32 + ".partial".length)); // without ".<32 hex digits>.partial"
  return stem === target || stem === `.${target}`;
}

/**
 * Removes the temporary file at `path`. Refuses (with a `StoreError`) a path whose name is not a
 * temporary file's (see {@link isTemporaryFile}), so nothing else is ever removed. Resolves to `false`
 * when it was gone already.
 */
export async function removeTemporaryFile(path: string): Promise<boolean> {
  if (!isTemporaryFile(basename(path)))
    throw new StoreError(
      `refusing to remove ${path}: it is not named as a temporary file of an atomic write (<name>.<32 hex digits>.partial)`,
    );
  try {
    await fileSystem().unlink(path);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}
