import { StoreError } from "@z/meta";
import { u16 } from "./binary.js";
import { EXTRA_ZIP64 } from "./records.js";

/** One field of an entry's "extra field": a header ID and its data. */
export interface ExtraField {
  id: number;
  data: Uint8Array;
}

/** Splits an extra field into its parts; a part running past the end is corruption, as zipfile says. */
export function splitExtra(extra: Uint8Array, what: string, key?: string): ExtraField[] {
  const fields: ExtraField[] = [];
  let at = 0;
  while (at + 4 <= extra.length) {
    const id = u16(extra, at);
    const length = u16(extra, at + 2);
    if (at + 4 + length > extra.length) {
      throw new StoreError(
        `corrupt zip archive: ${what} has an extra field 0x${id.toString(16).padStart(4, "0")} of ${length} bytes running past the end of its ${extra.length}-byte extra data`,
        { key },
      );
    }
    fields.push({ id, data: extra.subarray(at + 4, at + 4 + length) });
    at += 4 + length;
  }
  // Fewer than 4 trailing bytes cannot be a field; some writers pad with zeros, zipfile ignores them.
  return fields;
}

/** The extra field without its zip64 part, which a writer regenerates from the actual values. */
export function withoutZip64(extra: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  let changed = false;
  while (at + 4 <= extra.length) {
    const length = u16(extra, at + 2);
    const end = Math.min(extra.length, at + 4 + length);
    if (u16(extra, at) === EXTRA_ZIP64) changed = true;
    else parts.push(extra.subarray(at, end));
    at = end;
  }
  if (!changed) return extra;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
