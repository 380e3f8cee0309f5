/**
 * At most `limit` holders at a time; the others wait in order. A waiter whose signal aborts
 * leaves the queue and rejects with the signal's reason.
 */
export class Semaphore {
  #free: number;
  readonly #waiting: { grant: () => void }[] = [];

  /** How many may hold it at once. */
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
    this.#free = limit;
  }

  /** Waits for a slot (in order); resolves to the function that gives it back (calling it twice gives back once). */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#free > 0) {
      this.#free--;
      return this.#releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Hand the slot straight to the next waiter, or give it back.
      const next = this.#waiting.shift();
      if (next !== undefined) next.grant();
      else this.#free++;
    };
  }
}
