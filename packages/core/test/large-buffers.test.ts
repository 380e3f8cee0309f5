/*
 * Large buffers (a read's result, a thread's scratch) get the platform's advice before they are
 * first written: in Node on Linux, with Z_HUGE_PAGES=1, `@z/core`'s Node entry asks for huge pages
 * (@z/huge-pages), as numpy does for its arrays; by default it does not (measured: slower first reads).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { create, MemoryStore, slice, type ChunkPool } from "@z/core";
import { adviseHugePages, hugePagesAdvised, hugePagesUnavailable } from "@z/huge-pages";
import { setLargeBufferAdvice } from "@z/codecs";
import { loadBeforeLargeBuffers } from "../src/large-buffers-loading.js";
import { buildDist } from "./built-dist.js";

const MiB = 1 << 20;

async function array(shape: number[], chunks: number[]) {
  const z = await create({ store: new MemoryStore(), shape, chunks, dtype: "<f4", compressor: null });
  await z.set(null, 2.5, { pool: false });
  return z;
}

describe("large buffers", () => {
  afterEach(() => setLargeBufferAdvice(undefined));

  it("are advised before a read writes them, on this thread and through a pool", async () => {
    const advised: ArrayBufferView[] = [];
    const z = await array([1024, 2048], [512, 512]);
    setLargeBufferAdvice((view) => {
      // Not yet written: still all zeros.
      expect(
        Buffer.compare(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), new Uint8Array(view.byteLength)),
      ).toBe(0);
      advised.push(view);
    });
    const alone = await z.get(undefined, { pool: false });
    expect(advised.includes(alone.data)).toBe(true);
    // A pool whose threads never get ready: this thread does its batches, into the result.
    const pool: ChunkPool = {
      size: 1,
      minBytes: 0,
      ready: 0,
      run: () => Promise.reject(new Error("no threads")),
      close: async () => {},
    };
    const pooled = await z.get(undefined, { pool });
    expect(advised.includes(pooled.data)).toBe(true);
    expect(Buffer.compare(new Uint8Array(pooled.data.buffer), new Uint8Array(alone.data.buffer))).toBe(0);
  });

  it("are only those of 4 MiB or more", async () => {
    const advised: ArrayBufferView[] = [];
    const z = await array([1024, 2048], [512, 512]);
    setLargeBufferAdvice((view) => advised.push(view));
    await z.get([slice(0, 511), slice(null)], { pool: false }); // just under 4 MiB
    expect(advised.filter((v) => v.byteLength < 4 * MiB)).toEqual([]);
    await z.get([slice(0, 512), slice(null)], { pool: false });
    expect(advised.some((v) => v.byteLength === 4 * MiB)).toBe(true);
  });

  it("reads and writes wait for what the platform entry is still loading for them (@z/huge-pages in Node)", async () => {
    const z = await array([1024, 2048], [512, 512]);
    const advised: ArrayBufferView[] = [];
    let finish!: () => void;
    const loaded = new Promise<void>((resolve) => (finish = resolve));
    loadBeforeLargeBuffers(loaded.then(() => setLargeBufferAdvice((view) => advised.push(view))));
    let wrote = false;
    const writing = z.set(null, 1, { pool: false }).then(() => (wrote = true));
    const reading = z.get(undefined, { pool: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(wrote).toBe(false);
    finish();
    await writing;
    expect(advised.includes((await reading).data)).toBe(true);
  });

  // What z controls: @z/huge-pages loaded (built on Linux by scripts/ensure-tools.sh) and the result's whole 2 MiB pages
  // advised before the read writes them. Not how many huge pages Linux then grants: that depends
  // on the machine's free memory at the time, so apps/bench reports it per round.
  it.runIf(process.platform === "linux")(
    "in Node on Linux, with @z/huge-pages' advice (what Z_HUGE_PAGES=1 installs), a large read's result is advised",
    async () => {
      expect(hugePagesUnavailable(), "run 'bash scripts/ensure-tools.sh' (needs a C compiler)").toBeUndefined();
      const z = await array([4096, 4096], [1024, 1024]);
      setLargeBufferAdvice(adviseHugePages);
      const result = await z.get(undefined, { pool: false });
      // All but the parts of a 2 MiB page at either end of the 64 MiB (not 2 MiB-aligned).
      expect(hugePagesAdvised(result.data)).toBeGreaterThan(result.data.byteLength - 4 * MiB);
      expect(hugePagesAdvised(result.data) % (2 * MiB)).toBe(0);
      expect(result.data.every((v) => v === 2.5)).toBe(true);
      // A buffer of the same size that z did not allocate holds no advice.
      expect(hugePagesAdvised(new Float32Array(result.data.length))).toBe(0);
    },
    60_000,
  );
});

// Whether the Node entry advises at all is decided when it loads, from Z_HUGE_PAGES: each case in a
// process of its own, loading the built @z/core as an installed package is loaded.
describe.runIf(process.platform === "linux")(
  "huge pages in Node: off unless Z_HUGE_PAGES=1",
  { timeout: 120_000 },
  () => {
    const script = `
    import { create, MemoryStore } from "@z/core";
    import { hugePagesAdvised } from "@z/huge-pages";
    const z = await create({ store: new MemoryStore(), shape: [2048, 2048], chunks: [1024, 2048], dtype: "<f4", compressor: null });
    await z.set(null, 1.5, { pool: false });
    const { data } = await z.get(undefined, { pool: false });
    console.log(JSON.stringify({ advised: hugePagesAdvised(data), sum: data.reduce((a, b) => a + b, 0) }));`;
    const run = (env: Record<string, string | undefined>) => {
      const { Z_HUGE_PAGES: _, ...rest } = process.env;
      const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        env: { ...rest, ...env },
        encoding: "utf8",
      });
      return JSON.parse(out) as { advised: number; sum: number };
    };
    beforeAll(() => buildDist());

    it("by default a large read's result gets no advice", () => {
      expect(run({})).toEqual({ advised: 0, sum: 2048 * 2048 * 1.5 });
      expect(run({ Z_HUGE_PAGES: "0" })).toEqual({ advised: 0, sum: 2048 * 2048 * 1.5 });
    });

    it("with Z_HUGE_PAGES=1 its whole 2 MiB pages are advised", () => {
      expect(hugePagesUnavailable(), "run 'bash scripts/ensure-tools.sh' (needs a C compiler)").toBeUndefined();
      const { advised, sum } = run({ Z_HUGE_PAGES: "1" });
      expect(sum).toBe(2048 * 2048 * 1.5);
      expect(advised).toBeGreaterThan(16 * MiB - 4 * MiB);
      expect(advised % (2 * MiB)).toBe(0);
    });
  },
);
