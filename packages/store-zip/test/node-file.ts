// A local file as a byte source, written in place (not atomic). Apart from node-helpers.ts, which
// asks for Python on import, so that a child process (children/) can use it without that cost.
import { existsSync } from "node:fs";
import { open } from "node:fs/promises";
import type { WritableByteSource } from "@z/store-zip";

/** A local file as a {@link WritableByteSource} written in place, as its file handle writes (`@z/store-fs`'s `fileByteSource` writes a copy and renames it). */
export async function nodeFile(path: string): Promise<WritableByteSource & { close(): Promise<void> }> {
  const handle = await open(path, existsSync(path) ? "r+" : "w+");
  return {
    size: async () => (await handle.stat()).size,
    read: async (offset, length) => {
      const out = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(out, filled, length - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return out.subarray(0, filled);
    },
    write: async (offset, data) => {
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await handle.write(data, written, data.length - written, offset + written);
        written += bytesWritten;
      }
    },
    truncate: (size) => handle.truncate(size),
    sync: () => handle.sync(),
    close: () => handle.close(),
  };
}
