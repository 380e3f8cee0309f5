import type { CodecConfig, DataType } from "@z/meta";

/**
 * What flows through a codec pipeline: raw bytes, or (before the first filter of an object array)
 * the array's JS values in C order.
 */
export type CodecData = Uint8Array | readonly unknown[];

/** What a codec knows about the chunk it is working on. */
export interface ChunkContext {
  /** The array's dtype (for filters and for compressors that shuffle by item size). */
  readonly dtype: DataType;
  /** Bytes per element of the array's dtype. */
  readonly itemsize: number;
  /** Number of elements in a full chunk. */
  readonly elements: number;
  /**
   * The chunk's shape (C order), when known. Object codecs that record the shape of what they
   * encode (`json2`, `msgpack2`, as numcodecs does) need it to write zarr-python's bytes for chunks
   * of more than one dimension; without it they take the chunk as one-dimensional, `[elements]`.
   */
  readonly shape?: readonly number[];
  /**
   * The most bytes this codec's `decode` may produce, when the pipeline knows better than a full
   * chunk (`elements * itemsize`): a compressor under filters decodes to the filters' encoding,
   * which may be larger (checksums, `astype`) or unbounded (object codecs).
   */
  readonly maxDecodedSize?: number;
  /** The store key of the chunk, for error messages. */
  readonly key?: string;
  readonly signal?: AbortSignal;
}

/**
 * Reads part of a stored (encoded) chunk for `Codec.decodeRange`: `length` bytes from `offset`,
 * fewer where the stored value ends (none past its end), or `undefined` when the chunk is not
 * stored. A store's `getRange` makes one: `(offset, length) => store.getRange(key, { offset, length })`.
 * The bytes are the codec's until its `decodeRange` settles: the caller may then reuse their memory
 * (`@z/core` reads the parts of a chunk into one reused buffer), so a codec must not keep them.
 */
export type StoredRangeReader = (offset: number, length: number) => Promise<Uint8Array | undefined>;

/** What `Codec.decodeRange` gives. */
export interface DecodedRange {
  /**
   * The decoded bytes from `start` to `end`, owned by the caller; fewer (down to none) when the
   * chunk decodes to fewer than `end` bytes.
   */
  readonly bytes: Uint8Array;
  /** How many bytes the whole chunk decodes to (what `decode` would have returned). */
  readonly decodedSize: number;
}

/**
 * A codec turns bytes (or values) into bytes and back. `toJSON` returns the exact config that
 * goes into `.zarray`, so that `registry.create(codec.toJSON())` makes an equal codec.
 *
 * Two optional methods let readers do less work; a codec without them is used through `decode`:
 *
 * - `decodeRange` decodes only part of a chunk, reading only the stored bytes that part needs
 *   (numcodecs' `Blosc.decode_partial`, zarr-python's `partial_decompress`). `@z/core` uses it for
 *   selections that touch a small part of a chunk, when the array has no filters and the store has
 *   `getRange`.
 * - `decodeInto` decodes a whole chunk into a buffer the caller owns and reuses.
 */
export interface Codec {
  readonly id: string;
  encode(data: CodecData, chunk: ChunkContext): Promise<CodecData> | CodecData;
  decode(data: CodecData, chunk: ChunkContext): Promise<CodecData> | CodecData;
  /**
   * Decodes bytes `start` to `end` (`0 <= start <= end`) of what `decode` would return for the stored
   * chunk that `read` reads, reading only what it needs of it. Resolves to `undefined` when `read`
   * finds no stored chunk. Must give exactly the bytes `decode` would, and throw as `decode` would
   * (typed errors) for corrupt input in the parts it reads; it must also refuse, like `decode`, a
   * chunk claiming to decode to more than `maxDecodedSize(chunk)` bytes.
   */
  decodeRange?(
    read: StoredRangeReader,
    start: number,
    end: number,
    chunk: ChunkContext,
  ): Promise<DecodedRange | undefined>;
  /**
   * Decodes `data` as `decode` does, into `out` from its start instead of a new buffer, and returns
   * how many bytes it wrote. Throws a `CodecError` when the decoded chunk does not fit in `out`
   * (nothing is promised about `out`'s contents then).
   */
  decodeInto?(data: Uint8Array, out: Uint8Array, chunk: ChunkContext): Promise<number> | number;
  toJSON(): CodecConfig;
}
