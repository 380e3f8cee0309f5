/**
 * Issue #28's request count, over real HTTP: 2000 random 100 x 100 windows of a sharded 8192²
 * array (shards of 4096², inner chunks of 512²) make one ranged read of each shard's index, then
 * one request per shard a window touches (its inner chunks there lie within the 1 MiB gap of one
 * another, so they are merged): never more than index reads + inner chunks touched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, openArray, slice, type ZarrArray } from "@z/core";
import { HttpStore } from "@z/store-http";
import { openSession, type Session } from "../../../scripts/test-server/client.js";

const SIZE = 8192;
const SHARD = 4096;
const INNER = 512;

let session: Session;
let array: ZarrArray;

beforeAll(async () => {
  session = await openSession({ writable: true });
  const writer = await create({
    store: new HttpStore(session.url, { writable: true }),
    zarrFormat: 3,
    shape: [SIZE, SIZE],
    chunks: [INNER, INNER],
    shards: [SHARD, SHARD],
    dtype: "uint8",
  });
  // Row r holds (r + c) mod 256: every inner chunk differs from its neighbours.
  const data = new Uint8Array(SIZE * SIZE);
  for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) data[r * SIZE + c] = (r + c) & 0xff;
  await writer.set(undefined, { data, shape: [SIZE, SIZE] });
  array = await openArray(new HttpStore(session.url), { mode: "r" });
}, 120_000);

afterAll(() => session?.end());

/** 2000 windows of 100 x 100 at places a seeded generator picks. */
const windows = (() => {
  let seed = 2028;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  return Array.from({ length: 2000 }, () => [next(SIZE - 100), next(SIZE - 100)] as const);
})();

/** The shards a window starting at `start` (of 100) touches in one dimension, with the inner chunks in each. */
function perShard(start: number): { shard: number; inner: number }[] {
  const out: { shard: number; inner: number }[] = [];
  for (let s = Math.floor(start / SHARD); s <= Math.floor((start + 99) / SHARD); s++) {
    const from = Math.max(start, s * SHARD);
    const to = Math.min(start + 99, s * SHARD + SHARD - 1);
    out.push({ shard: s, inner: Math.floor(to / INNER) - Math.floor(from / INNER) + 1 });
  }
  return out;
}

describe("2000 windows of a sharded 8192² array over HTTP", () => {
  it("read the right values with one index read per shard, then one request per shard a window touches", async () => {
    const before = (await session.log()).requests.length;
    const shardsSeen = new Set<string>();
    let pairs = 0;
    let touched = 0;
    for (const [r, c] of windows) {
      const got = (await array.get([slice(r, r + 100), slice(c, c + 100)])).data as Uint8Array;
      expect([got[0], got[101], got[9999]]).toEqual([(r + c) & 0xff, (r + c + 2) & 0xff, (r + c + 198) & 0xff]);
      for (const rows of perShard(r))
        for (const cols of perShard(c)) {
          shardsSeen.add(`${rows.shard}/${cols.shard}`);
          pairs++;
          touched += rows.inner * cols.inner;
        }
    }
    const requests = (await session.log()).requests.slice(before).filter((q) => q.path.startsWith("/c/"));
    const indexReads = requests.filter((q) => q.headers.range?.startsWith("bytes=-"));
    expect(requests.every((q) => q.method === "GET" && q.headers.range !== undefined)).toBe(true);
    expect(indexReads.length).toBe(shardsSeen.size);
    expect(requests.length).toBe(shardsSeen.size + pairs);
    expect(requests.length).toBeLessThanOrEqual(shardsSeen.size + touched);
    expect([shardsSeen.size, pairs, touched]).toEqual([4, 2052, 2786]);
  }, 120_000);
});
