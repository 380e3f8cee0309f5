import { StoreError } from "./errors.js";
import type { ByteRange } from "./store.js";

/**
 * Checks a `getRange` range before any store reads or allocates from it: `offset`, `length` and
 * `suffixLength` must be non-negative safe integers (`length` may be left out). Throws a
 * {@link StoreError} naming the key and the field.
 */
export function checkByteRange(key: string, range: ByteRange): void {
  const fields: [string, number | undefined][] =
    "suffixLength" in range
      ? [["suffixLength", range.suffixLength]]
      : [
          ["offset", range.offset],
          ["length", range.length],
        ];
  for (const [name, value] of fields) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new StoreError(
        `invalid byte range for ${JSON.stringify(key)}: ${name} must be a non-negative integer, got ${value}`,
        { key },
      );
    }
  }
}
