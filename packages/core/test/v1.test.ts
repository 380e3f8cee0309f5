import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryStore, migrate1to2, openArray } from "@z/core";

/** Spec-v1 arrays written with zarr-python's v1 encoder, and what its migrate_1to2 made of them. */
const FIXTURES = new URL("./fixtures/v1/", import.meta.url).pathname;
const CASES = ["zlib-i4", "none-f8-F", "gzip-u2"];

async function load(dir: string): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (const name of await readdir(dir)) store.set(name, new Uint8Array(await readFile(join(dir, name))));
  return store;
}

const expected = async (name: string): Promise<{ values: (number | null)[]; shape: number[] }> =>
  JSON.parse(await readFile(join(FIXTURES, name, "expected.json"), "utf8"));

describe("spec v1 arrays", () => {
  it.each(CASES)("%s opens read-only and reads what zarr-python reads", async (name) => {
    const z = await openArray(await load(join(FIXTURES, name, "array")), { mode: "r" });
    const { values, shape } = await expected(name);
    const got = await z.get();
    expect(z.zarrFormat).toBe(1);
    expect(got.shape).toEqual(shape);
    expect(Array.from(got.data as ArrayLike<number>).map((v) => (Number.isNaN(v) ? null : v))).toEqual(values);
    expect(await z.attrs.asObject()).toEqual({ case: name });
    await expect(z.set(undefined, 0)).rejects.toMatchObject({ code: "ZARR_READ_ONLY" });
  });

  it.each(CASES)("%s migrates to the .zarray and .zattrs zarr-python's migrate_1to2 writes", async (name) => {
    const store = await load(join(FIXTURES, name, "array"));
    await migrate1to2(store);
    const dir = join(FIXTURES, name, "migrated");
    for (const key of [".zarray", ".zattrs"]) {
      expect(new TextDecoder().decode(await store.get(key))).toBe(await readFile(join(dir, key), "utf8"));
    }
    expect((await store.list()).sort()).toEqual((await readdir(dir)).sort());
    const z = await openArray(store, { mode: "r" });
    expect(z.zarrFormat).toBe(2);
  });

  it("counts and digests its own documents, meta and attrs, as a v2 array's .zarray and .zattrs", async () => {
    const store = await load(join(FIXTURES, "zlib-i4", "array"));
    const z = await openArray(store, { mode: "r" });
    const sizes = await Promise.all((await store.list()).map(async (key) => (await store.get(key))!.length));
    expect(await z.nbytesStored()).toBe(sizes.reduce((a, b) => a + b, 0));
    // chunks in grid order, then meta, then attrs
    const hash = createHash("sha1");
    for (const key of ["0.0", "0.1", "0.2", "1.0", "1.1", "1.2", "2.0", "2.1", "meta", "attrs"])
      hash.update((await store.get(key))!);
    expect(await z.hexdigest()).toBe(hash.digest("hex"));
  });
});
