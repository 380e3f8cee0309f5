/*
 * Shared by the bz2 and lzma decoders (not exported from the package): a growable output buffer
 * that refuses to grow past a limit, and the failure the decoders throw before the codec turns it
 * into a `CodecError`.
 */

/**
 * Why a decoder stopped: the input is invalid (`corrupt`), ended early (`truncated`), or decodes
 * to more than the chunk holds (`too-large`). Python's `bz2.decompress` / `lzma.decompress` treat
 * the first two differently after a complete stream (invalid trailing data is ignored, a
 * truncated trailing stream is an error), so the decoders keep them apart.
 */
export type DecodeProblem = "corrupt" | "truncated" | "too-large";

export class DecodeFailure extends Error {
  constructor(
    readonly problem: DecodeProblem,
    message: string,
  ) {
    super(message);
    this.name = "DecodeFailure";
  }
}

export function corrupt(message: string): never {
  throw new DecodeFailure("corrupt", message);
}

export function truncated(message = "unexpected end of data"): never {
  throw new DecodeFailure("truncated", message);
}

/** The most bytes an output buffer allocates before it knows it needs them. */
const FIRST_ALLOCATION = 64 << 20;

/**
 * Decoded bytes, `length` of them at the start of `bytes`. `bytes` is replaced when the buffer
 * grows, so readers re-read it after `reserve`/`grow`. Never holds more than `limit` bytes.
 */
export class OutputBuffer {
  bytes: Uint8Array;
  length = 0;

  constructor(
    readonly limit: number,
    sizeHint: number,
  ) {
    const first = Math.min(limit, Math.max(sizeHint, 256), FIRST_ALLOCATION);
    this.bytes = new Uint8Array(first);
  }

  /** Makes room for `extra` more bytes after `length`; fails with `too-large` past the limit. */
  reserve(extra: number): Uint8Array {
    const need = this.length + extra;
    if (need > this.bytes.length) this.resize(need);
    return this.bytes;
  }

  /** Grows the buffer (at least doubling, at most to the limit); fails when it is at the limit. */
  grow(): Uint8Array {
    this.resize(this.bytes.length + 1);
    return this.bytes;
  }

  private resize(need: number): void {
    if (need > this.limit) throw new DecodeFailure("too-large", "decoded data is larger than the limit");
    const size = Math.min(this.limit, Math.max(need, this.bytes.length * 2, 256));
    const bytes = new Uint8Array(size);
    bytes.set(this.bytes.subarray(0, this.length));
    this.bytes = bytes;
  }

  /** The decoded bytes (a copy if the buffer is much larger, so the slack can be freed). */
  result(): Uint8Array {
    if (this.length === this.bytes.length) return this.bytes;
    if (this.length < this.bytes.length / 2) return this.bytes.slice(0, this.length);
    return this.bytes.subarray(0, this.length);
  }
}
