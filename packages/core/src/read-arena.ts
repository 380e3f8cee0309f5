/**
 * A buffer the parts of one stored chunk are read into, one after another (a header, a block
 * table, blocks), then reused by the next partial read: reading small windows of a large array
 * then allocates nothing per chunk, where new arrays would each be fresh memory to page-fault in.
 * A part that does not fit comes in an array of its own, and later arenas are made large enough.
 */
export class ReadArena {
  #used = 0;
  #wanted = 0;

  constructor(readonly buffer: Uint8Array) {}

  /** Bytes this arena would have needed to hold every part read into it. */
  get wanted(): number {
    return this.#wanted;
  }

  /** Reads `length` bytes with `readInto`, offering it the next free `length` bytes when they fit. */
  read<T extends Uint8Array | undefined>(length: number, readInto: (room: Uint8Array | undefined) => T): T {
    const start = this.#used;
    const end = start + align(length);
    this.#wanted = Math.max(this.#wanted, end);
    if (end > this.buffer.length) return readInto(undefined);
    this.#used = end;
    return readInto(this.buffer.subarray(start, start + length));
  }

  reset(): this {
    this.#used = 0;
    this.#wanted = 0;
    return this;
  }
}

const align = (n: number): number => Math.ceil(n / 8) * 8;

/** The largest arena kept; larger parts are read into arrays of their own. */
const MAX_ARENA = 16 << 20;
/** Arenas kept for reuse: as many as partial reads in flight at once, usually one. */
const KEEP = 4;
/** How long unused arenas are kept, in milliseconds. */
const KEEP_IDLE_MS = 2000;

let size = 1 << 16;
let free: ReadArena[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

/** An arena for one partial read, to give back with `giveArena` once its bytes are used. */
export function takeArena(): ReadArena {
  const kept = free.pop();
  return kept !== undefined && kept.buffer.length >= size ? kept : new ReadArena(new Uint8Array(size));
}

export function giveArena(arena: ReadArena): void {
  // A little more than the largest need so far, so varying parts do not make arena after arena.
  if (arena.wanted > size) size = Math.min(MAX_ARENA, align(arena.wanted + (arena.wanted >> 2)));
  if (free.length >= KEEP || arena.buffer.length < size) return;
  free.push(arena.reset());
  if (timer === undefined) {
    timer = setTimeout(() => {
      timer = undefined;
      free = [];
    }, KEEP_IDLE_MS);
    // In Node the timer must not keep a process alive.
    (timer as { unref?: () => void }).unref?.();
  }
}
