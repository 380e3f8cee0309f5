/** Reads `length` bytes from `offset` of one file (fewer when the file ends first). */
export type ReadRange = (offset: number, length: number, signal?: AbortSignal) => Promise<Uint8Array | undefined>;

interface Pending {
  readonly offset: number;
  readonly length: number;
  readonly signal: AbortSignal | undefined;
  resolve(bytes: Uint8Array | undefined): void;
  reject(error: unknown): void;
}

/**
 * Ranges of one target file asked for at about the same time (within one turn of the event loop:
 * the chunk reads of one selection), merged into fewer reads where they are adjacent or at most
 * `maxGap` bytes apart and the merged read is at most `maxBlock` bytes, as fsspec's
 * `ReferenceFileSystem.cat` merges them (`max_gap` 64 000, `max_block` 256 MB). A negative `maxGap`
 * reads each range on its own. Each caller gets its own bytes (a copy, not a view of the merged
 * read), or fewer when the file ends inside its range.
 */
export class RangeBatcher {
  readonly #read: ReadRange;
  readonly #maxGap: number;
  readonly #maxBlock: number;
  #pending: Pending[] = [];
  #scheduled = false;

  constructor(read: ReadRange, maxGap: number, maxBlock: number) {
    this.#read = read;
    this.#maxGap = maxGap;
    this.#maxBlock = maxBlock;
  }

  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array | undefined> {
    if (this.#maxGap < 0) return this.#read(offset, length, signal);
    return new Promise((resolve, reject) => {
      this.#pending.push({ offset, length, signal, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // the next macrotask: every chunk read started by the same selection has asked by then
        setTimeout(() => this.#flush(), 0);
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const pending = this.#pending.filter((p) => {
      if (!p.signal?.aborted) return true;
      p.reject(p.signal.reason);
      return false;
    });
    this.#pending = [];
    pending.sort((a, b) => a.offset - b.offset);
    let group: Pending[] = [];
    let start = 0;
    let end = 0;
    for (const p of pending) {
      const pEnd = p.offset + p.length;
      if (group.length > 0 && p.offset <= end + this.#maxGap && Math.max(end, pEnd) - start <= this.#maxBlock) {
        group.push(p);
        end = Math.max(end, pEnd);
        continue;
      }
      if (group.length > 0) this.#run(group, start, end);
      group = [p];
      start = p.offset;
      end = pEnd;
    }
    if (group.length > 0) this.#run(group, start, end);
  }

  #run(group: Pending[], start: number, end: number): void {
    if (group.length === 1) {
      const [p] = group as [Pending];
      this.#read(p.offset, p.length, p.signal).then(p.resolve, p.reject);
      return;
    }
    // One read for the group, with no signal (it serves several callers); each caller's own
    // signal still rejects its promise at once.
    const merged = this.#read(start, end - start);
    for (const p of group) {
      const onAbort = (): void => p.reject(p.signal!.reason);
      p.signal?.addEventListener("abort", onAbort, { once: true });
      merged.then(
        (bytes) => {
          p.signal?.removeEventListener("abort", onAbort);
          p.resolve(bytes?.slice(p.offset - start, p.offset - start + p.length));
        },
        (error) => {
          p.signal?.removeEventListener("abort", onAbort);
          p.reject(error);
        },
      );
    }
  }
}
