/*
 * zlib and gzip with the WebAssembly DEFLATE encoder: the same configs as @z/codecs' codecs, output
 * that @z/codecs decodes and that Python's zlib, gzip and numcodecs 0.11 decode (live, through
 * /usr/bin/python3; skipped where it is missing), with compression ratios close to zlib's.
 */
import { spawnSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { gzip as gzipTs, zlib as zlibTs } from "@z/codecs";
import { contextFor, pseudoRandomBytes } from "@z/codecs/testing";
import { gzip, zlib } from "../src/deflate.js";
import { setEncodeKernelsEnabled } from "../src/encode-kernels.js";
import { sampleInputs, sha256, smoothFloat32 } from "./samples.js";

afterEach(() => setEncodeKernelsEnabled(true));

const PYTHON = "/usr/bin/python3";
const available = spawnSync(PYTHON, ["-c", "import numcodecs"], { encoding: "utf8" }).status === 0;

const LEVELS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Inputs that stress the matchers: empty, tiny, long runs, matches at every distance, incompressible. */
function inputs(): { name: string; data: Uint8Array }[] {
  const text = new TextEncoder().encode("zlib and gzip, encoded in WebAssembly by @z/codecs-wasm. ".repeat(2000));
  const runs = Uint8Array.from({ length: 100_000 }, (_, i) => ((i / 1000) | 0) % 3);
  const far = new Uint8Array(200_000);
  const block = pseudoRandomBytes(40_000, 77);
  for (let i = 0; i < far.length; i++) far[i] = block[i % 32_767]!;
  return [
    { name: "empty", data: new Uint8Array(0) },
    { name: "1 byte", data: new Uint8Array([42]) },
    { name: "3 bytes", data: new Uint8Array([1, 2, 3]) },
    { name: "zeros 300000", data: new Uint8Array(300_000) },
    { name: "text", data: text },
    { name: "runs", data: runs },
    { name: "repeats at distance 32767", data: far },
    { name: "random 100000", data: pseudoRandomBytes(100_000, 3) },
    { name: "float32 smooth field", data: new Uint8Array(smoothFloat32(60_000, 9).buffer) },
    ...sampleInputs().map(({ name, data }) => ({ name: `sample ${name}`, data })),
  ];
}

/** Random inputs of random sizes, mixing runs, copies and noise. */
function fuzzInputs(count: number): Uint8Array[] {
  const rng = pseudoRandomBytes(count * 16, 1234);
  const out: Uint8Array[] = [];
  for (let k = 0; k < count; k++) {
    const size = ((rng[16 * k]! << 8) | rng[16 * k + 1]!) * (1 + (rng[16 * k + 2]! % 4));
    const noise = pseudoRandomBytes(size, k + 1);
    const data = new Uint8Array(size);
    for (let i = 0; i < size; ) {
      const kind = noise[i]! % 3;
      const len = 1 + (noise[(i + 1) % size]! % 300);
      for (let j = 0; j < len && i < size; j++, i++) {
        data[i] = kind === 0 ? noise[i]! : kind === 1 ? data[Math.max(0, i - 1 - (noise[i]! % 200))]! : 7;
      }
    }
    out.push(data);
  }
  return out;
}

describe("zlib and gzip with the WebAssembly encoder", () => {
  it("keep @z/codecs' ids and configs", () => {
    expect(zlib.id).toBe("zlib");
    expect(gzip.id).toBe("gzip");
    expect(zlib.create({ level: 5 }).toJSON()).toEqual(zlibTs.create({ level: 5 }).toJSON());
    expect(gzip.create().toJSON()).toEqual({ id: "gzip", level: 1 });
    expect(() => zlib.create({ level: 10 })).toThrow(/level/);
  });

  it("write zlib's header bytes and CPython's gzip header", async () => {
    const data = new Uint8Array(5000).fill(3);
    const header = async (level: number) => Array.from(((await zlib.create({ level }).encode(data, contextFor(data))) as Uint8Array).subarray(0, 2));
    expect(await header(1)).toEqual([0x78, 0x01]);
    expect(await header(6)).toEqual([0x78, 0x9c]);
    expect(await header(-1)).toEqual([0x78, 0x9c]);
    expect(await header(9)).toEqual([0x78, 0xda]);
    const gz = (await gzip.create({ level: 1 }).encode(data, contextFor(data))) as Uint8Array;
    expect(Array.from(gz.subarray(0, 10))).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255]);
  });

  for (const { name, data } of inputs()) {
    it(`round-trip at every level (${name})`, async () => {
      for (const level of LEVELS) {
        for (const codec of [zlib.create({ level }), gzip.create({ level })]) {
          const encoded = (await codec.encode(data, contextFor(data))) as Uint8Array;
          const back = (await codec.decode(encoded, contextFor(data))) as Uint8Array;
          expect(sha256(back), `${codec.toJSON().id} level ${level}`).toBe(sha256(data));
          // Never much larger than stored blocks.
          expect(encoded.length).toBeLessThanOrEqual(data.length + 5 * Math.ceil(data.length / 16383 + 1) + 18);
        }
      }
    });
  }

  it("compress about as well as fflate (the TypeScript encoder) at every level", async () => {
    const data = new Uint8Array(smoothFloat32(1 << 18, 5).buffer);
    for (const level of LEVELS) {
      const ours = (await zlib.create({ level }).encode(data, contextFor(data, 4))) as Uint8Array;
      const theirs = (await zlibTs.create({ level }).encode(data, contextFor(data, 4))) as Uint8Array;
      expect(ours.length / theirs.length, `level ${level}`).toBeLessThan(1.03);
    }
  });

  it("fall back to the TypeScript encoder without WebAssembly", async () => {
    setEncodeKernelsEnabled(false);
    const data = new Uint8Array(smoothFloat32(5000, 2).buffer);
    const encoded = (await zlib.create({ level: 3 }).encode(data, contextFor(data))) as Uint8Array;
    expect(encoded).toEqual(await zlibTs.create({ level: 3 }).encode(data, contextFor(data)));
    const gz = (await gzip.create({ level: 3 }).encode(data, contextFor(data))) as Uint8Array;
    expect(gz).toEqual(await gzipTs.create({ level: 3 }).encode(data, contextFor(data)));
  });
});

describe.skipIf(!available)("zlib and gzip encodings, decoded by Python (live)", () => {
  it("zlib.decompress, gzip.decompress and numcodecs decode every level of fuzzed inputs to the input", async () => {
    const cases: { id: string; level: number; encoded: string; sha256: string; size: number }[] = [];
    const all = [...inputs().map((i) => i.data), ...fuzzInputs(40)];
    for (const [k, data] of all.entries()) {
      for (const level of k < inputs().length ? LEVELS : [LEVELS[k % LEVELS.length]!]) {
        for (const codec of [zlib.create({ level }), gzip.create({ level })]) {
          const encoded = (await codec.encode(data, contextFor(data))) as Uint8Array;
          cases.push({ id: codec.toJSON().id, level, encoded: Buffer.from(encoded).toString("base64"), sha256: sha256(data), size: data.length });
        }
      }
    }
    const script = `
import base64, gzip, hashlib, json, sys, zlib
import numcodecs
out = []
for c in json.load(sys.stdin):
    raw = base64.b64decode(c["encoded"])
    py = zlib.decompress(raw) if c["id"] == "zlib" else gzip.decompress(raw)
    nc = numcodecs.get_codec({"id": c["id"], "level": c["level"]}).decode(raw)
    out.append([hashlib.sha256(py).hexdigest(), hashlib.sha256(bytes(nc)).hexdigest()])
print(json.dumps(out))
`;
    const run = spawnSync(PYTHON, ["-c", script], { input: JSON.stringify(cases), encoding: "utf8", maxBuffer: 1 << 28 });
    expect(run.stderr).toBe("");
    const results = JSON.parse(run.stdout) as [string, string][];
    expect(results.length).toBe(cases.length);
    for (const [i, [py, nc]] of results.entries()) {
      const c = cases[i]!;
      expect(py, `${c.id} level ${c.level}, ${c.size} bytes`).toBe(c.sha256);
      expect(nc, `${c.id} level ${c.level}, ${c.size} bytes (numcodecs)`).toBe(c.sha256);
    }
  }, 120_000);

  it("compress within 2% of zlib at every level (a smooth float32 field with noise)", () => {
    const data = new Uint8Array(smoothFloat32(1 << 18, 5).buffer);
    const script = `
import sys, zlib, json
d = sys.stdin.buffer.read()
print(json.dumps([len(zlib.compress(d, l)) for l in ${JSON.stringify(LEVELS)}]))
`;
    const run = spawnSync(PYTHON, ["-c", script], { input: data, encoding: "utf8" });
    const sizes = JSON.parse(run.stdout) as number[];
    return (async () => {
      for (const [i, level] of LEVELS.entries()) {
        const ours = (await zlib.create({ level }).encode(data, contextFor(data, 4))) as Uint8Array;
        expect(Math.abs(ours.length / sizes[i]! - 1), `level ${level}: ours ${ours.length}, zlib ${sizes[i]}`).toBeLessThan(0.02);
      }
    })();
  }, 60_000);
});
