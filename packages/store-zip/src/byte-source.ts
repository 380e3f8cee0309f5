import { StoreError, type ByteSource, type ByteSourceOptions } from "@z/meta";

export type { ByteSource, ByteSourceOptions, WritableByteSource } from "@z/meta";
export { isWritableSource } from "@z/meta";

/** A read-only {@link @z/meta#ByteSource} over a `Uint8Array`, which it does not copy. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: async () => bytes.length,
    read: async (offset, length) => bytes.subarray(offset, offset + length),
  };
}

/** A read-only {@link @z/meta#ByteSource} over a `Blob` (or `File`), reading only the slices asked for. */
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
export async function readExactly(
  source: ByteSource,
  offset: number,
  length: number,
  what: string,
  options: ByteSourceOptions & { key?: string } = {},
): Promise<Uint8Array> {
  if (length === 0) return new Uint8Array(0);
  let bytes: Uint8Array;
  try {
    bytes = await source.read(offset, length, { signal: options.signal });
  } catch (err) {
    if (options.signal?.aborted === true || (err instanceof Error && err.name === "AbortError")) throw err;
    if (err instanceof StoreError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    throw new StoreError(`cannot read ${what} (${length} bytes at offset ${offset}): ${detail}`, {
      key: options.key,
      cause: err,
    });
  }
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
    const got = bytes instanceof Uint8Array ? `${bytes.length} bytes` : String(bytes);
    throw new StoreError(
      `cannot read ${what}: asked the byte source for ${length} bytes at offset ${offset}, got ${got}`,
      { key: options.key },
    );
  }
  return bytes;
}
