import { randomUUID } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { errorCode } from "./io-errors.js";
import type { StoreFileSystem } from "./file-system.js";

/**
 * The temporary files of an atomic write, named as zarr-python's `DirectoryStore` names them:
 * `<name>.<32 hex digits>.partial`, next to the file they will replace. Listings skip them, so a
 * write in progress (ours or zarr-python's) never shows up as a key.
 */
export const PARTIAL_FILE = /^.+\.[0-9a-f]{32}\.partial$/;

export interface AtomicWriteOptions {
  /** Flush the file to disk before renaming it into place, and the directory after; default `false`. */
  fsync?: boolean;
}

/**
 * Writes `data` to `file` so that readers see either the old contents or the new, never a part:
 * creates the parent directories, writes a temporary file in the same directory, optionally
 * fsyncs it, then renames it over `file`. On any failure the temporary file is removed and `file`
 * keeps its old contents; the error is passed on unchanged.
 */
export async function writeFileAtomic(fs: StoreFileSystem, file: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const temp = join(dir, `${basename(file)}.${randomUUID().replaceAll("-", "")}.partial`);
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
    throw err;
  }
  if (options.fsync === true) await syncDirectory(fs, dir);
}

/**
 * `rename`, retried for a second on Windows when another process (a virus scanner, an indexer)
 * holds the target open, as zarr-python retries `os.replace` on `PermissionError`.
 */
async function renameWithRetry(fs: StoreFileSystem, from: string, to: string): Promise<void> {
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
async function syncDirectory(fs: StoreFileSystem, dir: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await fs.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
