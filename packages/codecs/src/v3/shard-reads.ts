/** A run of stored bytes to read. */
export interface ByteSpan {
  readonly offset: number;
  readonly length: number;
}

/** Spans read with one request: from `offset`, `length` bytes, holding each of `members`. */
export interface SpanGroup<T extends ByteSpan> extends ByteSpan {
  readonly members: readonly T[];
}

/**
 * Groups `spans` into requests, in order of offset: a span joins the group before it when it
 * starts at most `maxGap` bytes after the group ends and the group stays within `maxBytes` (a span
 * within the group's bytes always does) (zarr-python 3's coalescing of a shard's inner chunk reads; zarrita's
 * `withRangeCoalescing` does the same with a gap of 32 KiB and no cap).
 */
export function coalesce<T extends ByteSpan>(spans: readonly T[], maxGap: number, maxBytes: number): SpanGroup<T>[] {
  const sorted = [...spans].sort((a, b) => a.offset - b.offset);
  const groups: SpanGroup<T>[] = [];
  let members: T[] = [];
  let start = 0;
  let end = 0;
  for (const span of sorted) {
    const spanEnd = span.offset + span.length;
    const joins = spanEnd <= end || (span.offset - end <= maxGap && spanEnd - start <= maxBytes);
    if (members.length > 0 && joins) {
      members.push(span);
      end = Math.max(end, spanEnd);
      continue;
    }
    if (members.length > 0) groups.push({ offset: start, length: end - start, members });
    members = [span];
    start = span.offset;
    end = spanEnd;
  }
  if (members.length > 0) groups.push({ offset: start, length: end - start, members });
  return groups;
}
