/**
 * Floats and complexes keep every bit on every path, as numpy does: signalling NaNs, NaN payloads
 * and signs, negative zeros. The arrays were written by zarr-python 2.13 (test/fixtures/nan-payloads,
 * made by test/python/nan_payload_fixtures.py): we read what zarr-python reads, and the same writes
 * store exactly the chunk bytes zarr-python stored. Each in C and F order, both byte orders, on
 * this thread and on a pool's threads.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, openArray, slice, type ZarrArray } from "@z/core";
import { WorkerPool } from "@z/core/node";
import { DirectoryStore } from "@z/store-fs";

const fixtures = new URL("./fixtures/nan-payloads/", import.meta.url).pathname;
const { cases } = JSON.parse(readFileSync(join(fixtures, "cases.json"), "utf8")) as { cases: string[] };

interface Case {
  name: string;
  dtype: string;
  order: "C" | "F";
  shape: number[];
  chunks: number[];
  /** Hex of little-endian bytes, C order (as z holds values in memory). */
  source: string;
  reads: Record<string, string>;
  writes: { kind: string; selection: string; value: string; shape: number[] }[];
  source_chunks: string[];
  written_chunks: string[];
}

const hex = (data: ArrayBufferView): string =>
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("hex");
const bytes = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, "hex"));
/** The typed array z holds `dtype`'s values in, over these little-endian bytes (no JS number in between). */
const typed = (dtype: string, text: string): Float32Array | Float64Array => {
  const b = bytes(text);
  return /f4$|c8$/.test(dtype) ? new Float32Array(b.buffer) : new Float64Array(b.buffer);
};

/** The reads, by the names the fixture script gives them. */
const READS: Record<string, (z: ZarrArray, pool: WorkerPool | false) => Promise<{ data: unknown }>> = {
  all: (z, pool) => z.get(undefined, { pool }),
  "reversed rows of column 1": (z, pool) => z.get([slice(null, null, -1), 1], { pool }),
  "every other row backwards, every third column backwards": (z, pool) =>
    z.get([slice(4, 0, -2), slice(null, null, -3)], { pool }),
  "element [1, 2]": (z, pool) => z.get([1, 2], { pool }),
  "row 3": (z, pool) => z.get([3], { pool }),
  "column 6": (z, pool) => z.get([null, 6], { pool }),
  "oindex [[4, 0, 3], [6, 1, 1]]": (z, pool) =>
    z.oindex.get(
      [
        [4, 0, 3],
        [6, 1, 1],
      ],
      { pool },
    ),
  "vindex [[0, 4, 2, 1], [6, 0, 3, 0]]": (z, pool) =>
    z.vindex.get(
      [
        [0, 4, 2, 1],
        [6, 0, 3, 0],
      ],
      { pool },
    ),
};

/** The writes, by kind and selection as the fixture script lists them. */
async function write(
  z: ZarrArray,
  dtype: string,
  step: Case["writes"][number],
  pool: WorkerPool | false,
): Promise<void> {
  const value = { data: typed(dtype, step.value), shape: step.shape };
  const options = { pool };
  switch (`${step.kind} ${step.selection}`) {
    case "basic [1:4, 2:6]":
      return z.set([slice(1, 4), slice(2, 6)], value, options);
    case "basic [4:0:-1, 0:7:3]":
      return z.set([slice(4, 0, -1), slice(0, 7, 3)], value, options);
    case "oindex [[0, 3, 4], [6, 1, 2]]":
      return z.oindex.set(
        [
          [0, 3, 4],
          [6, 1, 2],
        ],
        value,
        options,
      );
    case "vindex [[0, 2, 4, 1], [5, 0, 3, 6]]":
      return z.vindex.set(
        [
          [0, 2, 4, 1],
          [5, 0, 3, 6],
        ],
        value,
        options,
      );
    case "scalar [2, 3:7]": {
      // JS numbers, read from the doubles' bits: one for a float, [re, im] for a complex.
      const doubles = new Float64Array(bytes(step.value).buffer);
      return z.set([2, slice(3, 7)], doubles.length === 1 ? doubles[0] : [doubles[0], doubles[1]], options);
    }
    case "zero-d [0, 0:3]":
      return z.set([0, slice(0, 3)], value, options);
    case "basic [:, 6]":
      return z.set([null, 6], value, options);
  }
  throw new Error(`no write for ${step.kind} ${step.selection}`);
}

// Two threads and no minimum: reads and writes of two or more chunks go to the pool's threads.
const pool = new WorkerPool({ size: 2, minBytes: 0 });
let batches = 0;
const run = pool.run.bind(pool);
pool.run = (batch, transfer) => (batches++, run(batch, transfer));
beforeAll(() => pool.warm());
afterAll(() => pool.close());

/** Runs `body` and checks that the pool's threads took part when `threads` is the pool. */
async function onThreads(threads: WorkerPool | false, body: () => Promise<void>): Promise<void> {
  const before = batches;
  await body();
  if (threads !== false) expect(batches).toBeGreaterThan(before);
}

describe("NaN payloads, signalling NaNs and negative zeros against zarr-python's arrays", () => {
  it("has every dtype in both orders", () => {
    expect(cases).toHaveLength(16);
  });

  for (const name of cases) {
    const c = JSON.parse(readFileSync(join(fixtures, `${name}.json`), "utf8")) as Case;

    for (const threads of [false, pool] as const) {
      const how = threads === false ? "on this thread" : "on the pool's threads";

      it(`${name}: reads every selection bit for bit, ${how}`, async () => {
        const z = await openArray(new DirectoryStore(join(fixtures, name, "source")), { mode: "r" });
        const got: Record<string, string> = {};
        await onThreads(threads, async () => {
          for (const [label, read] of Object.entries(READS))
            got[label] = hex((await read(z, threads)).data as Float32Array | Float64Array);
        });
        expect(got).toEqual(c.reads);
      });

      it(`${name}: stores the chunks zarr-python stores, ${how}`, async () => {
        const out = await mkdtemp(join(tmpdir(), "z-nan-payloads-"));
        try {
          const make = (path: string) =>
            create({
              store: new DirectoryStore(join(out, path)),
              shape: c.shape,
              chunks: c.chunks,
              dtype: c.dtype,
              order: c.order,
              compressor: null,
              fillValue: c.dtype.includes("c") ? [NaN, 0] : NaN,
            });
          const whole = await make("source");
          const written = await make("writes");
          await onThreads(threads, async () => {
            await whole.set(undefined, { data: typed(c.dtype, c.source), shape: c.shape }, { pool: threads });
            for (const step of c.writes) await write(written, c.dtype, step, threads);
          });
          for (const [path, keys] of [
            ["source", c.source_chunks],
            ["writes", c.written_chunks],
          ] as const) {
            expect((await readdir(join(out, path))).filter((k) => !k.startsWith(".")).sort()).toEqual(keys);
            for (const key of keys) {
              expect(hex(readFileSync(join(out, path, key))), `${path}/${key}`).toBe(
                hex(readFileSync(join(fixtures, name, path, key))),
              );
            }
          }
        } finally {
          await rm(out, { recursive: true, force: true });
        }
      });
    }
  }
});
