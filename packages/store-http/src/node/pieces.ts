/// <reference types="node" />
import { plain } from "./body.js";

/** A buffer of `length` bytes that is not zeroed (every byte is written before it is returned). */
export function uninitialized(length: number): Uint8Array {
  return plain(Buffer.allocUnsafeSlow(length));
}

/** Pieces of a body, joined at the end (a single piece is the body itself). */
export class Pieces {
  readonly #list: Uint8Array[] = [];
  length = 0;

  add(piece: Uint8Array): void {
    this.#list.push(piece);
    this.length += piece.length;
  }

  joined(): Uint8Array {
    if (this.#list.length === 1 && isWhole(this.#list[0]!)) return this.#list[0]!;
    const out = uninitialized(this.length);
    let at = 0;
    for (const piece of this.#list) {
      out.set(piece, at);
      at += piece.length;
    }
    return out;
  }
}

const isWhole = (bytes: Uint8Array) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
