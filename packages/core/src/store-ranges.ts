import type { ByteRange, Store } from "@z/meta";

/**
 * Stores whose `getRange` should not be used to read parts of chunks: a cache in front of a store
 * keeps whole chunks (reading parts would go around it every time), and consolidated metadata over
 * a store without ranges would read the whole chunk for every part. Those stores register here
 * (a registry rather than `instanceof`, so a bundle that never builds them does not carry them).
 */
const wholeValueStores = new WeakSet<Store>();

/** Marks `store` as one whose chunks are read whole. */
export function readsWholeValues(store: Store): void {
  wholeValueStores.add(store);
}

/** Whether `store` reads byte ranges itself, cheaply enough to read parts of chunks. */
export function servesRanges(store: Store): boolean {
  return store.getRange !== undefined && !wholeValueStores.has(store);
}

/** A store that can also read ranges on the calling thread (a directory store's `getRangeSync`). */
interface SyncRanges {
  readonly readsRangesSync?: boolean;
  getRangeSync?(key: string, range: ByteRange): Uint8Array | undefined;
}

/**
 * How to read ranges of `store`'s values on this thread without a hop through an event loop, when
 * it can (a plain directory store); `undefined` otherwise. Partial reads of small windows read a
 * chunk's header and then its blocks: each hop through Node's thread pool costs more than the read.
 */
export function syncRangeReader(store: Store): ((key: string, range: ByteRange) => Uint8Array | undefined) | undefined {
  const s = store as Store & SyncRanges;
  if (s.readsRangesSync !== true || typeof s.getRangeSync !== "function" || wholeValueStores.has(store)) return undefined;
  return (key, range) => s.getRangeSync!(key, range);
}
