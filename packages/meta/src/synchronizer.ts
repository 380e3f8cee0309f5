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

/**
 * Locks keys between the async tasks of one thread (zarr-python's `ThreadSynchronizer`): each
 * key's holders queue behind one another.
 */
export class ThreadSynchronizer implements Synchronizer {
  readonly #tails = new Map<string, Promise<void>>();

  async acquire(key: string, options: { signal?: AbortSignal } = {}): Promise<Release> {
    options.signal?.throwIfAborted();
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => held);
    this.#tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    };
  }
}

/** Each store's lock for writers of this thread that were given no synchronizer (see `threadLockFor`). */
const storeLocks = new WeakMap<object, ThreadSynchronizer>();

/**
 * The lock that writes to `store` take per chunk key when their array has no `synchronizer`
 * (the writes of `@z/core`): two writes of this thread (of one array, or of two opened on the same store
 * object) to one chunk, a shard above all, run one after the other, so neither loses what the
 * other wrote. Writers in other threads or processes need a synchronizer they share (`SharedSynchronizer`
 * of `@z/core`, `FileLockSynchronizer` of `@z/store-fs`).
 */
export function threadLockFor(store: object): ThreadSynchronizer {
  let lock = storeLocks.get(store);
  if (lock === undefined) storeLocks.set(store, (lock = new ThreadSynchronizer()));
  return lock;
}
