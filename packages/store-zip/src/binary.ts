/** Little-endian reads and writes of zip records, with 64-bit fields as plain numbers. */

export function u16(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

export function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/**
 * A 64-bit field as a number, or `undefined` past 2^53 - 1: no real archive is that big, so such
 * a value means corruption, which callers report.
 */
export function u64(bytes: Uint8Array, at: number): number | undefined {
  const value = u32(bytes, at) + u32(bytes, at + 4) * 0x1_0000_0000;
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Appends little-endian fields to a growing byte array. */
export class ByteWriter {
  #bytes: Uint8Array;
  #length = 0;

  constructor(capacity = 256) {
    this.#bytes = new Uint8Array(capacity);
  }

  get length(): number {
    return this.#length;
  }

  u16(value: number): this {
    const at = this.#reserve(2);
    this.#bytes[at] = value & 0xff;
    this.#bytes[at + 1] = (value >>> 8) & 0xff;
    return this;
  }

  u32(value: number): this {
    const at = this.#reserve(4);
    this.#bytes[at] = value & 0xff;
    this.#bytes[at + 1] = (value >>> 8) & 0xff;
    this.#bytes[at + 2] = (value >>> 16) & 0xff;
    this.#bytes[at + 3] = (value >>> 24) & 0xff;
    return this;
  }

  u64(value: number): this {
    this.u32(value % 0x1_0000_0000);
    return this.u32(Math.floor(value / 0x1_0000_0000));
  }

  bytes(value: Uint8Array): this {
    const at = this.#reserve(value.length);
    this.#bytes.set(value, at);
    return this;
  }

  /** The bytes written so far (a view, valid until the next write). */
  result(): Uint8Array {
    // subarray is slow in V8; a writer sized exactly hands over its buffer as it is.
    return this.#length === this.#bytes.length ? this.#bytes : this.#bytes.subarray(0, this.#length);
  }

  #reserve(n: number): number {
    const at = this.#length;
    if (at + n > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(at + n, this.#bytes.length * 2));
      grown.set(this.#bytes.subarray(0, at));
      this.#bytes = grown;
    }
    this.#length += n;
    return at;
  }
}
