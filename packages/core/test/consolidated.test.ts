import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  consolidateMetadata,
  type Group,
  MemoryStore,
  NodeNotFoundError,
  openConsolidated,
  type ZarrArray,
} from "@z/core";
import { MetadataError } from "@z/meta";

/** zarr-python 2.13 wrote this directory, then ran consolidate_metadata on it. */
const FIXTURE = new URL("./fixtures/consolidated/", import.meta.url).pathname;

async function loadFixture(skip: (key: string) => boolean = () => false): Promise<MemoryStore> {
  const store = new MemoryStore();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else {
        const key = relative(FIXTURE, path);
        if (!skip(key)) await store.set(key, new Uint8Array(await readFile(path)));
      }
    }
  };
  await walk(FIXTURE);
  return store;
}

describe("consolidated metadata", () => {
  it("writes .zmetadata byte for byte as zarr-python does", async () => {
    const store = await loadFixture((key) => key === ".zmetadata");
    await consolidateMetadata(store);
    const ours = new TextDecoder().decode(await store.get(".zmetadata"));
    expect(ours).toBe(await readFile(join(FIXTURE, ".zmetadata"), "utf8"));
  });

  it("opens through .zmetadata when it is the only metadata in the store", async () => {
    const store = await loadFixture((key) => /\.z(array|group|attrs)$/.test(key));
    expect(await store.get(".zgroup")).toBeUndefined();
    const root = (await openConsolidated(store)) as Group;
    expect(await root.tree()).toBe("/\n └── x\n     └── y (3,) float32");
    expect(await root.attrs.get("a")).toEqual(expect.anything());
    const y = (await root.getItem("x/y")) as ZarrArray;
    // zarr-python wrote y[:] = 1, then y[0] = 5 through open_consolidated
    expect(Array.from((await y.get()).data as Float32Array)).toEqual([5, 1, 1]);
  });

  it("asks the store for .zmetadata and data only: no metadata key, and not spec v1's meta", async () => {
    const store = await loadFixture((key) => /\.z(array|group|attrs)$/.test(key));
    const asked: string[] = [];
    const counting = { get: (key: string) => (asked.push(key), store.get(key)) };
    const root = (await openConsolidated(counting)) as Group;
    await ((await root.getItem("x/y")) as ZarrArray).get();
    // The root's zarr.json (a v3 group's consolidation would be inline there), then .zmetadata.
    expect(asked.filter((key) => !key.startsWith("x/y/"))).toEqual(["zarr.json", ".zmetadata"]);
    expect(asked.length).toBeGreaterThan(1);
  });

  it("r+ writes data but refuses metadata, as zarr-python", async () => {
    const store = await loadFixture();
    const root = (await openConsolidated(store)) as Group;
    const y = (await root.getItem("x/y")) as ZarrArray;
    await y.set([1], 9);
    expect(Array.from((await y.get()).data as Float32Array)).toEqual([5, 9, 1]);
    await expect(root.attrs.set("b", 2)).rejects.toMatchObject({ code: "ZARR_READ_ONLY" });
    const ro = (await openConsolidated(store, { mode: "r" })) as Group;
    await expect(((await ro.getItem("x/y")) as ZarrArray).set([1], 0)).rejects.toMatchObject({
      code: "ZARR_READ_ONLY",
    });
  });

  it("names the key when .zmetadata is missing (not found) or malformed (a metadata error)", async () => {
    const store = new MemoryStore();
    // Missing is what a missing node is (zarr-python raises KeyError): a caller can fall back to the store.
    const missing = await openConsolidated(store).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(NodeNotFoundError);
    expect(missing).toMatchObject({
      code: "ZARR_NOT_FOUND",
      key: ".zmetadata",
      path: "",
      kind: "consolidated metadata",
    });
    expect((missing as Error).message).toBe('no consolidated metadata found at path "" (no .zmetadata)');
    await store.set("a/b/.zgroup", new TextEncoder().encode('{"zarr_format": 2}'));
    await expect(openConsolidated(store, { path: "a/b" })).rejects.toMatchObject({
      code: "ZARR_NOT_FOUND",
      key: "a/b/.zmetadata",
      path: "a/b",
    });
    // Corrupt stays a metadata error.
    await store.set(".zmetadata", new TextEncoder().encode('{"metadata": {}, "zarr_consolidated_format": 2}'));
    const corrupt = await openConsolidated(store).catch((error: unknown) => error);
    expect(corrupt).toBeInstanceOf(MetadataError);
    expect(corrupt).toMatchObject({ code: "ZARR_METADATA", key: ".zmetadata", field: "zarr_consolidated_format" });
    await store.set(".zmetadata", new TextEncoder().encode("{not json"));
    await expect(openConsolidated(store)).rejects.toMatchObject({ code: "ZARR_METADATA", key: ".zmetadata" });
  });

  it("says what zarr_consolidated_format holds whatever it is (a bigint, a huge float, a nested object, an odd string)", async () => {
    const store = new MemoryStore();
    for (const [format, shown] of [
      ["1180591620717411303424", "got 1180591620717411303424"],
      ["1e400", "got Infinity"],
      ['{"a": [1, {"b": 18446744073709551616}]}', "got an object"],
      [String.raw`"\u0000\ud800\n"`, String.raw`got "\u0000\ud800\n"`],
      [`[${"9".repeat(30)}, [1, [2, [3]]]]`, "got a list of 2 items"],
    ]) {
      await store.set(
        ".zmetadata",
        new TextEncoder().encode(`{"zarr_consolidated_format": ${format}, "metadata": {}}`),
      );
      const error = await openConsolidated(store).catch((e: unknown) => e);
      expect(error, (error as Error).message).toBeInstanceOf(MetadataError);
      expect(error, (error as Error).message).toMatchObject({
        code: "ZARR_METADATA",
        key: ".zmetadata",
        field: "zarr_consolidated_format",
      });
      expect((error as Error).message).toContain(shown);
    }
  });
});
