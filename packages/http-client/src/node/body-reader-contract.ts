/**
 * Takes in a response body as a connection delivers it. The connection reads into `target()`
 * when it gives a buffer (then reports how much with `filled`), or else into a scratch buffer of
 * its own whose bytes it hands to `push`. `push` and `end` throw when the bytes or the end of
 * the connection do not fit the framing.
 */
export interface BodyReader {
  readonly done: boolean;
  /** How many bytes are still to come, when known. */
  readonly remaining: number | undefined;
  target(): Uint8Array | undefined;
  filled(n: number): void;
  push(bytes: Uint8Array): void;
  /** The server closed the connection. */
  end(): void;
  /** The body, once `done`. */
  result(): Uint8Array;
}
