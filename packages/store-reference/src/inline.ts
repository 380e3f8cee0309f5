import { ReferenceStoreError } from "./errors.js";
import type { Reference } from "./reference.js";

const encoder = new TextEncoder();

/**
 * An inline value as fsspec reads it: text starting `base64:` is the base64 of the bytes, any
 * other text is the bytes of its UTF-8 encoding; a JSON object (metadata written as an object
 * rather than as text) is its JSON text.
 */
export function inlineReference(value: string | object | Uint8Array, key: string): Reference {
  if (value instanceof Uint8Array) {
    // Parquet's `raw` column holds the bytes (kerchunk's `_proc_raw` decoded any base64 already)
    return { kind: "inline", bytes: value };
  }
  if (typeof value === "object") return { kind: "inline", bytes: encoder.encode(JSON.stringify(value)) };
  if (value.startsWith("base64:")) {
    const bytes = decodeBase64(value.slice(7));
    if (bytes === undefined)
      throw new ReferenceStoreError("Z_REFERENCE_FORMAT", `${JSON.stringify(key)}: its base64: value is not base64`, {
        key,
      });
    return { kind: "inline", bytes };
  }
  return { kind: "inline", bytes: encoder.encode(value) };
}

/**
 * Python's non-strict `base64.b64decode`, as fsspec reads: characters outside the alphabet are
 * skipped and decoding stops at the padding. Text that is not base64 at all is `undefined`.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  const body = text.split("=")[0]!.replace(/[^A-Za-z0-9+/]/g, "");
  if (body.length % 4 === 1) return undefined;
  const binary = atob(body + "=".repeat((4 - (body.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
