/*
 * A shard's index (the spec's "Binary shard format"): for each inner chunk, in C order of the
 * chunks-per-shard grid, a uint64 offset and a uint64 length into the shard; both 2^64 - 1 for an
 * inner chunk that is not stored. It is stored through the index codecs (`bytes` then `crc32c` by
 * default), which must encode to a fixed size, at the shard's start or end.
 */
import type { ChainStage } from "./types.js";
import { andThen, decodeStages, guarded, type Maybe } from "./run-stages.js";
import { ShardError } from "./shard-errors.js";

/** Where the index is: the first `size` bytes of the shard, or the last. */
export type IndexLocation = "start" | "end";

/** An index codec chain and what it makes. */
export interface IndexCodecs {
  /** The compiled `index_codecs`, for an array of `[...grid, 2]` uint64. */
  readonly stages: readonly ChainStage[];
  /** Bytes of the encoded index (the chain encodes to a fixed size). */
  readonly size: number;
  readonly location: IndexLocation;
}

/** Offsets beyond this cannot be read (nor held exactly in a JS number): TensorStore refuses past 2^63. */
const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

/**
 * A decoded shard index: `entries[2i]` and `entries[2i + 1]` are inner chunk `i`'s offset and
 * length, `-1` for a missing one.
 */
export class ShardIndex {
  readonly entries: Float64Array;
  /**
   * For an index read by ranges from the end of its shard (whose size is then unknown): the end of
   * the furthest inner chunk known to lie before the index, that is, a read found the index's
   * size in bytes after it. Entries ending further are checked when read (see shard-codec.ts).
   */
  checkedEnd = 0;

  constructor(entries: Float64Array) {
    this.entries = entries;
  }
}

/**
 * Parses the index bytes `raw` (decoded by the index codecs: `count` pairs of little-endian
 * uint64s) into a `ShardIndex`, refusing an entry whose end is past what can be read and one of
 * which only one half says "missing".
 */
function parseEntries(
  raw: Uint8Array,
  count: number,
  key: string | undefined,
  coordsOf: (i: number) => number[],
): ShardIndex {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const entries = new Float64Array(count * 2);
  for (let i = 0; i < count; i++) {
    const at = i * 16;
    const offLo = view.getUint32(at, true);
    const offHi = view.getUint32(at + 4, true);
    const lenLo = view.getUint32(at + 8, true);
    const lenHi = view.getUint32(at + 12, true);
    if (offLo === 0xffffffff && offHi === 0xffffffff && lenLo === 0xffffffff && lenHi === 0xffffffff) {
      entries[2 * i] = -1;
      entries[2 * i + 1] = -1;
      continue;
    }
    const offset = offHi * 2 ** 32 + offLo;
    const length = lenHi * 2 ** 32 + lenLo;
    if (offset > MAX_OFFSET || length > MAX_OFFSET || offset + length > MAX_OFFSET) {
      throw new ShardError(
        `its index has an invalid entry: offset ${bigText(offHi, offLo)}, length ${bigText(lenHi, lenLo)}`,
        {
          key,
          innerChunk: [coordsOf(i)],
        },
      );
    }
    entries[2 * i] = offset;
    entries[2 * i + 1] = length;
  }
  checkOverlaps(entries, key, coordsOf);
  return new ShardIndex(entries);
}

/**
 * Refuses two entries whose bytes overlap: no writer lays inner chunks over each other, so an
 * overlap means a corrupt index, and reading it would give one inner chunk another's values. Two
 * entries naming the very same bytes are allowed: that is a writer storing identical inner
 * chunks once, and each reads as what was written. Writers put inner chunks in index order, so
 * the usual index is checked in one pass; others are sorted by offset first.
 */
function checkOverlaps(entries: Float64Array, key: string | undefined, coordsOf: (i: number) => number[]): void {
  let order: number[] | undefined;
  let last = -1;
  for (let i = 0; i < entries.length; i += 2) {
    const offset = entries[i]!;
    if (offset === -1 || entries[i + 1] === 0) continue;
    if (last !== -1 && offset < entries[last]!) {
      order = [];
      break;
    }
    last = i;
  }
  if (order !== undefined) {
    for (let i = 0; i < entries.length; i += 2) if (entries[i] !== -1 && entries[i + 1] !== 0) order.push(i);
    order.sort((a, b) => entries[a]! - entries[b]! || a - b);
  }
  let previous = -1;
  const visit = (i: number): void => {
    if (previous !== -1) {
      const end = entries[previous]! + entries[previous + 1]!;
      const same = entries[i] === entries[previous] && entries[i + 1] === entries[previous + 1];
      if (entries[i]! < end && !same) {
        const span = (j: number) => `bytes ${entries[j]} to ${entries[j]! + entries[j + 1]!}`;
        throw new ShardError(
          `its index places the inner chunk at ${span(i)}, which overlap inner chunk [${coordsOf(previous / 2).join(", ")}] at ${span(previous)}`,
          { key, innerChunk: [coordsOf(i / 2)] },
        );
      }
    }
    if (previous === -1 || entries[i]! + entries[i + 1]! >= entries[previous]! + entries[previous + 1]!) previous = i;
  };
  if (order === undefined) {
    for (let i = 0; i < entries.length; i += 2) if (entries[i] !== -1 && entries[i + 1] !== 0) visit(i);
  } else {
    for (const i of order) visit(i);
  }
}

/** A uint64 from its halves, exactly. */
const bigText = (hi: number, lo: number): string => ((BigInt(hi) << 32n) | BigInt(lo)).toString();

/**
 * Decodes the encoded index `bytes` (exactly `codecs.size` of them) of the shard at `key`. Errors
 * (`ShardError`): an index of the wrong size, one the index codecs refuse (a `crc32c` mismatch),
 * an invalid entry.
 */
export function decodeIndex(
  bytes: Uint8Array,
  codecs: IndexCodecs,
  count: number,
  key: string | undefined,
  coordsOf: (i: number) => number[],
): Maybe<ShardIndex> {
  if (bytes.length !== codecs.size) {
    throw new ShardError(
      `its index takes ${codecs.size} bytes (${count} inner chunks), but the shard has only ${bytes.length}`,
      { key },
    );
  }
  const raw = guarded(
    () => decodeStages(codecs.stages, bytes, count * 16, key),
    (error) => {
      const message = error instanceof Error ? error.message : String(error);
      throw new ShardError(`its index does not decode: ${message}`, { key, cause: error });
    },
  );
  return andThen(raw, (r) => parseEntries(r as Uint8Array, count, key, coordsOf));
}

/**
 * Checks every entry of `index` lies in the data section of its shard: after an index at the
 * start, and, when the shard's `size` is known (read whole), before an index at the end and the
 * shard's end, as TensorStore checks. Read by ranges, entries past the end are found when their
 * bytes come back short (see shard-codec.ts).
 */
export function checkEntries(
  index: ShardIndex,
  size: number | undefined,
  codecs: IndexCodecs,
  key: string | undefined,
  coordsOf: (i: number) => number[],
): void {
  const low = codecs.location === "start" ? codecs.size : 0;
  const high = size === undefined ? Infinity : codecs.location === "start" ? size : size - codecs.size;
  const { entries } = index;
  for (let i = 0; i < entries.length; i += 2) {
    const offset = entries[i]!;
    if (offset === -1) continue;
    const end = offset + entries[i + 1]!;
    if (offset < low || end > high) {
      const data = size === undefined ? `from byte ${low}, after its index` : `bytes ${low} to ${high} of ${size}`;
      throw new ShardError(
        `its index places the inner chunk at bytes ${offset} to ${end}, outside the shard's data (${data})`,
        { key, innerChunk: [coordsOf(i / 2)] },
      );
    }
  }
}
