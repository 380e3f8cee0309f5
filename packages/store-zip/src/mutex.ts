/**
 * Runs tasks one at a time, in call order. Writes append at the archive's end and the central
 * directory is rewritten there, so two of them must never interleave.
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    // The next task waits for this one to settle, whether it succeeded or not.
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
