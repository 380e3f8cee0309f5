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
  /**
   * The store key of the chunk, for error messages (and the key a codec caches what it read of
   * the chunk by: `sharding_indexed`'s shard indexes).
   */
  readonly key?: string;
  readonly signal?: AbortSignal;
  /**
   * When encoding: whether a codec that stores chunks of its own (`sharding_indexed`'s inner
   * chunks) stores those equal to the fill value everywhere. Unset means no, zarr-python 3's and
   * TensorStore's default; `@z/core` passes the array's `writeEmptyChunks`.
   */
  readonly writeEmptyChunks?: boolean;
  /**
   * When reading a region (`decodeRegion`): whether a read of part of the stored chunk costs about
   * its bytes rather than a round trip (a local file, memory), so that a codec may read less in
   * more reads (`sharding_indexed`: only the blosc blocks of an inner chunk a region needs).
   * `@z/core` sets it for stores that read synchronously; unset means each read is a round trip.
   */
  readonly cheapReads?: boolean;
}

/**
 * Reads part of a stored (encoded) chunk for `Codec.decodeRange`: `length` bytes from `offset`,
 * fewer where the stored value ends (none past its end), or `undefined` when the chunk is not
 * stored. A store's `getRange` makes one: `(offset, length) => store.getRange(key, { offset, length })`.
 * The bytes are the codec's until its `decodeRange` settles: the caller may then reuse their memory
 * (`@z/core` reads the parts of a chunk into one reused buffer), so a codec must not keep them.
 */
export type StoredRangeReader = (offset: number, length: number) => Promise<Uint8Array | undefined>;

/**
 * Which bytes of a stored chunk `StoredPartReader` reads: `length` bytes from `offset`, or the last
 * `suffixLength` bytes (the store's `ByteRange`, as `Store.getRange` takes it).
 */
export type StoredPart = { readonly offset: number; readonly length: number } | { readonly suffixLength: number };

/**
 * Reads part of a stored (encoded) chunk for `Codec.decodeRegion`: the bytes `part` says, fewer
 * where the stored value ends (none past its end; a suffix longer than the value is the whole
 * value), or `undefined` when the chunk is not stored. A store's `getRange` makes one:
 * `(part) => store.getRange(key, part)`. Unlike `StoredRangeReader`'s, the bytes are the codec's
 * to keep: each read gives memory of its own.
 */
export type StoredPartReader = (part: StoredPart) => Promise<Uint8Array | undefined>;

/** One dimension of a region of a chunk for `Codec.decodeRegion`: elements `start` to `stop` (exclusive). */
export interface RegionBounds {
  /** The first element's index in the dimension. */
  readonly start: number;
  /** One past the last element's index. */
  readonly stop: number;
}

/**
 * A box of a C-order buffer of elements: the buffer's `shape`, and the box's first corner `start`
 * in it (the box's extent is given apart: a chunk's shape). Where `Codec.decodeIntoBox` writes.
 */
export interface BoxPlace {
  readonly shape: readonly number[];
  readonly start: readonly number[];
}

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
 * - `decodeRegion` decodes a box of a chunk's elements, reading only the stored parts it needs
 *   (`sharding_indexed`: the shard's index, then the inner chunks the box touches). `@z/core` uses
 *   it for selections that touch a small part of a chunk, when the chain is that one codec and the
 *   store has `getRange`.
 * - `decodeInto` decodes a whole chunk into a buffer the caller owns and reuses.
 * - `decodeIntoBox` decodes a whole chunk straight into its place in a larger buffer (a result):
 *   `sharding_indexed` puts each inner chunk there, with no shard-sized buffer between.
 *
 * One lets writers do less: `encodeRegion` encodes a chunk again after a change to part of it,
 * keeping the rest as stored (`sharding_indexed`: a shard's untouched inner chunks). `@z/core`
 * uses it for writes to part of a chunk when the chain is that one codec.
 *
 * A codec that caches what it read of stored chunks (`sharding_indexed` keeps shard indexes) drops
 * a chunk's entry when it encodes that chunk, and in `forget`, which `@z/core` calls when it has
 * stored or deleted a chunk (a pool thread may have encoded it).
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
   * Decodes the elements of `region` (one `{start, stop}` per dimension of the chunk, within its
   * shape) of the stored chunk that `read` reads, reading only what it needs of it: the region's
   * bytes in C order, exactly those `decode` gives there, in a buffer the caller owns. Resolves to
   * `undefined` when `read` finds no stored chunk. Throws as `decode` would (typed errors naming
   * `chunk.key`) for corrupt input in the parts it reads. Only for array → bytes codecs of
   * fixed-size elements, given `chunk` as `decode` is.
   */
  decodeRegion?(
    read: StoredPartReader,
    region: readonly RegionBounds[],
    chunk: ChunkContext,
  ): Promise<Uint8Array | undefined>;
  /**
   * Encodes a stored chunk again after a change to `region` of it alone, keeping as stored what
   * lies outside the region (`sharding_indexed`: the inner chunks the region does not touch are
   * copied as they are, not decoded and encoded again). `data` is a buffer of the whole chunk's
   * bytes (C order, as `decode` gives them) that the codec writes into: it first decodes into
   * `data`, from `previous` (the chunk's stored bytes, or `undefined` when it is not stored), the
   * parts of the region it will encode again, then calls `change()`, which writes the region's new
   * elements into `data`, then encodes. `covered` says that `change` writes every element of the
   * region (parts it covers whole need not be decoded first). Resolves to the chunk's new stored
   * bytes, or `undefined` when nothing of it is left to store (every part equal to the fill value,
   * under `chunk.writeEmptyChunks` false). Only for array → bytes codecs of fixed-size elements.
   */
  encodeRegion?(
    previous: Uint8Array | undefined,
    data: Uint8Array,
    region: readonly RegionBounds[],
    covered: boolean,
    change: () => void,
    chunk: ChunkContext,
  ): Promise<Uint8Array | undefined>;
  /** Drops whatever the codec cached of the chunk stored at `key` (see above). */
  forget?(key: string): void;
  /**
   * Decodes `data` as `decode` does, into `out` from its start instead of a new buffer, and returns
   * how many bytes it wrote. Throws a `CodecError` when the decoded chunk does not fit in `out`
   * (nothing is promised about `out`'s contents then).
   */
  decodeInto?(data: Uint8Array, out: Uint8Array, chunk: ChunkContext): Promise<number> | number;
  /**
   * Decodes `data` as `decode` does, into the box of `out` that `place` names: `out` holds a C-order
   * array of `place.shape` elements of `chunk.itemsize` bytes, and the chunk's elements (`chunk.shape`,
   * C order) go to the box of that extent starting at `place.start`. Bytes outside the box are left
   * as they are; a part of the chunk that is not stored is written as the fill value. The same
   * checks and typed errors as `decode`; on an error the box may be partly written. Only for
   * array → bytes codecs of fixed-size elements.
   */
  decodeIntoBox?(data: Uint8Array, out: Uint8Array, place: BoxPlace, chunk: ChunkContext): Promise<void> | void;
  toJSON(): CodecConfig;
}
