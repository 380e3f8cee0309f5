/**
 * TensorStore zarr2 specs where the CLI takes a STORE (inline JSON or @file), and
 * `zarr create --spec`: the array TensorStore 0.1.85 would create (the reference's chunk choice,
 * its .zarray text, checked against TensorStore itself in @z/spec's tests).
 */
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run, STORE, tempDir } from "./helpers.js";

const text = (path: string): Promise<string> => readFile(path, "utf8");
const fileSpec = (path: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ driver: "zarr2", kvstore: { driver: "file", path: `${path}/` }, ...extra });

describe("zarr create --spec", () => {
  it("creates the reference's example as TensorStore does: chunks [64, 128, 128] for aspect ratio [1, 2, 2]", async () => {
    const dir = await tempDir();
    const specFile = join(dir, "spec.json");
    const store = join(dir, "big.zarr");
    await writeFile(
      specFile,
      fileSpec(store, {
        schema: {
          dtype: "uint16",
          domain: { shape: [1000, 2000, 3000] },
          chunk_layout: { chunk: { aspect_ratio: [1, 2, 2] } },
        },
      }),
    );
    const result = await run(["create", "--spec", specFile]);
    expect(result.code, result.err).toBe(0);
    expect(result.err).toMatch(/chunks \[64, 128, 128\]/);
    expect(await text(join(store, ".zarray"))).toBe(
      '{"chunks":[64,128,128],"compressor":{"blocksize":0,"clevel":5,"cname":"lz4","id":"blosc","shuffle":-1},"dimension_separator":".","dtype":"<u2","fill_value":null,"filters":null,"order":"C","shape":[1000,2000,3000],"zarr_format":2}',
    );
    // Created once: again is an error, --overwrite replaces it (TensorStore's delete_existing).
    expect((await run(["create", "--spec", specFile])).code).toBe(1);
    const again = await run(["create", "--spec", `@${specFile}`, "--overwrite"]);
    expect(again.code, again.err).toBe(0);
  });

  it("creates a zarr3 spec's array as TensorStore does: its compact zarr.json, said to be Zarr v3", async () => {
    const store = join(await tempDir(), "v3.zarr");
    const spec = JSON.stringify({
      driver: "zarr3",
      kvstore: { driver: "file", path: `${store}/` },
      metadata: {
        shape: [10, 10],
        data_type: "int16",
        chunk_grid: { name: "regular", configuration: { chunk_shape: [5, 5] } },
      },
    });
    const result = await run(["create", "--spec", spec]);
    expect(result.code, result.err).toBe(0);
    expect(result.err).toMatch(/\(Zarr v3\): shape \[10, 10\], chunks \[5, 5\], data_type "int16"/);
    // What TensorStore 0.1.85 writes for this spec (checked by hand; @z/spec checks 666 such specs against it).
    expect(JSON.parse(await text(join(store, "zarr.json")))).toEqual({
      chunk_grid: { configuration: { chunk_shape: [5, 5] }, name: "regular" },
      chunk_key_encoding: { name: "default" },
      codecs: [{ configuration: { endian: "little" }, name: "bytes" }],
      data_type: "int16",
      fill_value: 0,
      node_type: "array",
      shape: [10, 10],
      zarr_format: 3,
    });
  });

  it("takes inline JSON, a STORE directory in place of the kvstore, and --path", async () => {
    const store = join(await tempDir(), "out.zarr");
    const spec = JSON.stringify({
      driver: "zarr",
      kvstore: { driver: "memory" },
      dtype: "int16",
      metadata: { shape: [7, 5] },
    });
    const result = await run(["create", store, "--spec", spec, "--path", "a/b"]);
    expect(result.code, result.err).toBe(0);
    expect(JSON.parse(await text(join(store, "a/b/.zarray"))).chunks).toEqual([7, 5]);
  });

  it("refuses array flags beside --spec, and specs TensorStore refuses, naming the member", async () => {
    const store = join(await tempDir(), "x.zarr");
    const both = await run([
      "create",
      "--spec",
      fileSpec(store, { dtype: "uint8", metadata: { shape: [4] } }),
      "--shape",
      "4",
    ]);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/drop --shape/);
    const bad = await run([
      "create",
      "--spec",
      fileSpec(store, { dtype: "uint8", metadata: { shape: [4], bogus: 1 } }),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/ZARR_SPEC/);
    expect(bad.err).toMatch(/metadata\.bogus/);
    const json = await run(["create", "--spec", "{not json"]);
    expect(json.code).toBe(2);
  });
});

describe("specs as STORE", () => {
  it("reads an array named by a spec (inline and @file), with the spec's constraints checked", async () => {
    const spec = fileSpec(STORE);
    const tree = await run(["tree", spec]);
    expect(tree.code, tree.err).toBe(0);
    expect(tree.out).toBe((await run(["tree", STORE])).out);
    const arrays = (await readdir(STORE, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(arrays.length).toBeGreaterThan(0);
  });

  it("gets values through openSpec, and fails reads of missing chunks with fill_missing_data_reads false", async () => {
    const store = join(await tempDir(), "s.zarr");
    const create = await run([
      "create",
      "--spec",
      fileSpec(store, { metadata: { dtype: "<i4", shape: [4, 4], chunks: [2, 2], fill_value: 5, compressor: null } }),
    ]);
    expect(create.code, create.err).toBe(0);
    const get = await run(["get", fileSpec(store), "0,:", "--json"]);
    expect(get.code, get.err).toBe(0);
    expect(JSON.parse(get.out).values).toEqual([5, 5, 5, 5]);
    const strict = await run(["get", fileSpec(store, { fill_missing_data_reads: false }), "0,:"]);
    expect(strict.code).toBe(1);
    expect(strict.err).toMatch(/ZARR_MISSING_CHUNK/);
    const mismatch = await run(["info", fileSpec(store, { metadata: { dtype: "<i8" } })]);
    expect(mismatch.code).toBe(1);
    expect(mismatch.err).toMatch(/metadata\.dtype/);
    const specFile = join(store, "..", "spec.json");
    await writeFile(specFile, fileSpec(store, { metadata: { shape: [4, 4] } }));
    const info = await run(["info", `@${specFile}`]);
    expect(info.code, info.err).toBe(0);
    expect(info.out).toMatch(/Shape\s+: \(4, 4\)/);
  });

  it("refuses a field view where a command reads whole arrays", async () => {
    const store = join(await tempDir(), "rec.zarr");
    const rec = {
      dtype: [
        ["x", "<u2", [2]],
        ["y", "|u1"],
      ],
      shape: [3],
    };
    expect((await run(["create", "--spec", fileSpec(store, { metadata: rec, field: "x" })])).code).toBe(0);
    const get = await run(["get", fileSpec(store, { field: "x" })]);
    expect(get.code).toBe(1);
    expect(get.err).toMatch(/field "x"/);
    // TensorStore opens no structured array without a field; the store itself reads whole records.
    const whole = await run(["get", fileSpec(store)]);
    expect(whole.code).toBe(1);
    expect(whole.err).toMatch(/Must specify a "field" that is one of: \["x","y"\]/);
    expect((await run(["get", store, "--json"])).code).toBe(0);
  });
});
