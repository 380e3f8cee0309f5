/**
 * Memory over repeated operations in one process (issue 16): a server or a notebook reads and
 * writes the same array again and again, and drops each result. Whatever z keeps after that is a
 * leak. Each mode runs in a fresh process (test/workers/memory-soak.mjs, on the built packages,
 * with the default pool's threads started), 20 times; RSS after each operation must stay within one
 * result (64 MiB) and 100 MiB of RSS after the first. Before the outputs of pooled reads stopped
 * being `SharedArrayBuffer`s, each 256 MiB read kept its result for good (+256 MiB a read).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const MiB = 2 ** 20;
const ROUNDS = 20;
const script = new URL("./workers/memory-soak.mjs", import.meta.url).pathname;
const cwd = new URL("..", import.meta.url).pathname;

interface Soak {
  rss: number[];
  batches: number;
  resultBytes: number;
}

async function soak(mode: string): Promise<Soak> {
  const dir = await mkdtemp(join(tmpdir(), "z-memory-"));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", script, mode, dir, String(ROUNDS)], {
      cwd,
      timeout: 150_000,
      maxBuffer: 1 << 20,
    });
    return JSON.parse(stdout) as Soak;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function expectFlat({ rss, resultBytes }: Soak): void {
  expect(rss).toHaveLength(ROUNDS);
  const bound = rss[0]! + resultBytes + 100 * MiB;
  const over = rss.map((r, i) => ({ round: i + 1, mib: Math.round(r / MiB) })).filter((_, i) => rss[i]! > bound);
  expect(over, `RSS above ${Math.round(bound / MiB)} MiB (first: ${Math.round(rss[0]! / MiB)} MiB)`).toEqual([]);
}

describe("memory stays flat over 20 operations on a 64 MiB array in one process", { timeout: 180_000 }, () => {
  it("full reads of a directory store, decoded by the pool's threads too", async () => {
    const result = await soak("read");
    expect(result.batches).toBeGreaterThan(0);
    expectFlat(result);
  });

  it("full writes, encoded by the pool's threads too", async () => {
    const result = await soak("write");
    expect(result.batches).toBeGreaterThan(0);
    expectFlat(result);
  });

  it("full reads over HTTP, the bytes handed to the pool's threads", async () => {
    const result = await soak("http");
    expect(result.batches).toBeGreaterThan(0);
    expectFlat(result);
  });

  it("200 small windows a round", async () => {
    expectFlat(await soak("windows"));
  });
});
