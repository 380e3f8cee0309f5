/**
 * Runs `task` over `items` with at most `limit` in flight; stops starting new ones at the first
 * failure or abort, waits for those running, then rethrows the first error.
 */
export async function forEachLimit<T>(items: Iterable<T>, limit: number, task: (item: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (failure !== undefined) return;
      if (signal?.aborted) {
        failure ??= { error: signal.reason };
        return;
      }
      const next = iterator.next();
      if (next.done) return;
      try {
        await task(next.value);
      } catch (error) {
        failure ??= { error };
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  if (failure !== undefined) throw failure.error;
}
