import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileByteSource, findTemporaryFiles, isTemporaryFile, removeTemporaryFile } from "@z/store-fs";
import { text, utf8 } from "./helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "z-file-source-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = async (path: string) => readFile(path, "utf8");

describe("fileByteSource, writable (atomic by default)", () => {
  it("writes to a working copy beside the file, which sync() renames over it", async () => {
    const path = join(dir, "data.zip");
    await writeFile(path, "old contents");
    const source = await fileByteSource(path, { writable: true });
    expect(source.atomic).toBe(true);
    await source.write(0, utf8("new"));
    await source.truncate(8);
    // The source reads its writes; the file is untouched, the copy is a hidden temporary file.
    expect(text(await source.read(0, 8))).toBe("new cont");
    expect(await source.size()).toBe(8);
    expect(await read(path)).toBe("old contents");
    const copies = await findTemporaryFiles(dir, { of: "data.zip" });
    expect(copies.map((c) => c.path)).toEqual([expect.stringMatching(/\/\.data\.zip\.[0-9a-f]{32}\.partial$/)]);
    await source.sync();
    expect(await read(path)).toBe("new cont");
    expect(await readdir(dir)).toEqual(["data.zip"]);
    // The next write makes a new copy of what was published.
    await source.write(8, utf8("+more"));
    expect(await read(path)).toBe("new cont");
    await source.sync();
    expect(await read(path)).toBe("new cont+more");
    await source.sync(); // nothing written since: nothing to do
    await source.close();
    expect(await readdir(dir)).toEqual(["data.zip"]);
  });

  it("close() drops what sync() did not publish, with its working copy", async () => {
    const path = join(dir, "data.zip");
    await writeFile(path, "old");
    const source = await fileByteSource(path, { writable: true });
    await source.write(0, utf8("NEW"));
    await source.close();
    expect(await read(path)).toBe("old");
    expect(await readdir(dir)).toEqual(["data.zip"]);
  });

  it("a missing file is created by sync(), not before; emptying a file copies nothing", async () => {
    const path = join(dir, "new.zip");
    const source = await fileByteSource(path, { writable: true });
    expect(await source.size()).toBe(0);
    await source.write(0, utf8("first"));
    expect(text(await source.read(0, 5))).toBe("first");
    expect(await readdir(dir)).toEqual([expect.stringMatching(/^\.new\.zip\.[0-9a-f]{32}\.partial$/)]);
    await source.sync();
    expect(await read(path)).toBe("first");
    await source.truncate(0);
    await source.write(0, utf8("second"));
    expect(text(await source.read(0, 6))).toBe("second");
    await source.sync();
    await source.close();
    expect(await read(path)).toBe("second");
  });

  it("refuses to copy a file replaced since it was opened", async () => {
    const path = join(dir, "data.zip");
    await writeFile(path, "one");
    const source = await fileByteSource(path, { writable: true });
    await writeFile(join(dir, "other"), "two");
    const { rename } = await import("node:fs/promises");
    await rename(join(dir, "other"), path);
    await expect(source.write(0, utf8("x"))).rejects.toMatchObject({
      code: "ZARR_STORE",
      message: expect.stringContaining("was replaced or removed since it was opened"),
    });
    await source.close();
    expect(await readdir(dir)).toEqual(["data.zip"]);
  });

  it("inPlace writes the file itself; sync() flushes it", async () => {
    const path = join(dir, "data.zip");
    await writeFile(path, "old contents");
    const source = await fileByteSource(path, { writable: true, inPlace: true });
    expect(source.atomic).toBe(false);
    await source.write(0, utf8("new"));
    expect(await read(path)).toBe("new contents");
    await source.sync();
    await source.close();
    expect(await readdir(dir)).toEqual(["data.zip"]);
  });

  it("read-only refuses writes", async () => {
    const path = join(dir, "data.zip");
    await writeFile(path, "old");
    const source = await fileByteSource(path);
    await expect(source.write(0, utf8("x"))).rejects.toMatchObject({
      code: "ZARR_STORE",
      message: `${path} was opened read-only`,
    });
    await source.close();
  });
});

describe("temporary files of atomic writes", () => {
  it("are found in both namings, z's and zarr-python's, and only they are removed", async () => {
    await mkdir(join(dir, "g", "arr", "0"), { recursive: true });
    const files = {
      ours: join(dir, "g", "arr", ".0.0.0123456789abcdef0123456789abcdef.partial"),
      zarrPython: join(dir, "g", "arr", "0", "1.fedcba9876543210fedcba9876543210.partial"),
      metadata: join(dir, "g", "..zgroup.00000000000000000000000000000000.partial"),
      chunk: join(dir, "g", "arr", "0.0"),
      lookalike: join(dir, "g", "arr", "0.0.partial"),
    };
    for (const path of Object.values(files)) await writeFile(path, "x");
    expect(isTemporaryFile(".0.0.0123456789abcdef0123456789abcdef.partial")).toBe(true);
    expect(isTemporaryFile("0.0.partial")).toBe(false);
    expect((await findTemporaryFiles(dir, { recursive: true })).map((t) => t.path)).toEqual(
      [files.metadata, files.ours, files.zarrPython].sort(),
    );
    expect(await findTemporaryFiles(dir)).toEqual([]);
    expect(await findTemporaryFiles(join(dir, "missing"), { recursive: true })).toEqual([]);
    expect(await removeTemporaryFile(files.ours)).toBe(true);
    expect(await removeTemporaryFile(files.ours)).toBe(false);
    await expect(removeTemporaryFile(files.lookalike)).rejects.toMatchObject({
      code: "ZARR_STORE",
      message: expect.stringContaining("not named as a temporary file"),
    });
    await expect(removeTemporaryFile(files.chunk)).rejects.toMatchObject({ code: "ZARR_STORE" });
    expect(await read(files.chunk)).toBe("x");
  });
});
