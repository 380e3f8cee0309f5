import { StoreError } from "@z/meta";

/** Options every {@link ByteSource} read takes. */
export interface ByteSourceOptions {
  /** Aborts the read or write; the source rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Random read access to a sequence of bytes: an in-memory buffer, a `Blob`/`File`, a local file,
 * or a remote file read with HTTP range requests. {@link ZipStore} reads archives through this,
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
 * for reading and writing, or a {@link MemoryFile}. Writing past the end extends it.
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

/** A read-only {@link ByteSource} over a `Uint8Array`, which it does not copy. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: async () => bytes.length,
    read: async (offset, length) => bytes.subarray(offset, offset + length),
  };
}

/** A read-only {@link ByteSource} over a `Blob` (or `File`), reading only the slices asked for. */
export function blobSource(blob: Blob): ByteSource {
  return {
    size: async () => blob.size,
    read: async (offset, length, options = {}) => {
      options.signal?.throwIfAborted();
      return new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
    },
  };
}

/**
 * `source.read`, checked: a source that returns fewer or more bytes than asked for is broken or
 * was cut short, and is reported as a `StoreError` saying what was being read.
 */
export async function readExactly(source: ByteSource, offset: number, length: number, what: string, options: ByteSourceOptions & { key?: string } = {}): Promise<Uint8Array> {
  if (length === 0) return new Uint8Array(0);
  let bytes: Uint8Array;
  try {
    bytes = await source.read(offset, length, { signal: options.signal });
  } catch (err) {
    if (options.signal?.aborted === true || (err instanceof Error && err.name === "AbortError")) throw err;
    if (err instanceof StoreError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    throw new StoreError(`cannot read ${what} (${length} bytes at offset ${offset}): ${detail}`, { key: options.key, cause: err });
  }
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
    const got = bytes instanceof Uint8Array ? `${bytes.length} bytes` : String(bytes);
    throw new StoreError(`cannot read ${what}: asked the byte source for ${length} bytes at offset ${offset}, got ${got}`, { key: options.key });
  }
  return bytes;
}
