// `node apps/bench/micro/xxhash64.mjs [--rounds 5]`: @z/codecs-wasm's XXH64 in TypeScript
// (packages/codecs-wasm/src/xxhash64.ts, Zstandard's content checksum: what `zstd` with
// `checksum: true` appends to what it encodes, and what the TypeScript Zstandard decoder checks)
// against xxhash-wasm's `h64Raw`. Sizes: a 4 MiB chunk (the bench's 1024x1024 float32), R7's
// 8 KiB chunk (64x64 int16), and small inputs. Both are checked to agree; then, in each round,
// ours and the library's alternately (which goes first alternates too): median MB/s, or ns per
// call for the small ones.
import xxhash from "xxhash-wasm";
import { xxh64 } from "@z/codecs-wasm/fallbacks";
import { median } from "../src/lib.mjs";
import { cpuMicros } from "./cpu-time.mjs";

const argv = process.argv.slice(2);
const rounds = Number(argv[argv.indexOf("--rounds") + 1] || 5);
const { h64Raw } = await xxhash();

const sizes = [4 << 20, 8 << 10, 1024, 64, 16];
const ours = (data) => {
  const [high, low] = xxh64(data);
  return (BigInt(high) << 32n) | BigInt(low);
};
const theirs = (data) => h64Raw(data, 0n);

const data = new Uint8Array(4 << 20);
let s = 1;
for (let i = 0; i < data.length; i++) {
  s = (Math.imul(s, 1103515245) + 12345) >>> 0;
  data[i] = s >>> 24;
}
for (let n = 0; n <= 100; n++) {
  const a = data.subarray(n, n + n * 7);
  if (ours(a) !== theirs(a)) throw new Error(`XXH64 of ${a.length} bytes disagrees`);
}

console.log(`median CPU time of ${rounds} rounds; ${"xxhash-wasm"} 1.1.0`);
console.log("| input | ours | xxhash-wasm | ours / library time |");
console.log("| --- | ---: | ---: | ---: |");
for (const size of sizes) {
  const input = data.subarray(0, size);
  const calls = Math.max(8, Math.floor((64 << 20) / Math.max(size, 1024)));
  const time = (fn) => {
    let sink = 0n;
    const start = cpuMicros();
    for (let i = 0; i < calls; i++) sink ^= fn(input);
    const ns = ((cpuMicros() - start) * 1e3) / calls;
    if (sink === -1n) console.log(sink);
    return ns;
  };
  for (let i = 0; i < 3; i++) {
    time(ours);
    time(theirs);
  }
  const o = [];
  const t = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      o.push(time(ours));
      t.push(time(theirs));
    } else {
      t.push(time(theirs));
      o.push(time(ours));
    }
  }
  const mo = median(o);
  const mt = median(t);
  const show = (ns) => (size >= 8192 ? `${((size / ns) * 1e3).toFixed(0)} MB/s` : `${ns.toFixed(0)} ns`);
  console.log(`| ${size} bytes | ${show(mo)} | ${show(mt)} | ${(mo / mt).toFixed(2)} |`);
}
