// One of the processes of s3-writers.test.ts: opens the array the test created in the bucket and
// writes its own chunk-aligned block of rows, value(row, column) = row * 1000 + column.
// node s3-writer-child.mjs <endpoint> <bucket> <prefix> <first row> <rows>
import { S3Store } from "@z/store-s3";
import { enableEncoders, openArray, slice } from "../src/index.js";

// This script is bundled from the sources' browser-safe index, which registers no encoder (Node's
// entry of @z/core does): register them as a Node program importing "@z/core" would have them.
enableEncoders();

const [endpoint = "", bucket = "", prefix = "", first = "0", rows = "0"] = process.argv.slice(2);
const store = new S3Store({
  bucket,
  prefix,
  endpoint,
  credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  environment: {},
});
const array = await openArray(store, { mode: "r+" });
const [, columns = 0] = array.shape;
const start = Number(first);
const count = Number(rows);
const data = new Int32Array(count * columns);
for (let r = 0; r < count; r++) for (let c = 0; c < columns; c++) data[r * columns + c] = (start + r) * 1000 + c;
// Row by row, so the four processes' requests interleave over the whole run.
for (let r = 0; r < count; r += array.chunks[0] ?? 1) {
  const height = Math.min(array.chunks[0] ?? 1, count - r);
  await array.set([slice(start + r, start + r + height), slice(null)], {
    data: data.subarray(r * columns, (r + height) * columns),
    shape: [height, columns],
  });
}
process.stdout.write(`wrote rows ${start}..${start + count - 1}\n`);
