import type { WritableByteSource } from "./byte-source.js";

/**
 * A growable in-memory file: a {@link @z/meta#WritableByteSource} for building an archive in memory (in
 * a browser, in tests), whose contents `bytes()` returns. Opening a {@link ZipStore} on it with
 * mode `"w"` starts an empty archive.
 */
export class MemoryFile implements WritableByteSource {
  /**
   * `true`: its contents end with the process, so no crash leaves anyone a half-written file, and
   * a zip store may rewrite its central directory in place (see {@link @z/meta#WritableByteSource.atomic}).
   */
  readonly atomic = true;
  #buffer: Uint8Array;
  #size: number;

  /** Starts with a copy of `initial` (empty when omitted). */
  constructor(initial: Uint8Array = new Uint8Array(0)) {
    this.#buffer = new Uint8Array(Math.max(initial.length, 1024));
    this.#buffer.set(initial);
    this.#size = initial.length;
  }

  /** A copy of the contents. */
  bytes(): Uint8Array {
    return this.#buffer.slice(0, this.#size);
  }

  /** The current length. */
  async size(): Promise<number> {
    return this.#size;
  }

  /** A copy of `length` bytes from `offset` (fewer at the end). */
  async read(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(this.#size, offset + length);
    return this.#buffer.slice(Math.min(offset, end), end);
  }

  /** Writes `data` at `offset`, growing the file (zero-filled) as needed. */
  async write(offset: number, data: Uint8Array): Promise<void> {
    const end = offset + data.length;
    if (end > this.#buffer.length) {
      // Doubling keeps appending many small entries linear overall.
      const grown = new Uint8Array(Math.max(end, this.#buffer.length * 2));
      grown.set(this.#buffer.subarray(0, this.#size));
      this.#buffer = grown;
    }
    // Bytes between the old end and `offset` must read as zeros, as in a file.
    if (offset > this.#size) this.#buffer.fill(0, this.#size, offset);
    this.#buffer.set(data, offset);
    this.#size = Math.max(this.#size, end);
  }

  /** Cuts the file to `size` bytes, or extends it with zeros. */
  async truncate(size: number): Promise<void> {
    if (size > this.#size) {
      await this.write(size, new Uint8Array(0));
      return;
    }
    this.#size = size;
  }
}
