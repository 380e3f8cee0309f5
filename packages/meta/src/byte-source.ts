/** The byte-source contract: random access to one sequence of bytes, for archive stores. */

/** Options every {@link ByteSource} read takes. */
export interface ByteSourceOptions {
  /** Aborts the read or write; the source rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Random read access to a sequence of bytes: an in-memory buffer, a `Blob`/`File`, a local file,
 * or a remote file read with HTTP range requests. a zip store reads archives through this,
 * so it fetches only the bytes it needs (the end record, the central directory, the entries asked
 * for) and never the whole archive.
 *
 * `read(offset, length)` must resolve to exactly `length` bytes when `offset + length <= size()`;
 * callers never ask for bytes past the end. The returned array may be a view of memory the source
 * keeps (callers copy before handing bytes out).
 */
export interface ByteSource {
  /** The total number of bytes. Called once when an archive is opened. */
  size(options?: ByteSourceOptions): Promise<number>;
  /** `length` bytes from `offset`. */
  read(offset: number, length: number, options?: ByteSourceOptions): Promise<Uint8Array>;
}

/**
 * A {@link ByteSource} that can also be written at any offset and cut short, e.g. a file opened
 * for reading and writing, or an in-memory file. Writing past the end extends it.
 */
export interface WritableByteSource extends ByteSource {
  /** Writes `data` at `offset`, extending the source (with zeros in any gap) when past its end. */
  write(offset: number, data: Uint8Array, options?: ByteSourceOptions): Promise<void>;
  /** Cuts the source to `size` bytes (a zip's central directory may shrink). */
  truncate(size: number, options?: ByteSourceOptions): Promise<void>;
}

/** Whether `source` can also be written (has `write` and `truncate`). */
export function isWritableSource(source: ByteSource): source is WritableByteSource {
  const candidate = source as Partial<WritableByteSource>;
  return typeof candidate.write === "function" && typeof candidate.truncate === "function";
}
