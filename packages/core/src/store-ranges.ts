import type { Store } from "@z/meta";

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
