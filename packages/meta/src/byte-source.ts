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
  /**
   * Optional: makes everything written so far durable (a file: `fsync`) and, for an
   * {@link WritableByteSource.atomic} source, visible to other readers. A zip store calls it when
   * it commits (in `flush`, `close` and `compact`), and puts what must reach the disk before its
   * end record between two calls.
   */
  sync?(options?: ByteSourceOptions): Promise<void>;
  /**
   * Optional: `true` when no crash part way through writing can leave a reader with half-written
   * contents: what is written stays apart from what others read until `sync()` publishes all of it
   * in one atomic step (a local file written through a copy that is renamed over it), or the
   * contents end with the process anyway (memory). A zip store rewrites its central directory in
   * place only in such a source; in any other it never overwrites what it committed.
   */
  readonly atomic?: boolean;
}

/** Whether `source` can also be written (has `write` and `truncate`). */
export function isWritableSource(source: ByteSource): source is WritableByteSource {
  const candidate = source as Partial<WritableByteSource>;
  return typeof candidate.write === "function" && typeof candidate.truncate === "function";
}
