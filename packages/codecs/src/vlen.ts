/*
 * The layout numcodecs' vlen codecs share (internal to the package): a little-endian uint32 count
 * of items, then each item as a little-endian uint32 byte length and that many bytes.
 */
import type { ChunkContext } from "./codec.js";
import { CodecError, inChunk } from "./errors.js";

/** Packs byte strings as numcodecs' VLenUTF8, VLenBytes and VLenArray do. */
export function packItems(items: readonly Uint8Array[]): Uint8Array {
  let total = 4;
  for (const item of items) total += 4 + item.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, items.length, true);
  let at = 4;
  for (const item of items) {
    view.setUint32(at, item.length, true);
    out.set(item, at + 4);
    at += 4 + item.length;
  }
  return out;
}

/**
 * Unpacks what `packItems` packed, as views into `data`. Throws a CodecError naming the codec and
 * the chunk for a missing header or items that run past the end (numcodecs' "corrupt buffer"), and
 * for an item count other than the chunk's when the chunk is an object chunk. Bytes after the
 * last item are ignored, as numcodecs ignores them.
 */
export function unpackItems(data: Uint8Array, codecId: string, chunk: ChunkContext): Uint8Array[] {
  const corrupt = (detail: string): never => {
    throw new CodecError(`corrupt ${codecId} data${inChunk(chunk.key)}: ${detail}`, { codecId, key: chunk.key });
  };
  if (data.length < 4) corrupt(`${data.length} bytes are too few for the 4-byte header (missing or truncated header)`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getUint32(0, true);
  // Every item takes at least its 4-byte length: a larger count cannot be right (and is not allocated).
  if (count > (data.length - 4) / 4) corrupt(`the header counts ${count} items but the data is truncated`);
  if (chunk.dtype?.kind === "O" && count !== chunk.elements) {
    corrupt(`the header counts ${count} items, but the chunk has ${chunk.elements} elements`);
  }
  const items: Uint8Array[] = new Array<Uint8Array>(count);
  let at = 4;
  for (let i = 0; i < count; i++) {
    if (at + 4 > data.length) corrupt(`item ${i} of ${count}: its length is truncated`);
    const length = view.getUint32(at, true);
    at += 4;
    if (at + length > data.length) corrupt(`item ${i} of ${count}: ${length} bytes run past the end of the data`);
    items[i] = data.subarray(at, at + length);
    at += length;
  }
  return items;
}

/** Python's treatment of None and 0 (also False, 0.0) as missing values, which vlen-utf8 and vlen-bytes store empty. */
export function isMissing(value: unknown): boolean {
  return value === null || value === undefined || value === 0 || value === 0n || value === false;
}

/** `value` described for error messages, roughly as Python's `repr` would. */
export function describeItem(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length} values`;
  return `a ${(value as object).constructor?.name ?? "value"}`;
}
