/// <reference types="node" />
import { constants } from "node:buffer";
import type { BodyReader } from "./body-reader-contract.js";
import { Pieces, uninitialized } from "./pieces.js";
import { isFieldLine } from "./response-head.js";

/** The longest chunk-size line or trailer line taken. */
const MAX_LINE = 8 * 1024;
/** Chunk data of at least this much is read in place; less is copied from the connection's scratch buffer. */
const IN_PLACE = 64 * 1024;

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const EXTENSION = `[ \\t]*;[ \\t]*${TOKEN}(?:[ \\t]*=[ \\t]*(?:${TOKEN}|"(?:[^"\\\\\\r\\n]|\\\\[^\\r\\n])*"))?`;
// RFC 9112 7.1: chunk-size [ chunk-ext ] CRLF.
const SIZE_LINE = new RegExp(`^([0-9A-Fa-f]{1,16})((?:${EXTENSION})*)$`);

/**
 * A body in chunked transfer coding (RFC 9112, section 7.1): chunk sizes in hex (extensions
 * allowed and ignored), each chunk's data followed by CRLF, a last chunk of size 0, trailer
 * fields (checked, then ignored) and a final CRLF. Anything else is an error; so are bytes after
 * the end (there is no pipelining). Large chunks are read straight into a buffer of their size.
 */
export class ChunkedBody implements BodyReader {
  readonly remaining = undefined;
  readonly #pieces = new Pieces();
  #state: "size" | "data" | "data-end" | "trailer" | "done" = "size";
  #line = "";
  /** The current chunk's buffer, how much of it is filled, and how many of the CRLF after it came. */
  #chunk: Uint8Array = new Uint8Array(0);
  #at = 0;
  #crlf = 0;

  get done(): boolean {
    return this.#state === "done";
  }

  target(): Uint8Array | undefined {
    return this.#state === "data" && this.#chunk.length - this.#at >= IN_PLACE
      ? this.#chunk.subarray(this.#at)
      : undefined;
  }

  filled(n: number): void {
    this.#at += n;
    if (this.#at === this.#chunk.length) this.#state = "data-end";
  }

  push(bytes: Uint8Array): void {
    let i = 0;
    while (i < bytes.length) {
      switch (this.#state) {
        case "size":
        case "trailer": {
          const lf = bytes.indexOf(10, i);
          const stop = lf === -1 ? bytes.length : lf;
          this.#line += latin1(bytes.subarray(i, stop));
          if (this.#line.length > MAX_LINE)
            throw new Error(`the chunked body has a line longer than ${MAX_LINE} bytes`);
          i = stop;
          if (lf === -1) break;
          i++;
          const line = this.#line;
          this.#line = "";
          if (!line.endsWith("\r"))
            throw new Error(
              `the chunked body has a line ending in LF without CR: ${JSON.stringify(line.slice(0, 100))}`,
            );
          this.#lineEnded(line.slice(0, -1));
          break;
        }
        case "data": {
          const n = Math.min(this.#chunk.length - this.#at, bytes.length - i);
          this.#chunk.set(bytes.subarray(i, i + n), this.#at);
          this.filled(n);
          i += n;
          break;
        }
        case "data-end": {
          if (bytes[i] !== (this.#crlf === 0 ? 13 : 10))
            throw new Error("the chunked body has a chunk not followed by CRLF");
          i++;
          if (++this.#crlf === 2) this.#state = "size";
          break;
        }
        case "done":
          throw new Error(`the response has ${bytes.length - i} bytes after the end of its chunked body`);
      }
    }
  }

  #lineEnded(line: string): void {
    if (this.#state === "trailer") {
      if (line === "") this.#state = "done";
      else if (!isFieldLine(line))
        throw new Error(`the chunked body has a malformed trailer line: ${JSON.stringify(line.slice(0, 100))}`);
      return;
    }
    const size = SIZE_LINE.exec(line);
    if (size === null)
      throw new Error(`the chunked body has a malformed chunk size line: ${JSON.stringify(line.slice(0, 100))}`);
    const length = parseInt(size[1]!, 16);
    if (length === 0) {
      this.#state = "trailer";
      return;
    }
    if (length > constants.MAX_LENGTH)
      throw new Error(`the chunked body has a chunk of ${length} bytes, more than a buffer holds`);
    this.#chunk = uninitialized(length);
    this.#pieces.add(this.#chunk);
    this.#at = 0;
    this.#crlf = 0;
    this.#state = "data";
  }

  end(): void {
    const got = this.#pieces.length - (this.#chunk.length - this.#at);
    if (this.#state !== "done")
      throw new Error(
        `the connection closed after ${got} bytes of the chunked body, before its end (truncated response)`,
      );
  }

  result(): Uint8Array {
    return this.#pieces.joined();
  }
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
