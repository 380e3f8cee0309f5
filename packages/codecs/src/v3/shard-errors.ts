import { ZarrError } from "@z/meta";
import { CodecError } from "../errors.js";

/**
 * A shard that cannot be read as its `sharding_indexed` codec says: an index shorter than the
 * index codecs make, an index failing its checksum, an entry pointing outside the shard's data, an
 * inner chunk that fails to decode or decodes to the wrong size. `key` is the shard's store key;
 * `innerChunk` the inner chunk's coordinates in the shard, then (nested shards) in the inner shard,
 * and so on; empty when the shard's index is to blame.
 */
export class ShardError extends CodecError {
  readonly innerChunk: readonly (readonly number[])[];
  /** What is wrong, without where (the message says both). */
  readonly detail: string;

  constructor(
    detail: string,
    options: { key?: string; innerChunk?: readonly (readonly number[])[]; cause?: unknown } = {},
  ) {
    const innerChunk = options.innerChunk ?? [];
    super(`${where(options.key, innerChunk)}: ${detail}`, {
      codecId: "sharding_indexed",
      key: options.key,
      cause: options.cause,
    });
    this.innerChunk = innerChunk;
    this.detail = detail;
  }
}

/** `shard a/c/0, inner chunk [1, 0]`, and for a nested shard `, its inner chunk [2, 3]`. */
function where(key: string | undefined, innerChunk: readonly (readonly number[])[]): string {
  const shard = key === undefined ? "shard" : `shard ${key}`;
  return [shard, ...innerChunk.map((c, i) => `${i === 0 ? "inner chunk" : "its inner chunk"} [${c.join(", ")}]`)].join(
    ", ",
  );
}

/**
 * What an inner chunk's failure becomes: a `ShardError` naming the shard key and the inner chunk at
 * `coords` (prefixed to a nested shard's path), whatever the inner codec threw.
 */
export function innerChunkError(error: unknown, key: string | undefined, coords: readonly number[]): ShardError {
  if (error instanceof ShardError) {
    return new ShardError(error.detail, {
      key,
      innerChunk: [coords, ...error.innerChunk],
      cause: error.cause ?? error,
    });
  }
  const message = error instanceof ZarrError || error instanceof Error ? error.message : String(error);
  return new ShardError(message, { key, innerChunk: [coords], cause: error });
}
