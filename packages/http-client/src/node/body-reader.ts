/// <reference types="node" />
import { TransientFailure } from "../errors.js";
import type { BodyReader } from "./body-reader-contract.js";
import { ChunkedBody } from "./chunked-body.js";

export type { BodyReader };
import type { Framing } from "./framing.js";
import { Pieces, uninitialized } from "./pieces.js";

/** The reader for a body framed as `framed`, in a response with `status`. */
export function bodyReader(framed: Framing, status: number): BodyReader {
  switch (framed.kind) {
    case "none":
      return new LengthBody(0, status);
    case "length":
      return new LengthBody(framed.length, status);
    case "chunked":
      return new ChunkedBody();
    case "close":
      return new UntilCloseBody();
  }
}

/**
 * A body of a known length, read straight into one buffer of that size: the connection's reads
 * land in what is left of it, so no byte is copied but those that came with the head.
 */
export class LengthBody implements BodyReader {
  readonly #out: Uint8Array;
  readonly #status: number;
  #at = 0;

  constructor(length: number, status: number) {
    this.#out = uninitialized(length);
    this.#status = status;
  }

  get done(): boolean {
    return this.#at === this.#out.length;
  }

  get remaining(): number {
    return this.#out.length - this.#at;
  }

  target(): Uint8Array | undefined {
    return this.done ? undefined : this.#out.subarray(this.#at);
  }

  filled(n: number): void {
    this.#at += n;
  }

  push(bytes: Uint8Array): void {
    const length = this.#out.length;
    if (bytes.length > length - this.#at)
      throw new TransientFailure(
        `the body has more than ${length} bytes but Content-Length says ${length} (longer response)`,
        this.#status,
      );
    this.#out.set(bytes, this.#at);
    this.#at += bytes.length;
  }

  end(): void {
    throw new Error(
      `the connection closed after ${this.#at} of the ${this.#out.length} bytes of the body (truncated response)`,
    );
  }

  result(): Uint8Array {
    return this.#out;
  }
}

/** A body without length or chunks: whatever comes until the server closes the connection. */
export class UntilCloseBody implements BodyReader {
  readonly remaining = undefined;
  readonly #pieces = new Pieces();
  #done = false;

  get done(): boolean {
    return this.#done;
  }

  target(): undefined {
    return undefined;
  }

  filled(): void {}

  push(bytes: Uint8Array): void {
    this.#pieces.add(bytes.slice());
  }

  end(): void {
    this.#done = true;
  }

  result(): Uint8Array {
    return this.#pieces.joined();
  }
}
