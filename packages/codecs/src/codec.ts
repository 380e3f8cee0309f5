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
 * A codec turns bytes (or values) into bytes and back. `toJSON` returns the exact config that
 * goes into `.zarray`, so that `registry.create(codec.toJSON())` makes an equal codec.
 */
export interface Codec {
  readonly id: string;
  encode(data: CodecData, chunk: ChunkContext): Promise<CodecData> | CodecData;
  decode(data: CodecData, chunk: ChunkContext): Promise<CodecData> | CodecData;
  toJSON(): CodecConfig;
}
