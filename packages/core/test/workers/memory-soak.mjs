// Repeats one operation in a process of its own, as a server or a notebook does, through the
// built packages and the default pool (its threads started first, so they do their share from the
// first operation), and prints the process's RSS after each one as JSON. Nothing keeps a result:
// whatever stays in memory was kept by z. Run by memory.test.ts.
//
// usage: node --expose-gc memory-soak.mjs read|write|http|windows DIR ROUNDS
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { create, defaultChunkPool, openArray, slice } from "@z/core";
import { DirectoryStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";

const [mode, dir, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
const N = 4096; // 4096 x 4096 float32: 64 MiB, in 16 chunks of 4 MiB
const CHUNK = 1024;
const compressor = { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1 };

const field = new Float32Array(N * N);
for (let i = 0; i < field.length; i++) field[i] = Math.sin(i / 5000) + (i % 13) * 0.01;
const path = join(dir, "a.zarr");
const written = await create({
  store: new DirectoryStore(path),
  shape: [N, N],
  chunks: [CHUNK, CHUNK],
  dtype: "<f4",
  compressor,
  overwrite: true,
});
await written.set(null, { data: field, shape: [N, N] }, { pool: false });

const pool = defaultChunkPool();
await pool?.warm?.();
let batches = 0;
if (pool !== undefined) {
  const run = pool.run.bind(pool);
  pool.run = (batch, transfer) => (batches++, run(batch, transfer));
}

let server;
let operation;
if (mode === "read" || mode === "http") {
  let store = new DirectoryStore(path);
  if (mode === "http") {
    server = createServer((req, res) => {
      const file = join(path, decodeURIComponent(new URL(req.url, "http://x").pathname));
      let size;
      try {
        size = statSync(file).size;
      } catch {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-length": size });
      createReadStream(file).pipe(res);
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    store = new HttpStore(`http://127.0.0.1:${server.address().port}`);
  }
  operation = async () => {
    const a = await openArray(store, { mode: "r" });
    const { data } = await a.get();
    if (data[N * N - 1] !== field[N * N - 1]) throw new Error("read a wrong value");
  };
} else if (mode === "write") {
  const store = new DirectoryStore(join(dir, "w.zarr"));
  operation = async () => {
    const a = await create({ store, shape: [N, N], chunks: [CHUNK, CHUNK], dtype: "<f4", compressor, overwrite: true });
    await a.set(null, { data: field, shape: [N, N] });
  };
} else if (mode === "windows") {
  const store = new DirectoryStore(path);
  let seed = 1;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % (N - 100);
  operation = async () => {
    const a = await openArray(store, { mode: "r" });
    for (let i = 0; i < 200; i++) {
      const r = next();
      const c = next();
      const { data } = await a.get([slice(r, r + 100), slice(c, c + 100)]);
      if (data[0] !== field[r * N + c]) throw new Error("read a wrong value");
    }
  };
} else {
  throw new Error(`unknown mode ${mode}`);
}

// RSS after a full collection (the test runs this with --expose-gc): what is kept, not what the
// collector had not reached yet, which depends on when it happened to run.
if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");
const rss = [];
for (let i = 0; i < rounds; i++) {
  await operation();
  globalThis.gc();
  rss.push(process.memoryUsage().rss);
}
server?.close();
console.log(JSON.stringify({ rss, batches, resultBytes: N * N * 4 }));
