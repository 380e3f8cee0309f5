/**
 * Metadata whose sizes are far past what can be allocated: a chunk of `chunks: [2**40, 16]` is
 * 2^46 bytes, a whole `shape: [2**31, 2**31]` is 2^62 elements. zarr-python 2.13 opens all of
 * these (checked: `zarr.open_array` succeeds) and fails on the read that would allocate
 * (`ValueError: cannot reshape array of size 16 into shape (1099511627776,16)` for a stored chunk,
 * `ValueError: array is too big` for the whole shape), while small selections of missing chunks
 * read. So does z: opening works, and the read or write that would allocate throws a
 * `TooLargeError` naming the key, the field and the limit (before: `RangeError: Invalid typed array
 * length: 70368744177664`).
 */
import { describe, expect, it } from "vitest";
import { MemoryStore, openArray, slice, type ZarrArray } from "@z/core";
import { MAX_CHUNK_BYTES, MAX_RESULT_LENGTH, TooLargeError } from "@z/meta";

const encode = (doc: unknown) => new TextEncoder().encode(JSON.stringify(doc));

async function store(
  doc: Record<string, unknown>,
  chunks: Record<string, Uint8Array> = {},
  path = "a",
): Promise<MemoryStore> {
  const s = new MemoryStore();
  const zarray = {
    zarr_format: 2,
    shape: [4, 4],
    dtype: "<f4",
    compressor: null,
    fill_value: 0,
    order: "C",
    filters: null,
    ...doc,
  };
  await s.set(`${path}/.zarray`, encode(zarray));
  for (const [key, value] of Object.entries(chunks)) await s.set(`${path}/${key}`, value);
  return s;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const COMPRESSORS = [
  null,
  { id: "zlib", level: 1 },
  { id: "gzip", level: 1 },
  { id: "zstd", level: 1 },
  { id: "lz4", acceleration: 1 },
  { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
  { id: "bz2", level: 1 },
  { id: "lzma", format: 1, check: -1, preset: null, filters: null },
];

describe("chunks larger than a chunk can be", () => {
  for (const chunks of [
    [2 ** 40, 16],
    [2 ** 31, 2 ** 31],
  ]) {
    for (const compressor of COMPRESSORS) {
      it(`chunks [${chunks.join(", ")}], ${compressor?.id ?? "no compressor"}: opens; reading or writing a stored chunk is a TooLargeError`, async () => {
        const s = await store({ chunks, compressor }, { "0.0": new Uint8Array(100) });
        const a = await openArray(s, { path: "a", mode: "r+", pool: false });
        expect(a.chunks).toEqual(chunks);
        for (const attempt of [
          () => a.get([slice(0, 2), slice(0, 2)]),
          () => a.get(),
          () => a.set([0, 0], 1),
          () => a.oindex.get([[0, 1], [2]]),
          () => a.islice().next(),
        ]) {
          const error = await rejection(attempt());
          expect(error, String(error)).toBeInstanceOf(TooLargeError);
          expect(error).toMatchObject({
            code: "ZARR_TOO_LARGE",
            key: "a/.zarray",
            field: "chunks",
            limit: MAX_CHUNK_BYTES,
          });
          expect((error as TooLargeError).size).toBe(chunks[0]! * chunks[1]! * 4);
          expect((error as Error).message).toContain(`"chunks" [${chunks.join(", ")}]`);
        }
      });
    }
  }

  it("an object array's chunk, and a spec v1 array's, are checked the same way", async () => {
    const objects = await store(
      { shape: [4], chunks: [2 ** 40], dtype: "|O", fill_value: null, filters: [{ id: "vlen-utf8" }] },
      { "0": new Uint8Array(8) },
    );
    const o = await openArray(objects, { path: "a", mode: "r+" });
    await expect(o.get([slice(0, 2)])).rejects.toMatchObject({ code: "ZARR_TOO_LARGE", field: "chunks" });
    await expect(o.set([0], "x")).rejects.toMatchObject({ code: "ZARR_TOO_LARGE", field: "chunks" });

    const v1 = new MemoryStore();
    const meta = {
      zarr_format: 1,
      shape: [4],
      chunks: [2 ** 40],
      dtype: "<i4",
      compression: "zlib",
      compression_opts: 1,
      fill_value: 0,
      order: "C",
    };
    await v1.set("meta", encode(meta));
    await v1.set("attrs", encode({}));
    await v1.set("0", new Uint8Array(16));
    const a = await openArray(v1, { mode: "r" });
    expect(a.zarrFormat).toBe(1);
    await expect(a.get()).rejects.toMatchObject({ code: "ZARR_TOO_LARGE", key: "meta", field: "chunks" });
  });

  it("a chunk of exactly the limit is allowed through to the codecs (which say what is wrong with its bytes)", async () => {
    const s = await store(
      { shape: [MAX_CHUNK_BYTES], chunks: [MAX_CHUNK_BYTES], dtype: "|u1", compressor: { id: "zlib", level: 1 } },
      { "0": new Uint8Array(100) },
    );
    const a = await openArray(s, { path: "a", mode: "r" });
    await expect(a.get([slice(0, 2)])).rejects.toMatchObject({ code: "ZARR_CODEC", key: "a/0" });
  });
});

describe("a shape too large for one result", () => {
  it("opens; reading all of it is a TooLargeError, reading a part of it works (as in zarr-python)", async () => {
    const s = await store({ shape: [2 ** 31, 2 ** 31], chunks: [10, 10] }, { "0.0": new Uint8Array(400).fill(0x3f) });
    const a: ZarrArray = await openArray(s, { path: "a", mode: "r" });
    const error = await rejection(a.get());
    expect(error).toBeInstanceOf(TooLargeError);
    expect(error).toMatchObject({
      code: "ZARR_TOO_LARGE",
      key: "a/.zarray",
      field: "shape",
      limit: MAX_RESULT_LENGTH,
      size: 2 ** 62,
    });
    expect((error as Error).message).toContain(
      'a result of shape [2147483648, 2147483648] (the whole "shape") is 4611686018427387904 values',
    );
    // A selection too large is too, without naming "shape" (it is the selection).
    await expect(a.get([slice(0, 2 ** 20), slice(0, 2 ** 20)])).rejects.toMatchObject({
      code: "ZARR_TOO_LARGE",
      field: undefined,
    });
    // Small parts read: a stored chunk and a missing one.
    const { data } = await a.get([slice(0, 2), slice(9, 11)]);
    expect(Array.from(data as Float32Array)).toEqual([
      new Float32Array(new Uint8Array(4).fill(0x3f).buffer)[0],
      0,
      new Float32Array(new Uint8Array(4).fill(0x3f).buffer)[0],
      0,
    ]);
  });

  it("object arrays too (a JS array cannot be that long)", async () => {
    const s = await store({
      shape: [2 ** 40],
      chunks: [10],
      dtype: "|O",
      fill_value: null,
      filters: [{ id: "vlen-utf8" }],
    });
    const a = await openArray(s, { path: "a", mode: "r" });
    await expect(a.get()).rejects.toMatchObject({ code: "ZARR_TOO_LARGE", field: "shape" });
    expect((await a.get<unknown[]>([slice(0, 3)])).data).toEqual([null, null, null]);
  });
});
