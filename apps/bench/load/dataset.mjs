// What the load test reads: values of random sizes (like compressed chunks), made from a seed so
// every run reads the same bytes, and kept in memory so every byte read can be compared.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A small fast PRNG (mulberry32): the same seed gives the same numbers, in [0, 1). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` values under `chunks/<i>` of `minSize` to `maxSize` bytes, from `seed`:
 * a `Map` of key to bytes.
 */
export function makeValues({ seed = 1, count = 200, minSize = 512, maxSize = 128 * 1024 } = {}) {
  const next = random(seed);
  const values = new Map();
  for (let i = 0; i < count; i++) {
    const size = minSize + Math.floor(next() * (maxSize - minSize + 1));
    const bytes = new Uint8Array(size);
    for (let j = 0; j < size; j += 4) {
      const word = (next() * 4294967296) >>> 0;
      bytes[j] = word;
      bytes[j + 1] = word >>> 8;
      bytes[j + 2] = word >>> 16;
      bytes[j + 3] = word >>> 24;
    }
    values.set(`chunks/${i}`, bytes);
  }
  return values;
}

/** Writes each value as a file under `dir` (the key's path), as a DirectoryStore lays them out. */
export async function writeDirectory(dir, values) {
  for (const [key, bytes] of values) {
    const path = join(dir, key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
  }
}

/** Writes each value to `store` (any store with `set`, e.g. an S3Store), a few at a time. */
export async function writeStore(store, values) {
  const entries = [...values];
  const next = async () => {
    for (let entry = entries.pop(); entry !== undefined; entry = entries.pop()) await store.set(entry[0], entry[1]);
  };
  await Promise.all(Array.from({ length: 8 }, next));
}
