/// <reference types="node" />

/** A plain `Uint8Array` over exactly the bytes of `bytes` (a copy when they share a larger `ArrayBuffer`, as pooled Buffers do). */
export function plain(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
    return new Uint8Array(bytes.buffer, 0, bytes.byteLength);
  return new Uint8Array(bytes);
}

/** A buffer of `length` bytes that is not zeroed (every byte is written before it is returned). */
export function uninitialized(length: number): Uint8Array {
  return plain(Buffer.allocUnsafeSlow(length));
}

/** Pieces of a body, joined at the end (a single piece of its own buffer is the body itself). */
export class Pieces {
  readonly #list: Uint8Array[] = [];
  length = 0;

  add(piece: Uint8Array): void {
    this.#list.push(piece);
    this.length += piece.length;
  }

  joined(): Uint8Array {
    if (this.#list.length === 1) return plain(this.#list[0]!);
    const out = uninitialized(this.length);
    let at = 0;
    for (const piece of this.#list) {
      out.set(piece, at);
      at += piece.length;
    }
    return out;
  }
}
