/// <reference types="node" />

/** A response's status line and header fields, names lower-cased, repeats joined with ", ". */
export interface ResponseHead {
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  minor: 0 | 1;
  status: number;
  statusText: string;
  headers: Map<string, string>;
}

/** The most a head (status line, fields, blank line) may take, as Node's own parser allows. */
export const MAX_HEAD_BYTES = 64 * 1024;

const STATUS_LINE = /^HTTP\/1\.([01]) ([0-9]{3})(?: ([^\r\n]*))?$/;
// RFC 9110 field-name (a token), then field-value with optional whitespace around it.
const FIELD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\r\n]*?)[ \t]*$/;
// Field values: visible characters, spaces, tabs and obs-text; no NUL or other controls.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Collects a response head from the bytes of a connection, which may split it anywhere. `push`
 * returns `undefined` until the blank line that ends the head has come, then the head and how
 * many of the pushed bytes it took (the rest belongs to the body). Throws when the head is
 * malformed or longer than {@link MAX_HEAD_BYTES}.
 */
export class ResponseHeadParser {
  #held: Buffer | undefined;

  push(bytes: Uint8Array): { head: ResponseHead; used: number } | undefined {
    const held = this.#held;
    const all =
      held === undefined ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.concat([held, bytes]);
    // The end may straddle what was held and what came now.
    const end = all.indexOf("\r\n\r\n", held === undefined ? 0 : Math.max(0, held.length - 3), "latin1");
    if (end === -1) {
      if (all.length > MAX_HEAD_BYTES) throw new Error(`the response head is longer than ${MAX_HEAD_BYTES} bytes`);
      this.#held = held === undefined ? Buffer.from(all) : all;
      return undefined;
    }
    if (end + 4 > MAX_HEAD_BYTES) throw new Error(`the response head is longer than ${MAX_HEAD_BYTES} bytes`);
    this.#held = undefined;
    return { head: parseHead(all.toString("latin1", 0, end)), used: end + 4 - (held?.length ?? 0) };
  }
}

/** Whether `line` is a well-formed header field (as trailer fields must be too). */
export function isFieldLine(line: string): boolean {
  const field = FIELD.exec(line);
  return field !== null && FIELD_VALUE.test(field[2]!);
}

/** The head `text` (without its final blank line) as {@link ResponseHead}; throws when malformed. */
export function parseHead(text: string): ResponseHead {
  const lines = text.split("\r\n");
  const status = STATUS_LINE.exec(lines[0]!);
  if (status === null)
    throw new Error(
      `the response does not start with an HTTP/1.x status line: ${JSON.stringify(lines[0]!.slice(0, 100))}`,
    );
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const field = FIELD.exec(line);
    // Obsolete line folding (a line starting with whitespace) is refused, as RFC 9112 allows.
    if (field === null || !FIELD_VALUE.test(field[2]!))
      throw new Error(`the response has a malformed header line: ${JSON.stringify(line.slice(0, 100))}`);
    const name = field[1]!.toLowerCase();
    const before = headers.get(name);
    headers.set(name, before === undefined ? field[2]! : `${before}, ${field[2]!}`);
  }
  return { minor: status[1] === "0" ? 0 : 1, status: Number(status[2]), statusText: status[3] ?? "", headers };
}
