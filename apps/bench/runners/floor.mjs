// The floors: what reading the same chunk files costs in Node without any decoding, on one thread,
// as cheaply as Node can: each file is read into one reused buffer (a fresh buffer per file would be
// fresh memory to page-fault in every time), and the copy floor's output is in huge pages where
// @z/huge-pages can ask for them when z's results are (Z_HUGE_PAGES=1; off by default).
//   --mode read  reads every chunk file (in key order) and drops it;
//                for H1, fetches every chunk over HTTP (8 at a time) and drops it.
//   --mode copy  reads every chunk file and copies its bytes into one output buffer: for an
//                uncompressed array (R5) into their place in the C-order array, so its checksum
//                must match everyone's; for a compressed one, one after another.
import { closeSync, openSync, readFileSync, readSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { adviseHugePages } from "@z/huge-pages";
import { caseById } from "../src/cases.mjs";
import { Unsupported, checksum, main, timed } from "./common.mjs";

const args = process.argv.slice(2);
const modeAt = args.indexOf("--mode");
const mode = modeAt >= 0 ? args.splice(modeAt, 2)[1] : "read";
process.argv = [process.argv[0], process.argv[1], ...args];

/** Chunk keys of a 2-d array in C order of the chunk grid, with the grid. */
function chunkFiles(dir) {
  const meta = JSON.parse(readFileSync(join(dir, ".zarray"), "utf8"));
  const grid = meta.shape.map((s, i) => Math.ceil(s / meta.chunks[i]));
  const present = new Set(readdirSync(dir));
  const keys = [];
  for (let i = 0; i < grid[0]; i++) for (let j = 0; j < grid[1]; j++) if (present.has(`${i}.${j}`)) keys.push([i, j]);
  return { meta, keys };
}

/** Reads whole files into one buffer, grown (doubled) when a file does not fit. */
function fileReader() {
  let buffer = new Uint8Array(1 << 16);
  return (path) => {
    const fd = openSync(path, "r");
    try {
      let filled = 0;
      for (;;) {
        if (filled === buffer.length) {
          const larger = new Uint8Array(2 * buffer.length);
          larger.set(buffer);
          buffer = larger;
        }
        const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
        if (n === 0) return buffer.subarray(0, filled);
        filled += n;
      }
    } finally {
      closeSync(fd);
    }
  };
}

function readFloor(dir) {
  const { keys } = chunkFiles(dir);
  const read = fileReader();
  let total = 0;
  const t = timedSync(() => {
    for (const [i, j] of keys) total += read(join(dir, `${i}.${j}`)).length;
  });
  return { ...t, bytes: total };
}

function copyFloor(dir) {
  const { meta, keys } = chunkFiles(dir);
  const [n, m] = meta.shape;
  const [ch, cw] = meta.chunks;
  const itemsize = Number(meta.dtype.slice(2));
  const raw = meta.compressor === null && (meta.filters ?? []).length === 0 && meta.order === "C";
  const read = fileReader();
  let out;
  let used = 0;
  const t = timedSync(() => {
    if (raw) {
      out = new Uint8Array(n * m * itemsize);
      if (process.env.Z_HUGE_PAGES === "1") adviseHugePages(out);
      for (const [i, j] of keys) {
        const bytes = read(join(dir, `${i}.${j}`));
        const rows = Math.min(ch, n - i * ch);
        const width = Math.min(cw, m - j * cw) * itemsize;
        for (let r = 0; r < rows; r++) {
          const from = r * cw * itemsize;
          out.set(bytes.subarray(from, from + width), ((i * ch + r) * m + j * cw) * itemsize);
        }
      }
      used = out.length;
    } else {
      // One buffer big enough for every file: a floor does not pay for growing.
      out = new Uint8Array(n * m * itemsize + keys.length * 64);
      if (process.env.Z_HUGE_PAGES === "1") adviseHugePages(out);
      for (const [i, j] of keys) {
        const bytes = read(join(dir, `${i}.${j}`));
        if (used + bytes.length > out.length) throw new Error("the compressed files are larger than the array");
        out.set(bytes, used);
        used += bytes.length;
      }
    }
  });
  return { ...t, bytes: used, ...(raw ? { checksum: checksum([out]) } : {}) };
}

async function fetchFloor(dataDir, array, url) {
  const { keys } = chunkFiles(join(dataDir, array));
  let total = 0;
  const { seconds, cpuSeconds } = await timed(async () => {
    let next = 0;
    const worker = async () => {
      while (next < keys.length) {
        const [i, j] = keys[next++];
        const response = await fetch(`${url}/${array}/${i}.${j}`);
        if (!response.ok) throw new Error(`GET ${i}.${j}: ${response.status}`);
        total += (await response.arrayBuffer()).byteLength;
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  });
  return { seconds, cpuSeconds, bytes: total };
}

function timedSync(fn) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  fn();
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6 };
}

await main(`floor-${mode}`, async (a) => {
  const c = caseById(a.case);
  if (c.kind === "http") {
    if (mode !== "read") throw new Unsupported("the HTTP floor only fetches");
    return fetchFloor(a.data, c.array, a.url);
  }
  if (c.kind !== "read") throw new Unsupported(`no floor for ${c.kind} cases`);
  const dir = join(a.data, c.array);
  return mode === "copy" ? copyFloor(dir) : readFloor(dir);
});
