import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { DirectoryStore, TempStore } from "@z/store-fs";
import { text, utf8 } from "./helpers.js";

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

describe("TempStore", () => {
  it("is a DirectoryStore in a fresh directory under os.tmpdir()", async () => {
    const a = new TempStore();
    const b = new TempStore();
    try {
      expect(a).toBeInstanceOf(DirectoryStore);
      expect(dirname(a.root)).toBe(tmpdir());
      expect(basename(a.root)).toMatch(/^zarr-/);
      expect(a.root).not.toBe(b.root);
      await a.set("g/.zgroup", utf8("{}"));
      expect(text(await a.get("g/.zgroup"))).toBe("{}");
      expect(await b.list()).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("removes its directory on close, once", async () => {
    const store = new TempStore({ prefix: "z-test-" });
    await store.set("a/b/c", utf8("x"));
    expect(basename(store.root)).toMatch(/^z-test-/);
    await store.close();
    expect(store.closed).toBe(true);
    expect(await exists(store.root)).toBe(false);
    await store.close();
    await expect(store.set("a", utf8("x"))).rejects.toThrow(/is closed/);
    expect(await exists(store.root)).toBe(false);
    expect(await store.get("a/b/c")).toBeUndefined();
  });

  it("removes its directory at the end of an `await using` block", async () => {
    let root = "";
    {
      await using store = new TempStore();
      root = store.root;
      await store.set("k", utf8("v"));
      expect(await exists(root)).toBe(true);
    }
    expect(await exists(root)).toBe(false);
  });
});
