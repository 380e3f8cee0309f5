/*
 * Running a compiled chain (an inner chunk's codecs, a shard index's) as @z/core's `ChunkCodec`
 * runs an array's: encode in order, decode in reverse, each stage told about the chunk it
 * encodes. Synchronously while every codec is, so a shard of many inner chunks costs no promise
 * per inner chunk.
 */
import type { ChunkContext, CodecData } from "../codec.js";
import type { ChainStage } from "./types.js";

export type Maybe<T> = T | Promise<T>;

/** True for a promise (or any thenable) rather than a value. */
export function isPromise<T>(value: Maybe<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** `next(value)`, after `value` settles when it is a promise. */
export function andThen<T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return isPromise(value) ? value.then(next) : next(value);
}

/** `run()`, with its failure (thrown or rejected) passed through `onError`, which throws. */
export function guarded<T>(run: () => Maybe<T>, onError: (error: unknown) => never): Maybe<T> {
  let result: Maybe<T>;
  try {
    result = run();
  } catch (error) {
    return onError(error);
  }
  return isPromise(result) ? result.catch(onError) : result;
}

function context(
  stage: ChainStage,
  key: string | undefined,
  signal: AbortSignal | undefined,
  maxDecodedSize: number | undefined,
  writeEmptyChunks: boolean | undefined,
): ChunkContext {
  const { dtype, itemsize, elements, shape } = stage.chunk;
  return { dtype, itemsize, elements, shape, maxDecodedSize, key, signal, writeEmptyChunks };
}

/**
 * Decodes `data` through `stages` (last first). `size` is what the first stage must give (its
 * input's bytes); stages after it are bounded as @z/core bounds a compressor under filters.
 */
export function decodeStages(
  stages: readonly ChainStage[],
  data: CodecData,
  size: number,
  key: string | undefined,
  signal?: AbortSignal,
  from = stages.length - 1,
): Maybe<CodecData> {
  for (let i = from; i >= 0; i--) {
    const limit = i === 0 ? size : size * 8 + 4096;
    const step = stages[i]!.codec.decode(data, context(stages[i]!, key, signal, limit, undefined));
    if (isPromise(step)) return step.then((d) => decodeStages(stages, d, size, key, signal, i - 1));
    data = step;
  }
  return data;
}

/** Encodes `data` through `stages` (first first). */
export function encodeStages(
  stages: readonly ChainStage[],
  data: CodecData,
  key: string | undefined,
  signal?: AbortSignal,
  writeEmptyChunks?: boolean,
  from = 0,
): Maybe<CodecData> {
  for (let i = from; i < stages.length; i++) {
    const step = stages[i]!.codec.encode(data, context(stages[i]!, key, signal, undefined, writeEmptyChunks));
    if (isPromise(step)) return step.then((d) => encodeStages(stages, d, key, signal, writeEmptyChunks, i + 1));
    data = step;
  }
  return data;
}
