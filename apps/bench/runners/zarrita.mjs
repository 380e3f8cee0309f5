// Runs one bench case with zarrita (npm), configured as its docs say: its default codec registry
// (numcodecs.js: blosc, lz4, zstd, zlib, gzip), FileSystemStore from @zarrita/storage, FetchStore for HTTP.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import ReferenceStore from "@zarrita/storage/ref";
import * as zarr from "zarrita";
import { caseById, shardingOf } from "../src/cases.mjs";
import { Unsupported, bytesOf, checksum, main, readSource, readWindows, timed } from "./common.mjs";

function unsupportedOr(error) {
  const text = `${error?.message ?? ""} ${error?.cause?.message ?? ""}`;
  if (
    zarr.isZarritaError?.(error, "UnknownCodecError") ||
    zarr.isZarritaError?.(error, "UnsupportedError") ||
    error?.name === "UnknownCodecError" ||
    /\b(unsupported|not supported|not implemented|unimplemented)\b/i.test(text)
  ) {
    return new Unsupported(text.trim());
  }
  return error;
}

/** zarrita opens each format with its own function: `open.v2`, or `open.v3` for the sharded cases. */
const openOf = (c) => (c.zarrFormat === 3 ? zarr.open.v3 : zarr.open.v2);

async function fullRead(c, store) {
  const { seconds, cpuSeconds, value } = await timed(async () => {
    try {
      const array = await openOf(c)(store, { kind: "array", attrs: false });
      return await zarr.get(array);
    } catch (error) {
      throw unsupportedOr(error);
    }
  });
  return { seconds, cpuSeconds, checksum: checksum([value.data]) };
}

/**
 * H3: one variable of a reference set over HTTP with `@zarrita/storage`'s ReferenceStore
 * (`fromUrl`, JSON references; each operation loads refs.json again), then `open.v2` + `get`.
 */
async function referenceRead(c, args) {
  const { seconds, cpuSeconds, value } = await timed(async () => {
    try {
      const store = await ReferenceStore.fromUrl(`${args.url}/${c.array}/refs.json`);
      const array = await zarr.open.v2(zarr.root(store).resolve(c.variable), { kind: "array", attrs: false });
      return await zarr.get(array);
    } catch (error) {
      throw unsupportedOr(error);
    }
  });
  return { seconds, cpuSeconds, checksum: checksum([value.data]) };
}

/**
 * W3: zarrita's `create` of R8's sharded array, then `set` of R1's data. zarrita 0.7.5 reads shards
 * but cannot write them (`set` throws its `UnsupportedError`), which is reported as unsupported.
 */
async function writeSharded(c, args) {
  const source = readSource(args.data);
  const n = Math.sqrt(source.length);
  const { shards, chunks } = shardingOf(c, n);
  const { seconds, cpuSeconds } = await timed(async () => {
    try {
      const array = await zarr.create(new FileSystemStore(args.out), {
        shape: [n, n],
        dtype: "float32",
        chunkShape: shards,
        fillValue: 0,
        codecs: [
          {
            name: "sharding_indexed",
            configuration: {
              chunk_shape: chunks,
              codecs: [{ name: "bytes", configuration: { endian: "little" } }, c.compressor],
              index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
              index_location: "end",
            },
          },
        ],
      });
      await zarr.set(array, null, { data: source, shape: [n, n], stride: [n, 1] });
    } catch (error) {
      throw unsupportedOr(error);
    }
  });
  return { seconds, cpuSeconds, checksum: checksum([bytesOf(source)]) };
}

await main("zarrita", async (args) => {
  const c = caseById(args.case);
  switch (c.kind) {
    case "read":
      return fullRead(c, new FileSystemStore(join(args.data, c.array)));
    case "http":
      return fullRead(c, new zarr.FetchStore(`${args.url}/${c.array}`));
    case "s3":
      // zarrita has no S3 store: its FetchStore over the bucket's path-style URLs, anonymously.
      return fullRead(c, new zarr.FetchStore(`${args.url}/${args.bucket}/${args.prefix}`));
    case "s3-write":
      throw new Unsupported("zarrita has no S3 store (its FetchStore cannot write)");
    case "references":
      return referenceRead(c, args);
    case "windows": {
      const { size, windows } = readWindows(args.data);
      const store = new FileSystemStore(join(args.data, c.array));
      const { seconds, cpuSeconds, value } = await timed(async () => {
        const array = await openOf(c)(store, { kind: "array", attrs: false });
        const parts = [];
        for (const [r, col] of windows)
          parts.push((await zarr.get(array, [zarr.slice(r, r + size), zarr.slice(col, col + size)])).data);
        return parts;
      });
      return { seconds, cpuSeconds, checksum: checksum(value), windows: windows.length };
    }
    case "write": {
      if (c.zarrFormat === 3) return writeSharded(c, args);
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
