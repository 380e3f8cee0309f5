// Bytes in the JSON values form: standard base64 with `=` padding (Python's `base64.b64encode`),
// so that a reader tells bytes (`S`, `V`, vlen-bytes) from text (`U`, vlen-utf8) by their form
// alone and gets every byte back, as `.zarray` writes `S` and `V` fill values.

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

// Whole quads, the last one padded: what `toBase64` writes and nothing else (Buffer's own decoder
// skips what it does not know, so "abc" or text meant as one character per byte would slip through).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of standard, padded base64 text; `undefined` for anything else. */
export function fromBase64(text: unknown): Uint8Array | undefined {
  if (typeof text !== "string" || !BASE64.test(text)) return undefined;
  return new Uint8Array(Buffer.from(text, "base64"));
}
