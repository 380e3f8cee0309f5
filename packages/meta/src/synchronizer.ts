/**
 * Serialises the read-modify-write of one key (a chunk, `.zattrs`, `.zarray`) between concurrent
 * writers, so overlapping writes never lose an update. Implementations decide their reach: async
 * tasks of one thread, worker threads, or processes sharing a directory.
 */
export interface Synchronizer {
  /** Resolves once `key` is held; the returned function releases it. */
  acquire(key: string, options?: { signal?: AbortSignal }): Promise<Release>;
}

export type Release = () => void | Promise<void>;

/** Runs `task` while holding `key`, releasing it however the task ends. */
export async function withLock<T>(
  synchronizer: Synchronizer | undefined,
  key: string,
  task: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (synchronizer === undefined) return task();
  const release = await synchronizer.acquire(key, { signal });
  try {
    return await task();
  } finally {
    await release();
  }
}
