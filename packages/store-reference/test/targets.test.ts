import { describe, expect, it } from "vitest";
import { ParquetReferences, ReferenceStore, type ReferenceStoreError } from "@z/store-reference";
import type { Store } from "@z/meta";
import { memory } from "./test-stores.js";

const refsFile = (refs: Record<string, unknown>) => JSON.stringify(refs);

async function failure(read: Promise<unknown>): Promise<ReferenceStoreError> {
  const error = await read.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "it should have failed").toBeDefined();
  return error as ReferenceStoreError;
}

describe("targets: typed errors naming the key and the target, never wrong values", () => {
  const files = memory({
    "refs/refs.json": refsFile({
      "a/0": ["data.bin", 100, 50],
      "a/1": ["gone.bin", 0, 4],
      "a/2": ["../../outside.bin", 0, 4],
      "a/3": ["https://host/x.nc", 0, 4],
      "a/4": ["data.bin", 10, 20],
    }),
    "refs/data.bin": new Uint8Array(120),
  });

  it("a byte range past the end of its file", async () => {
    const store = await ReferenceStore.open(files, "refs/refs.json");
    const error = await failure(store.get("a/0"));
    expect(error.referenceCode).toBe("Z_REFERENCE_RANGE");
    expect(error.key).toBe("a/0");
    expect(error.target).toBe("data.bin");
    expect(error.message).toMatch(/bytes 100 to 150 of data\.bin.*only 20/);
    expect((await store.get("a/4"))?.length).toBe(20); // the same file, in range
  });

  it("a target that does not exist", async () => {
    const store = await ReferenceStore.open(files, "refs/refs.json");
    const error = await failure(store.get("a/1"));
    expect([error.referenceCode, error.key, error.target]).toEqual(["Z_REFERENCE_TARGET", "a/1", "gone.bin"]);
  });

  it("relative targets are read beside the reference file; above its store's root, and absolute URLs, need openTarget", async () => {
    const store = await ReferenceStore.open(files, "refs/refs.json");
    expect((await failure(store.get("a/2"))).message).toMatch(/a relative path with no reference file location/);
    expect((await failure(store.get("a/3"))).message).toMatch(/no openTarget was given/);
    const opened = await ReferenceStore.open(files, "refs/refs.json", {
      baseUrl: "https://host/refs/refs.json",
      openTarget: (url) => ({ store: memory({ [url]: new Uint8Array(8).fill(7) }), key: url }),
    });
    expect([...(await opened.get("a/2"))!]).toEqual([7, 7, 7, 7]); // https://host/outside.bin
    expect([...(await opened.get("a/3"))!]).toEqual([7, 7, 7, 7]);
  });

  it("the target store's own error, passed on as the cause with the key added", async () => {
    const broken = new Error("connection reset");
    const target: Store = { get: async () => new Uint8Array(0), getRange: () => Promise.reject(broken) };
    const store = await ReferenceStore.open(files, "refs/refs.json", {
      openTarget: () => ({ store: target, key: "x.nc" }),
    });
    const error = await failure(store.get("a/3"));
    expect(error.referenceCode).toBe("Z_REFERENCE_TARGET");
    expect(error.cause).toBe(broken);
    expect(error.message).toMatch(/"a\/3": cannot read its target https:\/\/host\/x\.nc: connection reset/);
  });

  it("an aborted read rejects with the signal's reason", async () => {
    const store = await ReferenceStore.open(files, "refs/refs.json");
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    expect((await failure(store.get("a/4", { signal: controller.signal }))).message).toBe("stop");
  });
});

describe("Parquet references: record files", () => {
  const zmetadata = JSON.stringify({
    record_size: 2,
    metadata: { ".zgroup": { zarr_format: 2 }, "v/.zarray": { shape: [4], chunks: [1] } },
  });

  it("a missing record file reads as missing chunks by default (as fsspec), or fails when asked", async () => {
    const files = memory({ "r/.zmetadata": zmetadata });
    expect(await (await ReferenceStore.open(files, "r")).get("v/3")).toBeUndefined();
    const strict = await ReferenceStore.open(files, "r", { missingRecords: "error" });
    const error = await failure(strict.get("v/3"));
    expect([error.referenceCode, error.key, error.target]).toEqual(["Z_REFERENCE_RECORD", "v/3", "r/v/refs.1.parq"]);
  });

  it("a record file that is not Parquet", async () => {
    const files = memory({ "r/.zmetadata": zmetadata, "r/v/refs.0.parq": "PAR1 not really" });
    const error = await failure((await ReferenceStore.open(files, "r")).get("v/1"));
    expect([error.referenceCode, error.key, error.target]).toEqual(["Z_REFERENCE_RECORD", "v/1", "r/v/refs.0.parq"]);
    expect(error.message).toMatch(/not a readable Parquet file/);
  });

  it("a .zmetadata without record_size", async () => {
    const files = memory({ "r/.zmetadata": JSON.stringify({ metadata: {} }) });
    expect(() => ParquetReferences.fromZmetadata(files, "r", JSON.stringify({ metadata: {} }))).toThrow(/record_size/);
    expect((await failure(ReferenceStore.open(files, "r"))).referenceCode).toBe("Z_REFERENCE_FORMAT");
  });
});

describe("chunk reads in flight", () => {
  const files = memory({ "refs.json": refsFile({ "a/0": "x" }) });

  it("asks @z/core for 32 at once by default (preferredConcurrency), or as many as `concurrency` says", async () => {
    expect((await ReferenceStore.open(files, "refs.json")).preferredConcurrency).toBe(32);
    expect((await ReferenceStore.open(files, "refs.json", { concurrency: 4 })).preferredConcurrency).toBe(4);
  });

  it("refuses a concurrency that is not a whole number of at least 1, naming the option", async () => {
    for (const concurrency of [0, -1, 2.5, Number.NaN])
      await expect(ReferenceStore.open(files, "refs.json", { concurrency })).rejects.toThrow(
        /option concurrency: expected an integer of at least 1, got/,
      );
  });
});
