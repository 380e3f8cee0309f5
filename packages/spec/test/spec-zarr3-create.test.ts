/**
 * zarr3 create specs resolved as TensorStore 0.1.85 resolves them: for each spec of
 * fixtures/tensorstore-spec/create-zarr3.json (made by python/tensorstore_zarr3_fixtures.py with
 * TensorStore itself), the `zarr.json` z writes is the text TensorStore wrote, byte for byte (its
 * chunk grid from the chunk layout, the sharding it adds, its default codecs and their members), and
 * a spec TensorStore refused is refused here with a typed error.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { UnsupportedExtensionError, ZarrError, type JsonValue } from "@z/meta";
import { parseArrayMetadataV3 } from "@z/meta/v3";
import { MemoryStore, ZarrArray } from "@z/core";
import { specZarrJson, specZarray } from "../src/create.js";
import { SpecContext } from "../src/context.js";
import { SpecError, SpecUnsupportedError } from "../src/errors.js";
import { openSpec } from "../src/open.js";
import { parseSpecText } from "../src/parse.js";

interface CreateCase {
  spec: Record<string, JsonValue>;
  zarr_json?: string;
  error?: string;
}

// The whole path in one literal: Vite rewrites `new URL(literal, import.meta.url)` for the browser run.
// Read as TensorStore reads JSON: integers past 2^53 exact, floats kept apart from integers.
const cases = parseSpecText(
  readFileSync(new URL("./fixtures/tensorstore-spec/create-zarr3.json", import.meta.url), "utf8"),
) as unknown as CreateCase[];

const withStore = (spec: Record<string, JsonValue>, i: number): JsonValue => ({
  driver: "zarr3",
  kvstore: { driver: "memory", path: `c${i}/` },
  create: true,
  ...spec,
});

/**
 * What z refuses though TensorStore creates it: struct data types (TensorStore opens them through
 * a `field` or extra dimensions), `open_as_void`, and lengths past 2^53.
 */
function refusedByDesign(spec: Record<string, JsonValue>): boolean {
  const dtype = (spec.metadata as { data_type?: JsonValue } | undefined)?.data_type;
  const shape = (spec.metadata as { shape?: JsonValue[] } | undefined)?.shape;
  const struct =
    Array.isArray(dtype) ||
    ["struct", "structured", "raw_bytes"].includes((dtype as { name?: string } | undefined)?.name ?? "");
  return (
    struct ||
    spec.open_as_void === true ||
    (shape?.some((s) => typeof s === "bigint" || Number(s) > Number.MAX_SAFE_INTEGER) ?? false)
  );
}

/**
 * Whether z opens sharded arrays yet (the `sharding_indexed` codec is a branch of its own): until it
 * does, a spec whose array TensorStore shards gives TensorStore's zarr.json from specZarrJson, and
 * openSpec refuses it naming the codec, writing nothing.
 */
const tinySharded = parseArrayMetadataV3(
  '{"zarr_format":3,"node_type":"array","shape":[4],"data_type":"uint8","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[4]}},"chunk_key_encoding":{"name":"default"},"fill_value":0,"codecs":[{"name":"sharding_indexed","configuration":{"chunk_shape":[2],"codecs":[{"name":"bytes"}],"index_codecs":[{"name":"bytes","configuration":{"endian":"little"}},{"name":"crc32c"}]}}]}',
);
const zShards = await ZarrArray.fromMetadata(new MemoryStore(), "", tinySharded).then(
  () => true,
  (e: unknown) => {
    if (e instanceof UnsupportedExtensionError && /sharding_indexed/.test(e.message)) return false;
    throw e;
  },
);

const numbered = cases.map((c, i) => ({ ...c, i }));
const created = numbered.filter((c) => c.error === undefined && c.zarr_json !== undefined);
// TensorStore opened these without writing a zarr.json: assume_metadata.
const unwritten = numbered.filter((c) => c.error === undefined && c.zarr_json === undefined);
const refused = numbered.filter((c) => c.error !== undefined);

describe("zarr3 create specs as TensorStore resolves them", () => {
  it("has the reference's examples and hundreds more, most created", () => {
    expect(cases.length).toBeGreaterThan(800);
    expect(created.length).toBeGreaterThan(600);
    expect(refused.length).toBeGreaterThan(200);
  });

  it("gives the reference's chunk shapes for [1000, 2000, 3000] uint16, sharding where read and write chunks differ", () => {
    const grid = (layout: JsonValue): unknown => {
      const meta = JSON.parse(
        specZarrJson({
          driver: "zarr3",
          kvstore: { driver: "memory" },
          create: true,
          schema: { dtype: "uint16", domain: { shape: [1000, 2000, 3000] }, chunk_layout: layout },
        }),
      );
      const sharding = meta.codecs.find((c: { name: string }) => c.name === "sharding_indexed");
      return { write: meta.chunk_grid.configuration.chunk_shape, read: sharding?.configuration.chunk_shape };
    };
    expect(grid({})).toEqual({ write: [101, 101, 101], read: undefined });
    expect(
      grid({
        chunk: { aspect_ratio: [2, 1, 1] },
        read_chunk: { elements: 2000000 },
        write_chunk: { elements: 1000000000 },
      }),
    ).toEqual({ write: [1000, 1000, 1000], read: [200, 100, 100] });
    expect(grid({ read_chunk: { shape: [64, 64, 64] }, write_chunk: { shape: [512, 512, 512] } })).toEqual({
      write: [512, 512, 512],
      read: [64, 64, 64],
    });
  });

  it.each(created)("#$i writes TensorStore's zarr.json", async ({ spec, zarr_json, i }) => {
    const context = new SpecContext();
    const memory = context.resource("memory_key_value_store", undefined, "kvstore");
    if (refusedByDesign(spec)) {
      expect(() => specZarrJson(withStore(spec, i))).toThrow(SpecUnsupportedError);
      await expect(openSpec(withStore(spec, i), { context })).rejects.toBeInstanceOf(SpecUnsupportedError);
      expect(await memory.list!(`c${i}/`)).toEqual([]);
      return;
    }
    expect(specZarrJson(withStore(spec, i))).toBe(zarr_json);
    if (!zShards && zarr_json!.includes('"sharding_indexed"')) {
      await expect(openSpec(withStore(spec, i), { context })).rejects.toThrow(/sharding_indexed/);
      expect(await memory.list!(`c${i}/`)).toEqual([]);
      return;
    }
    // openSpec stores exactly that text where TensorStore stored it, and opens it as a v3 array.
    const array = await openSpec(withStore(spec, i), { context });
    const sub = typeof spec.path === "string" && spec.path !== "" ? `${spec.path.replace(/\/+$/, "")}/` : "";
    const stored = await memory.get(`c${i}/${sub}zarr.json`);
    expect(stored && new TextDecoder().decode(stored)).toBe(zarr_json);
    expect((array as { zarrFormat?: number }).zarrFormat).toBe(3);
  });

  it("leaves only an assume_metadata open without a zarr.json", async () => {
    expect(unwritten.map((c) => c.spec.assume_metadata)).toEqual([true]);
    const context = new SpecContext();
    const z = await openSpec(withStore(unwritten[0]!.spec, 0), { context });
    expect(z.shape).toEqual([10, 20]);
    expect(await context.resource("memory_key_value_store", undefined, "kvstore").get("c0/zarr.json")).toBeUndefined();
  });

  it.each(refused)("#$i is refused as TensorStore refuses it", async ({ spec, error, i }) => {
    let thrown: unknown;
    try {
      specZarrJson(withStore(spec, i));
    } catch (e) {
      thrown = e;
    }
    expect(thrown, `TensorStore: ${error}`).toBeInstanceOf(ZarrError);
    expect((thrown as ZarrError).code, String(thrown)).toMatch(/^ZARR_SPEC/);
    // openSpec refuses it too, before writing anything.
    const context = new SpecContext();
    await expect(openSpec(withStore(spec, i), { context })).rejects.toBeInstanceOf(ZarrError);
    expect(await context.resource("memory_key_value_store", undefined, "kvstore").list!(`c${i}/`)).toEqual([]);
  });

  it("keeps the two documents apart: specZarray takes zarr2 specs, specZarrJson zarr3 ones", () => {
    const spec = { kvstore: { driver: "memory" }, create: true, schema: { dtype: "uint8", domain: { shape: [4] } } };
    expect(() => specZarray({ driver: "zarr3", ...spec })).toThrow(SpecError);
    expect(() => specZarrJson({ driver: "zarr2", ...spec })).toThrow(SpecError);
    expect(JSON.parse(specZarrJson({ driver: "zarr3", ...spec })).zarr_format).toBe(3);
  });
});
