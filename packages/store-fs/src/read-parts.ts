import { close, open, readv } from "node:fs";

/** Buffers per readv call (Linux's IOV_MAX). */
const IOV_MAX = 1024;

/**
 * Reads the file at `path` into `parts`, one after another, with `readv` on Node's thread pool:
 * the kernel copies straight into them (a chunk stored raw into the rows of a result), and the
 * calling thread does no copying at all. Resolves to true when the file filled `parts` exactly,
 * false when it is shorter or longer (`parts` then hold what it had), undefined when it does not
 * exist; rejects with Node's error for anything else.
 */
export async function readParts(
  path: string,
  parts: readonly Uint8Array[],
  signal?: AbortSignal,
): Promise<boolean | undefined> {
  let fd: number;
  try {
    fd = await new Promise<number>((resolve, reject) =>
      open(path, "r", (error, fd) => (error ? reject(error) : resolve(fd))),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
    throw error;
  }
  try {
    // One byte past the parts tells a longer file from one that fits.
    const past = new Uint8Array(1);
    const queue = [...parts.filter((p) => p.length > 0), past];
    let position = 0;
    let at = 0;
    while (at < queue.length) {
      signal?.throwIfAborted();
      const batch = queue.slice(at, at + IOV_MAX);
      const n = await new Promise<number>((resolve, reject) =>
        readv(fd, batch, position, (error, n) => (error ? reject(error) : resolve(n))),
      );
      if (n === 0) break;
      position += n;
      // Past the parts read in full; a part read in part continues from where it stopped.
      let left = n;
      while (left > 0 && at < queue.length) {
        const part = queue[at]!;
        if (left >= part.length) {
          left -= part.length;
          at++;
        } else {
          queue[at] = part.subarray(left);
          left = 0;
        }
      }
    }
    return at === queue.length - 1;
  } catch (error) {
    // A directory opens, and fails only when read.
    if ((error as NodeJS.ErrnoException).code === "EISDIR") return undefined;
    throw error;
  } finally {
    await new Promise<void>((resolve) => close(fd, () => resolve()));
  }
}
