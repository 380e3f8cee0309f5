/**
 * `create({ zarrFormat: 3 })` refuses codecs it cannot build before it writes anything: a store
 * is left without a zarr.json that nothing could read.
 */
import { describe, expect, it } from "vitest";
import { create, MemoryStore } from "@z/core";

describe("creating a v3 array whose codecs cannot be built", () => {
  it.each([
    ["an unknown codec", [{ name: "nope" }], "ZARR_UNKNOWN_CODEC"],
    ["a bytes -> bytes codec before the serializer", [{ name: "gzip" }, { name: "bytes" }], "ZARR_METADATA"],
  ])("%s: refused, nothing written", async (_, codecs, code) => {
    const store = new MemoryStore();
    await expect(
      create({ zarrFormat: 3, store, path: "g/a", shape: [4], dtype: "uint8", codecs }),
    ).rejects.toMatchObject({
      code,
    });
    expect(await store.list()).toEqual([]);
  });
});
