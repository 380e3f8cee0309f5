import { open } from "node:fs/promises";

/**
 * `length` bytes from `offset` of the file at `path`, fewer at its end: open, read, close, without
 * the fstat a read of unknown length needs. Measured on this project's machine (files in memory),
 * a 4 KiB range takes about 70 µs this way against 100 µs with the fstat; for 600 KB the read
 * itself dominates. (Node's callback `fs.read` was slower for large ranges, and
 * `fs.promises.readFile` is as fast as open, fstat, read and close for whole 8 KiB files, so whole
 * values are still read with it.)
 */
export async function readFileRange(path: string, offset: number, length: number, options: { signal?: AbortSignal | undefined } = {}): Promise<Uint8Array> {
  const handle = await open(path, "r");
  try {
    // Not zero-filled first: every byte returned is read from the file (a short read is cut).
    const slow = Buffer.allocUnsafeSlow(length);
    const out = new Uint8Array(slow.buffer, slow.byteOffset, length);
    let done = 0;
    while (done < length) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await handle.read(out, done, length - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done === length ? out : out.slice(0, done);
  } finally {
    await handle.close();
  }
}
