import { open, type FileHandle } from "node:fs/promises";
import { StoreError, type ByteSourceOptions, type WritableByteSource } from "@z/meta";

/** A local file as a byte source, e.g. for a zip store; `close()` releases the file handle. */
export interface FileByteSource extends WritableByteSource {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Opens `path` for random access: read-only by default; with `writable`, created if missing and
 * writable at any offset (a zip store appends entries and rewrites its directory in place).
 */
export async function fileByteSource(path: string, options: { writable?: boolean } = {}): Promise<FileByteSource> {
  let handle: FileHandle;
  try {
    handle = await open(path, options.writable ? (await exists(path) ? "r+" : "w+") : "r");
  } catch (cause) {
    throw new StoreError(`cannot open ${path}: ${(cause as Error).message}`, { cause });
  }
  const refuse = (): never => {
    throw new StoreError(`${path} was opened read-only`);
  };
  return {
    path,
    async size() {
      return (await handle.stat()).size;
    },
    async read(offset: number, length: number, opts: ByteSourceOptions = {}) {
      opts.signal?.throwIfAborted();
      const out = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(out, done, length - done, offset + done);
        if (bytesRead === 0) throw new StoreError(`${path} ends before byte ${offset + length} (read ${offset + done})`);
        done += bytesRead;
      }
      return out;
    },
    async write(offset: number, data: Uint8Array) {
      if (!options.writable) refuse();
      let done = 0;
      while (done < data.length) done += (await handle.write(data, done, data.length - done, offset + done)).bytesWritten;
    },
    async truncate(size: number) {
      if (!options.writable) refuse();
      await handle.truncate(size);
    },
    close: () => handle.close(),
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
