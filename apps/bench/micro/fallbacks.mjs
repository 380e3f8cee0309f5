// `node apps/bench/micro/fallbacks.mjs [--data DIR] [--rounds 5]`: @z/codecs-wasm's decoders in
// WebAssembly against the TypeScript ones they fall back to (WebAssembly or its SIMD missing, or
// refused by a Content-Security-Policy without 'wasm-unsafe-eval'; and, with WebAssembly, the
// cases each codec leaves to TypeScript), and the TypeScript Zstandard decoder against fzstd, the
// pure-JavaScript decoder a library would give (it skips content checksums, which ours verifies).
//
// One 1024x1024 float32 chunk of H1's data (chunk 3.4 of R1, see h1-data.mjs) in each bench
// compressor, decoded with `decodeInto` one buffer in each round by each decoder in turn, the
// order rotated every round: median CPU milliseconds per chunk. (Plain LZ4 of this data is
// nearly all literals, which lz4.ts leaves to TypeScript either way.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decompress as fzstdDecompress } from "fzstd";
import { blosc, lz4, zlib, zstd } from "@z/codecs-wasm";
import { preloadWasmKernels, setWasmKernelsEnabled } from "@z/codecs-wasm/fallbacks";
import { median } from "../src/lib.mjs";
import { cpuMicros } from "./cpu-time.mjs";
import { h1Data } from "./h1-data.mjs";

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : fallback;
};
const rounds = Number(option("rounds", 5));
const dir = await h1Data(option("data"));

const chunk = {
  dtype: { kind: "f", byteOrder: "<", itemsize: 4 },
  itemsize: 4,
  elements: 1024 * 1024,
  key: "3.4",
};
await preloadWasmKernels();
const bloscLz4 = blosc.create({ cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 });
const raw = await bloscLz4.decode(new Uint8Array(readFileSync(join(dir, "r1.zarr", "3.4"))), chunk);
if (raw.length !== 4 << 20) throw new Error("chunk 3.4 is not 4 MiB");

const codecs = [
  ["blosc lz4 shuffle (R1)", bloscLz4],
  ["blosc zstd bitshuffle (R2)", blosc.create({ cname: "zstd", clevel: 3, shuffle: 2, blocksize: 0 })],
  ["zstd 3 (R4)", zstd.create({ level: 3 })],
  ["zstd 3, checksum", zstd.create({ level: 3, checksum: true })],
  ["zlib 1 (R3)", zlib.create({ level: 1 })],
  ["lz4", lz4.create({ acceleration: 1 })],
];

const setWasm = (on) => {
  setWasmKernelsEnabled(on);
};
const timeMs = async (fn) => {
  const start = cpuMicros();
  await fn();
  return (cpuMicros() - start) / 1e3;
};
const same = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

console.log(`median CPU ms per 4 MiB chunk decode, ${rounds} rounds`);
console.log("| codec | ratio | WebAssembly | TypeScript | TypeScript / WebAssembly | fzstd |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const [name, codec] of codecs) {
  const encoded = await codec.encode(raw, chunk);
  const zstdFrame = name.startsWith("zstd");
  // Into one buffer, as z's reads decode (a new 4 MiB result per decode would time page faults).
  const out = new Uint8Array(raw.length);
  const into = async () => {
    const n = await codec.decodeInto(encoded, out, chunk);
    return out.subarray(0, n);
  };
  const contenders = {
    wasm: async () => {
      setWasm(true);
      return into();
    },
    ts: async () => {
      setWasm(false);
      try {
        return await into();
      } finally {
        setWasm(true);
      }
    },
    // fzstd into a buffer of ours takes ~1.8 s here (a slow path of its own): its usual call,
    // which allocates the result (page faults included, ~11 us per 4 KiB page on this machine).
    ...(zstdFrame ? { fzstd: async () => fzstdDecompress(encoded) } : {}),
  };
  for (const [who, decode] of Object.entries(contenders)) {
    for (let i = 0; i < 3; i++) {
      out.fill(0);
      if (!same(await decode(), raw)) throw new Error(`${name}: ${who} decodes wrongly`);
    }
  }
  const names = Object.keys(contenders);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const who = names[(i + r) % names.length];
      times[who].push(await timeMs(contenders[who]));
    }
  }
  const m = (who) => (times[who] ? median(times[who]) : undefined);
  console.log(
    `| ${name} | ${(raw.length / encoded.length).toFixed(2)} | ${m("wasm").toFixed(1)} | ${m("ts").toFixed(1)} | ${(m("ts") / m("wasm")).toFixed(1)}x | ${m("fzstd")?.toFixed(1) ?? "-"} |`,
  );
}
