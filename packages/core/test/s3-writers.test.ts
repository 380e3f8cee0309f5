// Many writers, no lost chunk: 4 processes write disjoint, chunk-aligned blocks of rows of one
// array in one bucket at the same time, without any lock (as zarr-python and dask do); then z and
// zarr-python (through boto3) read every value back. Each chunk has one writer, and S3 replaces an
// object whole, so nothing is lost. (Writers sharing a chunk would each read, change and PUT the
// whole chunk: the last PUT wins and the other's values are lost; see packages/store-s3/README.md.)
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { S3Store } from "@z/store-s3";
import { beforeAll, expect, it } from "vitest";
import { bundleChild } from "../../../scripts/test-child/child.js";
import { hasZarrPython, python } from "../../../scripts/test-child/python.js";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { create, openArray } from "../src/index.js";
import { hasBoto3 } from "./s3-python.js";

const WRITERS = 4;
const ROWS = 64;
const COLUMNS = 40;
const CHUNKS = [8, 10];

let child = "";
beforeAll(async () => {
  child = await bundleChild(new URL("./s3-writer-child.ts", import.meta.url));
}, 60_000);

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, [child, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    process_.stdout.setEncoding("utf8").on("data", (text: string) => void (stdout += text));
    process_.stderr.setEncoding("utf8").on("data", (text: string) => void (stderr += text));
    process_.on("exit", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`writer failed (${code}): ${stderr}`)),
    );
  });
}

it(`${WRITERS} processes write disjoint chunk-aligned regions of one array; z and zarr-python read all of it`, async () => {
  const bucket = await createBucket("writers");
  const prefix = "shared/x.zarr";
  const store = new S3Store({
    bucket,
    prefix,
    endpoint: s3Endpoint(),
    credentials: S3_TEST_CREDENTIALS,
    environment: {},
  });
  await create({
    store,
    shape: [ROWS, COLUMNS],
    chunks: CHUNKS,
    dtype: "<i4",
    fillValue: -1,
    compressor: { id: "zlib", level: 1 },
  });

  const band = ROWS / WRITERS; // 16 rows: two chunk rows each
  const outputs = await Promise.all(
    Array.from({ length: WRITERS }, (_, w) => run([s3Endpoint(), bucket, prefix, String(w * band), String(band)])),
  );
  expect(outputs.map((o) => o.trim())).toEqual(
    Array.from({ length: WRITERS }, (_, w) => `wrote rows ${w * band}..${(w + 1) * band - 1}`),
  );

  const expected = new Int32Array(ROWS * COLUMNS);
  for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLUMNS; c++) expected[r * COLUMNS + c] = r * 1000 + c;
  const { data } = await (await openArray(store, { mode: "r" })).get();
  expect(Array.from(data as Int32Array)).toEqual(Array.from(expected));
  expect((await store.list()).length).toBe(1 + (ROWS / CHUNKS[0]!) * (COLUMNS / CHUNKS[1]!));

  if (!hasZarrPython || !hasBoto3) return;
  const s3map = fileURLToPath(new URL("../../../scripts/test-s3/", import.meta.url));
  const digest = python<string>(
    `import sys, json, hashlib
sys.path.insert(0, ${JSON.stringify(s3map)})
from s3map import S3Map
import zarr
a = zarr.open_array(S3Map.from_argv(), mode="r")
print(json.dumps(hashlib.sha256(a[:].astype("<i4").tobytes()).hexdigest()))`,
    s3Endpoint(),
    bucket,
    prefix,
  );
  expect(digest).toBe(createHash("sha256").update(new Uint8Array(expected.buffer)).digest("hex"));
}, 120_000);
