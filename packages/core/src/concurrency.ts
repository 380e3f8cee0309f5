/** Options every long-running library call accepts. */
export interface RunOptions {
  /** Cancels the call; chunks already written stay written (each chunk write is atomic). */
  signal?: AbortSignal;
  /** How many chunks are in flight at once (default 8). */
  concurrency?: number;
  /** Called after each chunk is done, with the number done and the total. */
  progress?: (done: number, total: number) => void;
}

export const DEFAULT_CONCURRENCY = 8;

/**
 * Runs `task` over `items` with at most `limit` tasks in flight. Stops starting new tasks at the
 * first failure or abort, waits for those in flight, then rethrows the first error.
 */
export async function forEachConcurrent<T>(
  items: Iterable<T>,
  task: (item: T) => Promise<void>,
  options: RunOptions = {},
  total?: number,
): Promise<void> {
  const limit = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  const { signal, progress } = options;
  const iterator = items[Symbol.iterator]();
  let failure: { error: unknown } | undefined;
  let done = 0;

  const worker = async (): Promise<void> => {
    for (;;) {
      if (failure) return;
      if (signal?.aborted) {
        failure ??= { error: signal.reason };
        return;
      }
      const next = iterator.next();
      if (next.done) return;
      try {
        await task(next.value);
        done += 1;
        progress?.(done, total ?? done);
      } catch (error) {
        failure ??= { error };
        return;
      }
    }
  };

  signal?.throwIfAborted();
  await Promise.all(Array.from({ length: limit }, worker));
  if (failure) throw failure.error;
}
