import { adviseLargeBuffer } from "@z/codecs/registry";

/** How long unused buffers are kept after their last use, in milliseconds. */
const KEEP_IDLE_MS = 2000;
/** At most this many bytes of buffers wait for reuse. */
const MAX_KEPT_BYTES = 64 << 20;

/**
 * Buffers of one size handed out and given back while chunks are decoded, so a read of many
 * chunks reuses a few (as many as decode at once) instead of allocating one per chunk. They are
 * dropped once unused for a moment, so an idle array holds none.
 */
export class ScratchBuffers {
  #free: Uint8Array[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** A buffer of exactly `bytes` bytes (contents undefined). */
  take(bytes: number): Uint8Array {
    const kept = this.#free.pop();
    if (kept !== undefined && kept.length === bytes) return kept;
    return adviseLargeBuffer(new Uint8Array(bytes));
  }

  /** Gives a buffer from `take` back once nothing refers to it any more. */
  give(buffer: Uint8Array): void {
    if ((this.#free.length + 1) * buffer.length > MAX_KEPT_BYTES) return;
    this.#free.push(buffer);
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#drop(), KEEP_IDLE_MS);
      // In Node the timer must not keep a process alive.
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** Drops the kept buffers; a read still going allocates a few again. */
  #drop(): void {
    this.#timer = undefined;
    this.#free = [];
  }
}

/**
 * Buffers of whole chunks being written: filled, encoded (here or in a pool thread, which sends
 * them back), then filled again for the next chunk, so a large write does not allocate (and
 * page-fault) a new chunk-sized buffer per chunk.
 */
export const writeBuffers = new ScratchBuffers();
