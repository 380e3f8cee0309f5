/*
 * Partial chunk reads of arrays zarr-python 2.13 wrote (python/partial_read_arrays.py): blosc with
 * lz4, zstd, blosclz and zlib, shuffle 0/1/2, chunks of several blocks (split into streams where
 * c-blosc splits them), chunks stored uncompressed ("memcpyed"), big-endian F order. Windows read
 * through a DirectoryStore (getRange) must equal zarr-python's values. Skipped without that Python.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openArray, slice, type NdArray } from "@z/core";
import { byteSwapInPlace } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { requireTool } from "../../../scripts/test-child/tools.js";

const PYTHON = "/usr/bin/python3";
const available = spawnSync(PYTHON, ["-c", "import zarr"], { encoding: "utf8" }).status === 0;
const dir = mkdtempSync(join(tmpdir(), "z-partial-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeArrays(): string[] {
  const run = spawnSync(PYTHON, [new URL("./python/partial_read_arrays.py", import.meta.url).pathname, dir], {
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`partial_read_arrays.py failed: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { arrays: string[] }).arrays;
}

const WINDOWS: [number, number, number, number][] = [
  [0, 0, 10, 10],
  [37, 50, 100, 100],
  [250, 250, 12, 9],
  [100, 500, 150, 20],
  [299, 0, 1, 520],
  [0, 255, 300, 2],
];

describe("partial reads of arrays zarr-python wrote", () => {
  requireTool("zarr-python", available);
  it("equal zarr-python's values for every compressor, shuffle, block layout and byte order", async () => {
    const names = writeArrays();
    const kinds = new Set<string>();
    for (const name of names) {
      const store = new DirectoryStore(join(dir, name));
      const flags = (await store.getRange("0.0", { offset: 2, length: 1 }))![0]!;
      kinds.add(flags & 2 ? "memcpyed" : flags & 0x10 ? "unsplit" : "split");
      let ranges = 0;
      const getRange = store.getRange.bind(store);
      store.getRange = (key, range, options) => {
        ranges++;
        return getRange(key, range, options);
      };
      const z = await openArray(store);
      const expected = readFileSync(join(dir, `${name}.bin`));
      const itemsize = z.dtype.itemsize;
      const [, width] = z.shape as [number, number];
      for (const [r, c, h, w] of WINDOWS) {
        const got: NdArray = await z.get([slice(r, r + h), slice(c, c + w)]);
        const bytes = new Uint8Array(h * w * itemsize);
        for (let i = 0; i < h; i++)
          bytes.set(
            expected.subarray(((r + i) * width + c) * itemsize, ((r + i) * width + c + w) * itemsize),
            i * w * itemsize,
          );
        byteSwapInPlace(bytes, z.dtype); // the .bin files hold the dtype's byte order; results are little-endian
        const data = got.data as unknown as ArrayBufferView;
        expect(
          Buffer.compare(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), bytes),
          `${name} window ${[r, c, h, w]}`,
        ).toBe(0);
      }
      expect(ranges, `${name} was read in parts`).toBeGreaterThan(0);
    }
    expect([...kinds].sort()).toEqual(["memcpyed", "split", "unsplit"]);
  }, 120_000);
});
