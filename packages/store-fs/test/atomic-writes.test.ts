import { mkdir, readFile, writeFile } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { StoreError } from "@z/meta";
import { DirectoryStore, TempStore, type StoreFileSystem } from "@z/store-fs";
import { fileTree, text, utf8 } from "./helpers.js";

const temps: TempStore[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((store) => store.close()));
});

/** A fresh temporary directory, and a DirectoryStore on it using `fs` in place of some of node:fs/promises. */
function storeWith(fs: Partial<StoreFileSystem> = {}, fsync = false): { store: DirectoryStore; root: string } {
  const temp = new TempStore();
  temps.push(temp);
  return { store: new DirectoryStore(temp.root, { fs, fsync }), root: temp.root };
}

const partials = async (root: string): Promise<string[]> =>
  (await fileTree(root)).filter((path) => path.endsWith(".partial"));

/** A Node-style system error, as fs would throw it. */
const systemError = (code: string, message: string): Error => Object.assign(new Error(`${code}: ${message}`), { code });

async function failure(promise: Promise<unknown>): Promise<StoreError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreError);
  return err as StoreError;
}

describe("atomic writes", () => {
  it("leave no temporary file behind after success", async () => {
    const { store, root } = storeWith();
    await store.set("g/.zgroup", utf8('{"zarr_format":2}'));
    await store.set("g/a/0.0", new Uint8Array(1 << 20).fill(1));
    await store.set("g/a/0.0", utf8("smaller"));
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`g/a/${i}.1`, utf8(String(i)))));
    expect(await partials(root)).toEqual([]);
    expect(text(await store.get("g/a/0.0"))).toBe("smaller");
  });

  it("write a hidden temporary file next to the target, then rename it over", async () => {
    const renames: [string, string][] = [];
    const { store, root } = storeWith({
      rename: async (from, to) => {
        renames.push([from, to]);
        const { rename } = await import("node:fs/promises");
        await rename(from, to);
      },
    });
    await store.set("a/b/0.0", utf8("x"));
    await store.set("a/b/.zarray", utf8("{}"));
    expect(renames).toHaveLength(2);
    const [[from, to], [fromMeta]] = renames as [[string, string], [string, string]];
    expect(to).toBe(join(root, "a", "b", "0.0"));
    expect(dirname(from)).toBe(join(root, "a", "b"));
    // Not zarr-python's `0.0.<hex>.partial`: its nchunks_initialized counts every name starting with a digit.
    expect(basename(from)).toMatch(/^\.0\.0\.[0-9a-f]{32}\.partial$/);
    expect(basename(fromMeta)).toMatch(/^\.\.zarray\.[0-9a-f]{32}\.partial$/);
  });

  it("write the temporary file of a chunk in nested directories in the array's directory, out of the numbered ones", async () => {
    const renames: [string, string][] = [];
    const { store, root } = storeWith({
      rename: async (from, to) => {
        renames.push([from, to]);
        const { rename } = await import("node:fs/promises");
        await rename(from, to);
      },
    });
    await store.set("g/arr/0/12/3", utf8("x"));
    await store.set("g/2024/.zgroup", utf8("{}"));
    const [[from, to], [fromGroup, toGroup]] = renames as [[string, string], [string, string]];
    expect(to).toBe(join(root, "g", "arr", "0", "12", "3"));
    expect(dirname(from)).toBe(join(root, "g", "arr"));
    expect(basename(from)).toMatch(/^\.3\.[0-9a-f]{32}\.partial$/);
    // A group named with digits only: its metadata's temporary file goes up a level too.
    expect(toGroup).toBe(join(root, "g", "2024", ".zgroup"));
    expect(dirname(fromGroup)).toBe(join(root, "g"));
    expect(text(await store.get("g/arr/0/12/3"))).toBe("x");
    expect(await partials(root)).toEqual([]);
  });

  it("keep the old value and remove the temporary file when the rename fails", async () => {
    const { store: good, root } = storeWith();
    await good.set("arr/0.0", utf8("old value"));
    const store = new DirectoryStore(root, {
      fs: { rename: async () => Promise.reject(systemError("EIO", "i/o error, rename")) },
    });

    const err = await failure(store.set("arr/0.0", utf8("new value")));

    expect(err.code).toBe("ZARR_STORE");
    expect(err.key).toBe("arr/0.0");
    expect(err.message).toContain('cannot write "arr/0.0"');
    expect((err.cause as { code?: string }).code).toBe("EIO");
    expect(text(await store.get("arr/0.0"))).toBe("old value");
    expect(await partials(root)).toEqual([]);
  });

  it("keep the old value and remove the half-written temporary file when writing fails", async () => {
    const { store: good, root } = storeWith();
    await good.set("arr/0.0", utf8("old value"));
    let tempPath = "";
    const store = new DirectoryStore(root, {
      fs: {
        // The disk fills up half way through the new value.
        open: async (path, flags) => {
          const { open } = await import("node:fs/promises");
          const handle = await open(path, flags);
          tempPath = path;
          return new Proxy(handle, {
            get(target, prop, receiver) {
              if (prop === "writeFile") {
                return async (data: Uint8Array) => {
                  await target.write(data, 0, data.length >> 1);
                  throw systemError("ENOSPC", "no space left on device, write");
                };
              }
              const value: unknown = Reflect.get(target, prop, receiver);
              return typeof value === "function" ? value.bind(target) : value;
            },
          });
        },
      },
    });

    const err = await failure(store.set("arr/0.0", new Uint8Array(4096).fill(9)));

    expect((err.cause as { code?: string }).code).toBe("ENOSPC");
    expect(tempPath).toMatch(/\.partial$/);
    expect(text(await store.get("arr/0.0"))).toBe("old value");
    expect(await partials(root)).toEqual([]);
  });

  it("refuse to replace a directory, leaving it and its contents alone", async () => {
    const { store, root } = storeWith();
    await store.set("a/b", utf8("inside"));

    const err = await failure(store.set("a", utf8("would replace the directory a/")));

    expect(err.key).toBe("a");
    expect(err.message).toBe(`cannot write "a" (${join(root, "a")}): a directory is in the way`);
    expect(text(await store.get("a/b"))).toBe("inside");
    expect(await fileTree(root)).toEqual(["a/", "a/b"]);
  });

  it("fail with a StoreError when a file is where a directory should be", async () => {
    const { store, root } = storeWith();
    await store.set("a", utf8("a file"));
    const err = await failure(store.set("a/b", utf8("x")));
    expect(err.key).toBe("a/b");
    expect(await fileTree(root)).toEqual(["a"]);
  });

  it("never show a reader part of a value", async () => {
    const { store } = storeWith();
    const size = 1 << 20;
    await store.set("k", new Uint8Array(size).fill(1));
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 20; i++) await store.set("k", new Uint8Array(size).fill(i % 2 === 0 ? 2 : 1));
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const value = await store.get("k");
      reads++;
      const first = value?.[0];
      expect(value?.length).toBe(size);
      expect(value?.every((byte) => byte === first)).toBe(true);
    }
    await writer;
    expect(reads).toBeGreaterThan(0);
  });

  it("with fsync, flush the file before the rename and the directory after", async () => {
    const events: string[] = [];
    const { store, root } = storeWith(
      {
        open: async (path, flags) => {
          const { open } = await import("node:fs/promises");
          const handle: FileHandle = await open(path, flags);
          const name = path === join(root, "d") ? "dir" : "file";
          const sync = handle.sync.bind(handle);
          handle.sync = async () => {
            events.push(`sync ${name}`);
            await sync();
          };
          return handle;
        },
        rename: async (from, to) => {
          events.push("rename");
          const { rename } = await import("node:fs/promises");
          await rename(from, to);
        },
      },
      true,
    );
    await store.set("d/k", utf8("durable"));
    expect(events).toEqual(["sync file", "rename", "sync dir"]);
    expect(await readFile(join(root, "d", "k"), "utf8")).toBe("durable");
  });

  it("hide temporary files, ours or zarr-python's, from listings", async () => {
    const { store, root } = storeWith();
    await store.set("arr/.zarray", utf8("{}"));
    // What a crashed writer (here or in zarr-python) leaves behind.
    await mkdir(join(root, "arr"), { recursive: true });
    await writeFile(join(root, "arr", "0.0.0123456789abcdef0123456789abcdef.partial"), "half");
    await writeFile(join(root, "arr", ".0.1.0123456789abcdef0123456789abcdef.partial"), "half");
    await writeFile(join(root, "arr", "..zattrs.0123456789abcdef0123456789abcdef.partial"), "half");
    expect(await store.list()).toEqual(["arr/.zarray"]);
    expect(await store.listDir("arr/")).toEqual({ keys: [".zarray"], prefixes: [] });
  });
});
