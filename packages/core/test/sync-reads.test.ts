import { describe, expect, it } from "vitest";
import { create } from "@z/core";
import { TempStore } from "@z/store-fs";

describe("reads on the calling thread of a directory store", () => {
  it("read chunks with getSync, unless the store changes how it reads", async () => {
    class CountingStore extends TempStore {
      gets = 0;
      override async get(key: string) {
        this.gets++;
        return super.get(key);
      }
    }
    for (const store of [new TempStore(), new CountingStore()]) {
      try {
        const z = await create({
          store,
          shape: [40, 40],
          chunks: [10, 10],
          dtype: "<i4",
          compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
        });
        const values = Int32Array.from({ length: 1600 }, (_, i) => i * 3);
        await z.set(null, { data: values, shape: [40, 40] });
        let sync = 0;
        const read = store.getSync.bind(store);
        store.getSync = (key) => (sync++, read(key));
        const all = await z.get(null, { pool: false });
        expect(Array.from(all.data as Int32Array)).toEqual(Array.from(values));
        if (store instanceof CountingStore) expect([sync, store.gets >= 16]).toEqual([0, true]);
        else expect(sync).toBe(16);
      } finally {
        await store.close();
      }
    }
  });
});
