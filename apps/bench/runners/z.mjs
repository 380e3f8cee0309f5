// Runs one bench case with z, from the packages' built dist (`pnpm bench` builds them first).
import { join } from "node:path";
import * as codecs from "@z/codecs";
import * as codecsWasm from "@z/codecs-wasm";
import { create, openArray, slice } from "@z/core";
import { openLocation } from "@z/core/node";
import * as storeFs from "@z/store-fs";
import * as storeHttp from "@z/store-http";
import { S3Store } from "@z/store-s3";
import { caseById, shardingOf } from "../src/cases.mjs";
import { Unsupported, bytesOf, checksum, main, readSource, readWindows, timed } from "./common.mjs";

// The codecs of @z/codecs-wasm, registered as an application would if the default registry does
// not have them yet (whatever that package exports as a codec factory).
for (const value of Object.values(codecsWasm)) {
  if (isFactory(value) && !codecs.defaultRegistry.has(value.id)) codecs.defaultRegistry.register(value.id, () => value);
}

function isFactory(value) {
  return (
    typeof value === "object" && value !== null && typeof value.id === "string" && typeof value.create === "function"
  );
}

/** An unknown codec or a codec that says it cannot do this config is "unsupported"; anything else fails. */
function unsupportedOr(error) {
  if (error?.name === "UnknownCodecError" || error?.code === "ZARR_UNKNOWN_CODEC")
    return new Unsupported(error.message);
  if (/\b(unsupported|not supported|not implemented)\b/i.test(String(error?.message)))
    return new Unsupported(error.message);
  return error;
}

/**
 * The v3 (sharded) cases name their format, as TensorStore's runner names its `zarr3` driver and
 * zarrita's calls `open.v3`: without it `openArray` also asks for `.zarray` (at the same time as
 * `zarr.json`: one more request, a 404, not one more round trip).
 */
async function openRead(c, store) {
  try {
    return await openArray(store, { mode: "r", ...(c.zarrFormat === 3 ? { zarrFormat: 3 } : {}) });
  } catch (error) {
    throw unsupportedOr(error);
  }
}

async function fullRead(c, store) {
  const { seconds, cpuSeconds, value } = await timed(async () => {
    const array = await openRead(c, store);
    try {
      return await array.get();
    } catch (error) {
      throw unsupportedOr(error);
    }
  });
  return { seconds, cpuSeconds, checksum: checksum([value.data]) };
}

/**
 * H3: one variable of a reference set over HTTP, as a z user opens one: `openLocation` of the
 * reference file's URL (`@z/store-reference`, its targets through `@z/store-http`), then the
 * variable. Each operation opens the set again (reads refs.json again).
 */
async function referenceRead(c, args) {
  const { seconds, cpuSeconds, value } = await timed(async () => {
    const { store, close } = await openLocation(`reference://${args.url}/${c.array}/refs.json`);
    try {
      return await (await openArray(store, { path: c.variable, mode: "r", zarrFormat: 2 })).get();
    } finally {
      await close();
    }
  });
  return { seconds, cpuSeconds, checksum: checksum([value.data]) };
}

function httpStore(url) {
  const Store = storeHttp.HttpStore ?? storeHttp.HTTPStore ?? storeHttp.FetchStore;
  if (typeof Store !== "function") {
    throw new Unsupported(
      `@z/store-http exports no HTTP store yet (exports: ${Object.keys(storeHttp).join(", ") || "none"})`,
    );
  }
  return new Store(url);
}

/** The bench's S3 bucket and prefix at `--url` (the counting proxy), signed with the test server's account. */
const s3Store = (args) =>
  new S3Store({
    bucket: args.bucket,
    prefix: args.prefix,
    endpoint: args.url,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    environment: {},
  });

async function writeR1(c, args, store) {
  const source = readSource(args.data);
  const n = Math.sqrt(source.length);
  const { seconds, cpuSeconds } = await timed(async () => {
    let array;
    try {
      // W3: the sharded v3 array R8 is (shards of 512x512 inner chunks, blosc lz4, crc32c index).
      const layout =
        c.zarrFormat === 3
          ? { zarrFormat: 3, ...shardingOf(c, n), compressors: [c.compressor] }
          : { chunks: [1024, 1024], compressor: c.compressor };
      array = await create({ store, shape: [n, n], dtype: "<f4", fillValue: 0, overwrite: true, ...layout });
      await array.set(null, { data: source, shape: [n, n] });
    } catch (error) {
      throw unsupportedOr(error);
    }
  });
  return { seconds, cpuSeconds, checksum: checksum([bytesOf(source)]) };
}

await main("z", async (args) => {
  const c = caseById(args.case);
  switch (c.kind) {
    case "read":
      return fullRead(c, new storeFs.DirectoryStore(join(args.data, c.array)));
    case "http":
      return fullRead(c, httpStore(`${args.url}/${c.array}`));
    case "s3":
      return fullRead(c, s3Store(args));
    case "references":
      return referenceRead(c, args);
    case "s3-write":
      return writeR1(c, args, s3Store(args));
    case "windows": {
      const { size, windows } = readWindows(args.data);
      const store = new storeFs.DirectoryStore(join(args.data, c.array));
      const { seconds, cpuSeconds, value } = await timed(async () => {
        const array = await openRead(c, store);
        const parts = [];
        for (const [r, col] of windows)
          parts.push((await array.get([slice(r, r + size), slice(col, col + size)])).data);
        return parts;
      });
      return { seconds, cpuSeconds, checksum: checksum(value), windows: windows.length };
    }
    case "write":
      return writeR1(c, args, new storeFs.DirectoryStore(args.out));
    default:
      throw new Error(`no such case kind ${c.kind}`);
  }
});
