import { readsSynchronously, type ByteRange, type Store } from "./store.js";

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

/**
 * How to read `store`'s values straight into parts of an output (a directory store's
 * `getIntoParts`, with `readv` on Node's thread pool), when it reads values exactly as its `get`
 * would; `undefined` otherwise.
 */
export function partsReader(
  store: Store,
): ((key: string, parts: readonly Uint8Array[], signal?: AbortSignal) => Promise<boolean | undefined>) | undefined {
  if (!readsSynchronously(store) || store.getIntoParts === undefined) return undefined;
  return (key, parts, signal) => store.getIntoParts!(key, parts, { signal });
}

/**
 * How to read ranges of `store`'s values on this thread without a hop through an event loop, when
 * it can (a plain directory store); `undefined` otherwise. Partial reads of small windows read a
 * chunk's header and then its blocks: each hop through Node's thread pool costs more than the read.
 * Given `into`, a range that fits may be read into it (a view of it is returned).
 */
export function syncRangeReader(
  store: Store,
): ((key: string, range: ByteRange, into?: Uint8Array) => Uint8Array | undefined) | undefined {
  if (!readsSynchronously(store) || wholeValueStores.has(store)) return undefined;
  return store.getRangeSyncInto === undefined
    ? (key, range) => store.getRangeSync(key, range)
    : (key, range, buffer) => store.getRangeSyncInto!(key, range, buffer);
}

/**
 * How to read `store`'s values on this thread, when it can (a plain directory store): reading
 * a local file takes less than the four hops through Node's thread pool an asynchronous read
 * makes, as zarr-python reads them.
 */
export function syncValueReader(store: Store): ((key: string) => Uint8Array | undefined) | undefined {
  return readsSynchronously(store) ? (key) => store.getSync(key) : undefined;
}
