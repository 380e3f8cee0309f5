// The H1 data for the micro-benchmarks: R1's array (8192x8192 float32 in 1024x1024 chunks, Blosc
// LZ4 clevel 5 with byte shuffle: 64 chunk files of ~3.2 MB), either the bench's own (`--data DIR`
// holding `r1.zarr`, as `pnpm bench` leaves it) or written here by z once, from the same kind of
// field as apps/bench/python/generate.py (a few waves plus small noise, seeded).
import { existsSync, accessSync, constants } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultRegistry } from "@z/codecs";
import { blosc } from "@z/codecs-wasm";
import { create } from "@z/core";
import { DirectoryStore } from "@z/store-fs";

export const N = 8192;
export const CHUNK = 1024;

/** A directory holding `r1.zarr`: `dir` if given, else one written here (kept for the next run). */
export async function h1Data(dir) {
  if (dir !== undefined) {
    if (!existsSync(join(dir, "r1.zarr", ".zarray"))) throw new Error(`${dir} holds no r1.zarr`);
    return dir;
  }
  const root = join(writableRoot(), "z-micro-h1");
  if (existsSync(join(root, "r1.zarr", `${N / CHUNK - 1}.${N / CHUNK - 1}`))) return root;
  if (!defaultRegistry.has("blosc")) defaultRegistry.register("blosc", () => blosc);
  const array = await create({
    store: new DirectoryStore(join(root, "r1.zarr")),
    shape: [N, N],
    chunks: [CHUNK, CHUNK],
    dtype: "<f4",
    compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
    fillValue: 0,
    overwrite: true,
    pool: false,
  });
  await array.set(null, { data: smoothField(N, 12345), shape: [N, N] }, { pool: false });
  return root;
}

function writableRoot() {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

/** generate.py's field: sin(y)cos(x) + 0.5 sin(0.37x + 0.21y), plus N(0, 0.01) noise, as float32. */
export function smoothField(n, seed) {
  const out = new Float32Array(n * n);
  let state = seed >>> 0;
  const uniform = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = 0; i < n; i++) {
    const y = (8 * Math.PI * i) / (n - 1);
    for (let j = 0; j < n; j++) {
      const x = (6 * Math.PI * j) / (n - 1);
      const noise = Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform()) * 0.01;
      out[i * n + j] = Math.fround(Math.sin(y) * Math.cos(x) + 0.5 * Math.sin(0.37 * x + 0.21 * y)) + noise;
    }
  }
  return out;
}
