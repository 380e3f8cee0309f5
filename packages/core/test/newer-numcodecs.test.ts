/**
 * Arrays with codec configs only newer numcodecs write (test/fixtures/numcodecs-0.16, made by
 * test/python/numcodecs_016_arrays.py with numcodecs 0.16): they open, read the values numcodecs
 * encoded, and keep their configs when written to.
 */
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openArray, slice } from "@z/core";
import { DirectoryStore } from "@z/store-fs";

const fixtures = new URL("./fixtures/numcodecs-0.16/", import.meta.url).pathname;
const expected = Int16Array.from({ length: 30 * 20 }, (_, k) => k * 3 - 500);
const scratch: string[] = [];
afterAll(() => Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("arrays newer numcodecs wrote", () => {
  it("reads a blosc compressor with typesize (numcodecs 0.16.0 wrote it into .zarray)", async () => {
    const a = await openArray(new DirectoryStore(join(fixtures, "blosc-typesize.zarr")), { mode: "r", pool: false });
    expect(a.compressor).toMatchObject({ id: "blosc", typesize: 4 });
    const { data, shape } = await a.get();
    expect(shape).toEqual([30, 20]);
    expect(data).toEqual(expected);
  });

  it("reads a crc32c filter (numcodecs >= 0.14)", async () => {
    const a = await openArray(new DirectoryStore(join(fixtures, "crc32c.zarr")), { mode: "r", pool: false });
    expect(a.filters).toEqual([{ id: "crc32c" }]);
    const { data } = await a.get([slice(3, 30), slice(null)]);
    expect(data).toEqual(Float64Array.from(expected.subarray(60), (v) => v / 4));
  });

  it("writes back the configs as they were, typesize included", async () => {
    const dir = await mkdtemp(join(tmpdir(), "z-numcodecs-016-"));
    scratch.push(dir);
    await cp(join(fixtures, "blosc-typesize.zarr"), dir, { recursive: true });
    const a = await openArray(new DirectoryStore(dir), { mode: "r+", pool: false });
    await a.set([slice(0, 16), slice(0, 8)], 7);
    const meta = JSON.parse(await readFile(join(dir, ".zarray"), "utf8")) as { compressor: unknown };
    expect(meta.compressor).toEqual({ id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0, typesize: 4 });
    const chunk = await readFile(join(dir, "0.0"));
    expect(chunk[3]).toBe(4); // the frame's type size: the config's, not the item size
    expect((await a.get([0, 0])).data).toEqual(new Int16Array([7]));
  });
});
