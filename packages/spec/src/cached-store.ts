/*
 * A store read through a context's cache pool, as TensorStore's chunk cache is: a value read or
 * written at time t serves later reads whose staleness bound is at or before t
 * (`recheck_cached_data: false` never rechecks, `"open"` rechecks what was cached before the array
 * was opened, a number rechecks what was cached before that time). Pools are shared by every array
 * opened with the same context, keyed by store and key. Values are cached whole, so reads through
 * a cache read whole chunks (no byte ranges).
 */
import type { Store, StoreOptions } from "@z/meta";
import type { CachePool } from "./context.js";

const storeIds = new WeakMap<object, number>();
let nextId = 0;
const idOf = (store: object): number => {
  let id = storeIds.get(store);
  if (id === undefined) storeIds.set(store, (id = ++nextId));
  return id;
};

/** `store` with reads served from `pool` while fresh enough for `bound` (ms since the epoch). */
export function cachedStore(store: Store, pool: CachePool, bound: number): Store {
  const prefix = `${idOf(store)}:`;
  const cached: Store = {
    async get(key: string, options?: StoreOptions): Promise<Uint8Array | undefined> {
      const hit = pool.get(prefix + key, bound);
      // A copy: callers may decode into, or write over, what they are given.
      if (hit !== undefined) return hit.bytes?.slice();
      const time = Date.now();
      const value = await store.get(key, options);
      pool.set(prefix + key, value?.slice(), time);
      return value;
    },
  };
  if (store.set !== undefined) {
    const set = store.set.bind(store);
    cached.set = async (key: string, value: Uint8Array, options?: StoreOptions) => {
      const time = Date.now();
      await set(key, value, options);
      pool.set(prefix + key, value.slice(), time);
    };
  }
  if (store.delete !== undefined) {
    const del = store.delete.bind(store);
    cached.delete = async (key: string, options?: StoreOptions) => {
      const time = Date.now();
      await del(key, options);
      pool.set(prefix + key, undefined, time);
    };
  }
  if (store.list !== undefined) cached.list = store.list.bind(store);
  if (store.listDir !== undefined) cached.listDir = store.listDir.bind(store);
  return cached;
}
