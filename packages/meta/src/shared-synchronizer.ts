import { ArgumentError } from "./errors.js";
import type { Release, Synchronizer } from "./synchronizer.js";

/**
 * Locks keys between worker threads (and the async tasks in each) through a `SharedArrayBuffer`
 * of lock slots: give the same `buffer` to a `SharedSynchronizer` in every thread. Keys map to
 * slots by hash, so two keys may share a slot; that only costs waiting, since a writer holds one
 * key at a time.
 */
export class SharedSynchronizer implements Synchronizer {
  readonly #slots: Int32Array;

  /** A buffer for `slots` locks, to pass to `new SharedSynchronizer(buffer)` in each thread. */
  static createBuffer(slots = 1024): SharedArrayBuffer {
    return new SharedArrayBuffer(slots * Int32Array.BYTES_PER_ELEMENT);
  }

  constructor(readonly buffer: SharedArrayBuffer) {
    if (buffer.byteLength < 4) throw new ArgumentError("the lock buffer needs room for at least one slot");
    this.#slots = new Int32Array(buffer);
  }

  async acquire(key: string, options: { signal?: AbortSignal } = {}): Promise<Release> {
    const slot = hash(key) % this.#slots.length;
    for (;;) {
      options.signal?.throwIfAborted();
      if (Atomics.compareExchange(this.#slots, slot, 0, 1) === 0) break;
      // Sleep until the holder notifies; the timeout bounds the wait if a notify is missed.
      const wait = waitAsync(this.#slots, slot, 1, 50);
      if (wait.async) {
        // A pending waitAsync does not keep Node's event loop alive; a timer does.
        const keepAlive = setTimeout(() => {}, 60);
        await wait.value;
        clearTimeout(keepAlive);
      }
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      Atomics.store(this.#slots, slot, 0);
      Atomics.notify(this.#slots, slot, 1);
    };
  }
}

/** `Atomics.waitAsync` (Node 16+, current browsers), typed here because our lib stops at ES2022. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeout: number,
    ): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

/** FNV-1a over the key's UTF-16 code units: cheap, and the same in every thread. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
