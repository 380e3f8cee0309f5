import { checkByteRange, type ByteRange } from "@z/meta";

/**
 * The Range header for `range`. A zero-length range cannot be asked for, yet a missing key must
 * still come back `undefined`: it is sent as a one-byte `probe` whose bytes are dropped (a 416
 * answer then means the key exists and is shorter).
 */
export function rangeHeader(key: string, range: ByteRange): { header: string; probe: boolean } {
  checkByteRange(key, range);
  if ("suffixLength" in range) {
    return range.suffixLength === 0
      ? { header: "bytes=-1", probe: true }
      : { header: `bytes=-${range.suffixLength}`, probe: false };
  }
  const { offset, length } = range;
  if (length === 0) return { header: `bytes=${offset}-${offset}`, probe: true };
  return { header: length === undefined ? `bytes=${offset}-` : `bytes=${offset}-${offset + length - 1}`, probe: false };
}

export interface ContentRange {
  start: number;
  /** Inclusive. */
  end: number;
  /** The size of the whole value, when the server says (`*` otherwise). */
  total: number | undefined;
}

/** `bytes 10-19/100` (or `bytes 10-19/*`); `undefined` when the header is missing or malformed. */
export function parseContentRange(header: string | null): ContentRange | undefined {
  const match = /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(header ?? "");
  if (match === null) return undefined;
  const [start, end] = [Number(match[1]), Number(match[2])];
  const total = match[3] === "*" ? undefined : Number(match[3]);
  if (end < start || (total !== undefined && end >= total)) return undefined;
  return { start, end, total };
}

/**
 * Why a 206 answer does not hold the bytes `range` asked for, or `undefined` when it does: it
 * must start where asked, not run past what was asked, and (when the size is known) stop only at
 * the end of what was asked or of the value; its body must be as long as the Content-Range says.
 */
export function partialMismatch(
  range: ByteRange,
  contentRange: ContentRange | undefined,
  bodyLength: number,
  header: string | null,
): string | undefined {
  if (contentRange === undefined)
    return `a 206 response with ${header === null ? "no Content-Range" : `an unreadable Content-Range ${JSON.stringify(header)}`}`;
  const { start, end, total } = contentRange;
  const shown = `Content-Range ${JSON.stringify(header)}`;
  if (bodyLength !== end - start + 1)
    return `a 206 response whose body has ${bodyLength} bytes but whose ${shown} says ${end - start + 1}`;
  if ("suffixLength" in range) {
    const wanted = Math.max(range.suffixLength, 1);
    if (end - start + 1 > wanted) return `${shown} for the last ${wanted} bytes`;
    if (total !== undefined && (end !== total - 1 || start !== Math.max(0, total - wanted)))
      return `${shown} for the last ${wanted} bytes`;
    return undefined;
  }
  const last = range.length === undefined ? Infinity : range.offset + Math.max(range.length, 1) - 1;
  if (start !== range.offset || end > last)
    return `${shown} for bytes from ${range.offset}${last === Infinity ? "" : ` to ${last}`}`;
  if (total !== undefined && end !== Math.min(last, total - 1))
    return `${shown} for bytes from ${range.offset}${last === Infinity ? "" : ` to ${last}`} (cut short)`;
  return undefined;
}

/** `range` of a whole value, clamped like `Uint8Array.prototype.slice`, for servers that ignore Range. */
export function sliceRange(value: Uint8Array, range: ByteRange): Uint8Array {
  if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength), value.length);
  const start = Math.min(range.offset, value.length);
  return value.slice(
    start,
    range.length === undefined ? value.length : Math.min(value.length, range.offset + range.length),
  );
}
