// Runs one bench case with zarrita (npm), configured as its docs say: its default codec registry
// (numcodecs.js: blosc, lz4, zstd, zlib, gzip), FileSystemStore from @zarrita/storage, FetchStore for HTTP.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import * as zarr from "zarrita";
import { caseById } from "../src/cases.mjs";
import { Unsupported, bytesOf, checksum, main, readSource, readWindows, timed } from "./common.mjs";

function unsupportedOr(error) {
  const text = `${error?.message ?? ""} ${error?.cause?.message ?? ""}`;
  if (
    error?.name === "UnknownCodecError" ||
    /\b(unsupported|not supported|not implemented|unimplemented)\b/i.test(text)
  ) {
    return new Unsupported(text.trim());
  }
  return error;
}

async function fullRead(store) {
  const { seconds, cpuSeconds, value } = await timed(async () => {
    try {
      const array = await zarr.open.v2(store, { kind: "array", attrs: false });
      return await zarr.get(array);
    } catch (error) {
      throw unsupportedOr(error);
    }
  });
  return { seconds, cpuSeconds, checksum: checksum([value.data]) };
}

await main("zarrita", async (args) => {
  const c = caseById(args.case);
  switch (c.kind) {
    case "read":
      return fullRead(new FileSystemStore(join(args.data, c.array)));
    case "http":
      return fullRead(new zarr.FetchStore(`${args.url}/${c.array}`));
    case "s3":
      // zarrita has no S3 store: its FetchStore over the bucket's path-style URLs, anonymously.
      return fullRead(new zarr.FetchStore(`${args.url}/${args.bucket}/${args.prefix}`));
    case "s3-write":
      throw new Unsupported("zarrita has no S3 store (its FetchStore cannot write)");
    case "windows": {
      const { size, windows } = readWindows(args.data);
      const store = new FileSystemStore(join(args.data, c.array));
      const { seconds, cpuSeconds, value } = await timed(async () => {
        const array = await zarr.open.v2(store, { kind: "array", attrs: false });
        const parts = [];
        for (const [r, col] of windows)
          parts.push((await zarr.get(array, [zarr.slice(r, r + size), zarr.slice(col, col + size)])).data);
        return parts;
      });
      return { seconds, cpuSeconds, checksum: checksum(value), windows: windows.length };
    }
    case "write": {
      // zarrita's create() makes v3 arrays only; a v2 array is written by opening a .zarray as
      // zarr-python writes it (outside the timing) and setting the data.
      const source = readSource(args.data);
      const n = Math.sqrt(source.length);
      mkdirSync(args.out, { recursive: true });
      const zarray = {
        chunks: [1024, 1024],
        compressor: c.compressor,
        dtype: "<f4",
        fill_value: 0,
        filters: null,
        order: "C",
        shape: [n, n],
        zarr_format: 2,
      };
      writeFileSync(join(args.out, ".zarray"), JSON.stringify(zarray, null, 4));
      const store = new FileSystemStore(args.out);
      const { seconds, cpuSeconds } = await timed(async () => {
        try {
          const array = await zarr.open.v2(store, { kind: "array", attrs: false });
          await zarr.set(array, null, { data: source, shape: [n, n], stride: [n, 1] });
        } catch (error) {
          throw unsupportedOr(error);
        }
      });
      return { seconds, cpuSeconds, checksum: checksum([bytesOf(source)]) };
    }
    default:
      throw new Error(`no such case kind ${c.kind}`);
  }
});
