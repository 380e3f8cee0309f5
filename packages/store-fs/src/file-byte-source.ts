import { constants } from "node:fs";
import { copyFile, open, stat, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { StoreError, type ByteSourceOptions, type WritableByteSource } from "@z/meta";
import { renameWithRetry, syncDirectory, temporaryName } from "./atomic-write.js";
import { fileSystem } from "./file-system.js";
import { isMissing } from "./io-errors.js";

/** A local file as a byte source, e.g. for a zip store; `close()` releases the file. */
export interface FileByteSource extends WritableByteSource {
  /** The file. */
  readonly path: string;
  /** Whether writes go to a working copy that `sync()` renames over the file (see {@link FileByteSourceOptions.inPlace}). */
  readonly atomic: boolean;
  /**
   * Makes what was written durable: flushes it to the disk and, when {@link FileByteSource.atomic},
   * renames the working copy over the file (and flushes the directory). Does nothing when nothing
   * was written since the last call.
   */
  sync(options?: ByteSourceOptions): Promise<void>;
  /** Releases the file. What was written and not yet published by `sync()` is dropped with the working copy. */
  close(): Promise<void>;
}

/** How {@link fileByteSource} opens a file. */
export interface FileByteSourceOptions {
  /** Allow `write` and `truncate`; the file need not exist until `sync()` (atomic) or is created now (in place). Default `false`. */
  writable?: boolean;
  /**
   * Write the file itself, in place. By default a writable source is atomic: the first write
   * after opening (or after a `sync()`) copies the file to `.<name>.<hex>.partial` beside it (a
   * clone where the file system has them, as Btrfs and XFS do; a full copy on ext4 or tmpfs),
   * writes go to the copy, and `sync()` renames it over the file, so a crash at any moment leaves
   * the file as it was or as published, for every reader. In place saves that copy, for large
   * files on file systems without clones; a zip store then writes so that readers still find the
   * old archive after a crash, as long as less than 64 KiB was written since the last commit.
   */
  inPlace?: boolean;
}

/**
 * Opens `path` for random access: read-only by default; with `writable`, also for writing at any
 * offset (a zip store appends entries and rewrites its directory), atomically unless `inPlace`
 * (see {@link FileByteSourceOptions.inPlace}). A working copy left by a process killed before its
 * `sync()` is found by `findTemporaryFiles(dirname(path), { of: basename(path) })`.
 */
export async function fileByteSource(path: string, options: FileByteSourceOptions = {}): Promise<FileByteSource> {
  const writable = options.writable === true;
  const atomic = writable && options.inPlace !== true;
  /** The file as published; undefined while it does not exist (an atomic source's file is created by `sync()`). */
  let file: FileHandle | undefined;
  try {
    if (atomic)
      file = await open(path, "r").catch((err: unknown) => (isMissing(err) ? undefined : Promise.reject(err)));
    else file = await open(path, writable ? ((await exists(path)) ? "r+" : "w+") : "r");
  } catch (cause) {
    throw new StoreError(`cannot open ${path}: ${(cause as Error).message}`, { cause });
  }
  /** The working copy writes go to, once there are any (atomic only). */
  let copy: { handle: FileHandle; path: string } | undefined;
  let making: Promise<FileHandle> | undefined;
  /** Written in place since the last sync. */
  let unsynced = false;

  const refuse = (): never => {
    throw new StoreError(`${path} was opened read-only`);
  };
  const current = (): FileHandle | undefined => copy?.handle ?? file;

  /** The working copy, made at the first write: empty when the file is missing or about to be emptied. */
  async function working(empty: boolean): Promise<FileHandle> {
    if (copy !== undefined) return copy.handle;
    making ??= (async () => {
      const temp = join(dirname(path), temporaryName(basename(path)));
      try {
        let handle: FileHandle;
        if (file === undefined || empty) {
          handle = await open(temp, "wx+");
        } else {
          // Copied by path: make sure the path is still the file read so far.
          const [opened, named] = await Promise.all([file.stat(), stat(path).catch(() => undefined)]);
          if (named === undefined || named.ino !== opened.ino || named.dev !== opened.dev) {
            throw new Error("the file was replaced or removed since it was opened");
          }
          await copyFile(path, temp, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
          handle = await open(temp, "r+");
        }
        copy = { handle, path: temp };
        return handle;
      } catch (cause) {
        await fileSystem()
          .unlink(temp)
          .catch(() => undefined);
        throw new StoreError(
          `cannot write ${path}: making its working copy ${temp} failed: ${(cause as Error).message}`,
          { cause },
        );
      } finally {
        making = undefined;
      }
    })();
    return making;
  }

  return {
    path,
    atomic,
    async size() {
      const handle = current();
      return handle === undefined ? 0 : (await handle.stat()).size;
    },
    async read(offset: number, length: number, opts: ByteSourceOptions = {}) {
      opts.signal?.throwIfAborted();
      const out = new Uint8Array(length);
      const handle = current();
      let done = 0;
      while (done < length) {
        const bytesRead =
          handle === undefined ? 0 : (await handle.read(out, done, length - done, offset + done)).bytesRead;
        if (bytesRead === 0)
          throw new StoreError(`${path} ends before byte ${offset + length} (read ${offset + done})`);
        done += bytesRead;
      }
      return out;
    },
    async write(offset: number, data: Uint8Array) {
      if (!writable) refuse();
      const handle = atomic ? await working(false) : file!;
      unsynced = true;
      let done = 0;
      while (done < data.length)
        done += (await handle.write(data, done, data.length - done, offset + done)).bytesWritten;
    },
    async truncate(size: number) {
      if (!writable) refuse();
      const handle = atomic ? await working(size === 0) : file!;
      unsynced = true;
      await handle.truncate(size);
    },
    async sync() {
      if (!unsynced) return;
      if (!atomic) {
        await file!.sync();
        unsynced = false;
        return;
      }
      const { handle, path: temp } = copy!;
      await handle.sync();
      await renameWithRetry(fileSystem(), temp, path);
      copy = undefined;
      unsynced = false;
      const replaced = file;
      file = handle;
      await replaced?.close();
      await syncDirectory(fileSystem(), dirname(path));
    },
    async close() {
      const working = copy;
      copy = undefined;
      await Promise.all([file?.close(), working?.handle.close()]);
      if (working !== undefined)
        await fileSystem()
          .unlink(working.path)
          .catch(() => undefined);
    },
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await (await open(path, "r")).close();
    return true;
  } catch {
    return false;
  }
}
