// The Node user: writes an array to a directory, reads it back through @z/core/node's
// openLocation, and reads arrays zarr-python wrote. Usage: node write-read.js FIXTURES
// (FIXTURES: the directory of hierarchy.zarr, expected.json and expected.bin).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, openArray, slice } from "@z/core";
import { openLocation, WorkerPool } from "@z/core/node";
import { DirectoryStore } from "@z/store-fs";
import { expect, sameBytes, zarrPythonBytes } from "./check.js";

const fixtures = process.argv[2] ?? "";
const dir = mkdtempSync(join(tmpdir(), "z-consumer-"));
try {
  const path = join(dir, "example.zarr");
  const z = await create({
    store: new DirectoryStore(path),
    shape: [20, 20],
    chunks: [10, 10],
    dtype: "<i4",
    fillValue: 42,
    compressor: { id: "zlib", level: 1 },
  });
  await z.set([slice(0, 10), slice(0, 10)], 1);
  const zarray = JSON.parse(readFileSync(join(path, ".zarray"), "utf8")) as Record<string, unknown>;
  expect(
    zarray.fill_value === 42 && JSON.stringify(zarray.compressor) === '{"id":"zlib","level":1}',
    ".zarray as written",
  );
  expect(existsSync(join(path, "0.0")) && !existsSync(join(path, "1.1")), "chunk 0.0 written, 1.1 (all fill) not");

  const opened = await openLocation(path);
  const a = await openArray(opened.store, { path: opened.path, mode: "r" });
  const { data, shape } = await a.get([slice(0, 12), 3]);
  expect(shape.join() === "12", `shape [12], got [${shape}]`);
  expect(Array.from(data as Int32Array).join() === "1,1,1,1,1,1,1,1,1,1,42,42", `1 x10, 42, 42, got ${data}`);
  await opened.close();
  console.log("wrote an array to a directory and read it back through openLocation");

  // The pool's threads read and write a DirectoryStore themselves, reopened from the module its
  // threadStore() names (the installed @z/store-fs's one-file bundle).
  const pool = new WorkerPool({ size: 2, minBytes: 0 });
  try {
    // Threads that are still starting get no work: the calling thread does it all.
    await pool.warm();
    const store = new DirectoryStore(join(dir, "pooled.zarr"));
    const spec = pool.storeSpec(store);
    expect(
      typeof spec?.module === "string" && spec.module.endsWith("/dist/thread/thread-driver.js"),
      `a thread spec naming the installed bundle, got ${JSON.stringify(spec)}`,
    );
    const values = Int32Array.from({ length: 400 }, (_, i) => i * 3 - 7);
    const p = await create({
      store,
      shape: [20, 20],
      chunks: [5, 5],
      dtype: "<i4",
      compressor: { id: "zlib", level: 1 },
    });
    const batches: string[] = [];
    const run = pool.run.bind(pool);
    pool.run = (batch, transfer) => (batches.push(`${batch.op}:${batch.store?.kind}`), run(batch, transfer));
    await p.set(null, { data: values, shape: [20, 20] }, { pool });
    const back = await p.get(undefined, { pool });
    expect(Array.from(back.data as Int32Array).join() === Array.from(values).join(), "the pooled write read back");
    expect(
      batches.includes("encode:directory") && batches.includes("read:directory"),
      `batches that name the directory, got ${batches.join(" ")}`,
    );
  } finally {
    await pool.close();
  }
  console.log("wrote and read a directory store in a pool thread that reopened it from @z/store-fs's bundle");

  const python = await openLocation(join(fixtures, "hierarchy.zarr"));
  for (const name of ["lz4", "zstd", "sub/zlib"]) {
    const array = await openArray(python.store, { path: name, mode: "r" });
    const whole = await array.get();
    expect(sameBytes(whole.data as ArrayBufferView, zarrPythonBytes(fixtures, name)), `${name} as zarr-python read it`);
  }
  console.log("read lz4 (blosc), zstd and sub/zlib as zarr-python wrote and read them");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
