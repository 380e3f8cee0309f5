/**
 * The probes of hostile-metadata.test.ts on v3 documents: sizes far past what can be allocated
 * open (as zarr-python 3 opens them) and fail on the read or write that would allocate, with a
 * `TooLargeError` naming the key, the field and the limit; malformed documents and chunks fail with
 * typed errors naming the key.
 */
import { describe, expect, it } from "vitest";
import { MemoryStore, openArray, slice } from "@z/core";
import { MAX_CHUNK_BYTES, TooLargeError } from "@z/meta";

const encode = (doc: unknown) => new TextEncoder().encode(JSON.stringify(doc));

async function store(doc: Record<string, unknown>, chunks: Record<string, Uint8Array> = {}): Promise<MemoryStore> {
  const s = new MemoryStore();
  const zarrJson = {
    zarr_format: 3,
    node_type: "array",
    shape: [4, 4],
    data_type: "float32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2] } },
    chunk_key_encoding: { name: "default" },
    fill_value: 0,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    ...doc,
  };
  await s.set("a/zarr.json", encode(zarrJson));
  for (const [key, value] of Object.entries(chunks)) await s.set(`a/${key}`, value);
  return s;
}

const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("v3 sizes past what can be allocated", () => {
  it("a chunk shape of 2^40 × 16 opens, and a read or write that decodes a chunk is a TooLargeError", async () => {
    const s = await store({
      shape: [2 ** 41, 16],
      chunk_grid: { name: "regular", configuration: { chunk_shape: [2 ** 40, 16] } },
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "gzip", configuration: { level: 1 } },
      ],
    });
    const z = await openArray(s, { mode: "r+", path: "a" });
    const read = await rejection(z.get([slice(0, 2), null]));
    expect(read).toBeInstanceOf(TooLargeError);
    expect(read).toMatchObject({ key: "a/zarr.json", field: "chunks", limit: MAX_CHUNK_BYTES });
    expect(await rejection(z.set([0, 0], 1))).toBeInstanceOf(TooLargeError);
  });

  it("a shape of 2^31 × 2^31 opens; reading all of it is a TooLargeError before anything is allocated", async () => {
    const s = await store({ shape: [2 ** 31, 2 ** 31] });
    const z = await openArray(s, { mode: "r", path: "a" });
    expect(await rejection(z.get())).toBeInstanceOf(TooLargeError);
    // A small selection of missing chunks reads the fill value.
    expect(Array.from((await z.get([slice(0, 2), slice(0, 2)])).data as Float32Array)).toEqual([0, 0, 0, 0]);
  });
});

describe("malformed v3 documents and chunks", () => {
  it.each([
    [
      "a chunk shape of another rank",
      { chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } } },
      "ZARR_METADATA",
    ],
    [
      "two array→bytes codecs",
      { codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "bytes" }] },
      "ZARR_METADATA",
    ],
    [
      "a compressor before the serializer",
      {
        codecs: [
          { name: "gzip", configuration: { level: 1 } },
          { name: "bytes", configuration: { endian: "little" } },
        ],
      },
      "ZARR_METADATA",
    ],
    [
      "a fill value out of range",
      { data_type: "uint8", fill_value: 300, codecs: [{ name: "bytes" }] },
      "ZARR_METADATA",
    ],
    ["an extension it must understand", { storage_transformers: [{ name: "spooky" }] }, "ZARR_UNSUPPORTED"],
  ])("%s: a typed error naming zarr.json", async (_, doc, code) => {
    const error = await rejection(openArray(await store(doc), { mode: "r", path: "a" }));
    expect(error).toMatchObject({ code, key: "a/zarr.json" });
  });

  it("a stored chunk of the wrong length names its key", async () => {
    const s = await store({}, { "c/0/0": new Uint8Array(3) });
    const z = await openArray(s, { mode: "r", path: "a" });
    expect(await rejection(z.get())).toMatchObject({ key: "a/c/0/0" });
  });

  it("a crc32c that does not match names the chunk", async () => {
    const s = await store(
      { codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }] },
      { "c/0/0": new Uint8Array(20) },
    );
    const z = await openArray(s, { mode: "r", path: "a" });
    expect(await rejection(z.get())).toMatchObject({ key: "a/c/0/0" });
  });
});
