// The S3 user in Node (@z/core + @z/store-s3): @z/core/node's openLocation opens s3:// URLs with
// @z/store-s3, which it loads itself (an optional peer), with the account, region and endpoint of
// the AWS_* environment variables (run.mjs points them at the loopback S3 server, which checks
// every signature). Writes an array, reads it back, reads the metadata as S3 holds it, and a wrong
// secret in the environment must be refused. Usage: node s3/write-read.js s3://BUCKET/x.zarr ENDPOINT
// (ENDPOINT: the server's, to read what it holds without z).
import { create, openArray, slice } from "@z/core";
import { openLocation } from "@z/core/node";
import { S3StoreError } from "@z/store-s3";
import { expect } from "../node/check.js";

const [url = "", endpoint = ""] = process.argv.slice(2);
const { bucket } = /^s3:\/\/(?<bucket>[^/]+)\//.exec(url)?.groups ?? {};
expect(bucket !== undefined, `an s3://bucket/path argument, got ${JSON.stringify(url)}`);

// 6 x 8 float64, 4 x 4 chunks: four chunks, two of them partial.
const values = Float64Array.from({ length: 48 }, (_, i) => i * 0.25 - 3);
const target = await openLocation(url, { writable: true });
const z = await create({
  store: target.store,
  path: target.path,
  shape: [6, 8],
  chunks: [4, 4],
  dtype: "<f8",
  fillValue: 0,
  compressor: { id: "zlib", level: 1 },
  overwrite: true,
});
await z.set([slice(null), slice(null)], { data: values, shape: [6, 8] });
await target.close();
console.log(`wrote a 6 x 8 <f8 array to ${url}`);

// What S3 holds, read without z: the .zarray z wrote and a chunk object.
const key = url.slice(`s3://${bucket}/`.length);
const zarray = (await (await fetch(`${endpoint}/${bucket}/${key}/.zarray`)).json()) as Record<string, unknown>;
expect(
  JSON.stringify([zarray.shape, zarray.chunks, zarray.dtype, zarray.compressor]) ===
    '[[6,8],[4,4],"<f8",{"id":"zlib","level":1}]',
  `the .zarray in the bucket as written, got ${JSON.stringify(zarray)}`,
);
expect((await fetch(`${endpoint}/${bucket}/${key}/1.1`)).ok, "chunk 1.1 in the bucket");

const source = await openLocation(url);
const a = await openArray(source.store, { path: source.path, mode: "r" });
const whole = await a.get();
expect(
  whole.shape.join() === "6,8" && (whole.data as Float64Array).every((v, i) => Object.is(v, values[i])),
  `the values written, got [${whole.shape}] ${whole.data}`,
);
const column = await a.get([slice(1, 6, 2), 5]);
expect(
  Array.from(column.data as Float64Array).join() === [13, 29, 45].map((i) => values[i]).join(),
  `[1:6:2, 5] = values 13, 29, 45, got ${column.data}`,
);
await source.close();
console.log("read it back through openLocation: every value, and [1:6:2, 5]");

// The environment's credentials sign the requests: a wrong secret is refused by the server.
process.env.AWS_SECRET_ACCESS_KEY = "not-the-secret";
try {
  const wrong = await openLocation(url);
  await openArray(wrong.store, { path: wrong.path, mode: "r" });
  throw new Error("opened an array with a wrong AWS_SECRET_ACCESS_KEY");
} catch (error) {
  expect(error instanceof S3StoreError, `an S3StoreError, got ${String(error)}`);
  expect(error.s3Code === "SignatureDoesNotMatch", `SignatureDoesNotMatch, got ${error.s3Code}: ${error.message}`);
}
console.log("a wrong AWS_SECRET_ACCESS_KEY: S3StoreError SignatureDoesNotMatch");
