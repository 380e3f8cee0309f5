// Test helpers that need Node: local files and zarr-python (/usr/bin/python3).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { open } from "node:fs/promises";
import type { WritableByteSource } from "@z/store-zip";

/** A local file as a {@link WritableByteSource}: what `@z/store-fs` could offer as `fileByteSource`. */
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
    close: () => handle.close(),
  };
}

/** Whether /usr/bin/python3 with zarr-python is here, for the live cross-checks. */
export const hasZarrPython = spawnSync("/usr/bin/python3", ["-c", "import zarr"], { stdio: "ignore" }).status === 0;

/** Runs a Python script with /usr/bin/python3 and returns its standard output, parsed as JSON. */
export function python<T = unknown>(script: string, ...args: string[]): T {
  const out = execFileSync("/usr/bin/python3", ["-c", script, ...args], { encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });
  return JSON.parse(out) as T;
}
