/**
 * Create specs resolved as TensorStore 0.1.85 resolves them: for each spec of
 * fixtures/tensorstore-spec/create.json (made by python/tensorstore_spec_fixtures.py with TensorStore
 * itself), the `.zarray` z would write is the text TensorStore wrote, byte for byte, and a spec
 * TensorStore refused is refused here with a typed error.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "@z/meta";
import { ZarrError } from "@z/meta";
import { specZarray } from "../src/create.js";
import { SpecContext } from "../src/context.js";
import { SpecError, SpecUnsupportedError } from "../src/errors.js";
import { openSpec } from "../src/open.js";
import { parseSpecText } from "../src/parse.js";

interface CreateCase {
  spec: Record<string, JsonValue>;
  zarray?: string;
  error?: string;
}

// The whole path in one literal: Vite rewrites `new URL(literal, import.meta.url)` for the browser
// run, and drops a directory's trailing slash.
// Read as TensorStore reads JSON: integers past 2^53 exact, floats kept apart from integers.
const cases = parseSpecText(
  readFileSync(new URL("./fixtures/tensorstore-spec/create.json", import.meta.url), "utf8"),
) as unknown as CreateCase[];

const withStore = (spec: Record<string, JsonValue>, i: number): JsonValue => ({
  driver: "zarr2",
  kvstore: { driver: "memory", path: `c${i}/` },
  create: true,
  ...spec,
});

/** What z refuses though TensorStore creates it (see the test). */
function refusedByDesign(spec: Record<string, JsonValue>, zarray: string): boolean {
  if (/float8_e8m0fnu|float4_e2m1fn/.test(zarray)) return true;
  const shape = (spec.transform as { input_shape?: number[] } | undefined)?.input_shape;
  return shape !== undefined && JSON.stringify(shape) !== JSON.stringify(JSON.parse(zarray).shape);
}

describe("create specs as TensorStore resolves them", () => {
  it("has the reference's examples and at least 100 more", () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  it("gives the reference's chunk shapes for [1000, 2000, 3000] uint16", () => {
    const chunks = (layout: JsonValue): unknown =>
      JSON.parse(
        specZarray({
          driver: "zarr",
          kvstore: { driver: "memory" },
          create: true,
          schema: { dtype: "uint16", domain: { shape: [1000, 2000, 3000] }, chunk_layout: layout },
        }),
      ).chunks;
    expect(chunks({})).toEqual([101, 101, 101]);
    expect(chunks({ chunk: { aspect_ratio: [1, 2, 2] } })).toEqual([64, 128, 128]);
    expect(chunks({ chunk: { aspect_ratio: [1, 2, 2], elements: 2000000 } })).toEqual([79, 159, 159]);
  });

  const created = cases.map((c, i) => ({ ...c, i })).filter((c) => c.error === undefined && c.zarray !== undefined);
  // TensorStore opened these without writing a .zarray: another driver's array, or assume_metadata.
  const unwritten = cases.map((c, i) => ({ ...c, i })).filter((c) => c.error === undefined && c.zarray === undefined);
  const refused = cases.map((c, i) => ({ ...c, i })).filter((c) => c.error !== undefined);

  it.each(created)("#$i writes TensorStore's .zarray", async ({ spec, zarray, i }) => {
    expect(specZarray(withStore(spec, i))).toBe(zarray);
    // And openSpec stores exactly that text where TensorStore stored it, but where z refuses
    // what it cannot do: hold TensorStore's float8_e8m0fnu/float4_e2m1fn, or give a view past the
    // array's bounds (a transform's domain larger than the array's).
    const context = new SpecContext();
    if (refusedByDesign(spec, zarray!)) {
      await expect(openSpec(withStore(spec, i), { context })).rejects.toBeInstanceOf(SpecUnsupportedError);
      expect(await context.resource("memory_key_value_store", undefined, "kvstore").list!(`c${i}/`)).toEqual([]);
      return;
    }
    await openSpec(withStore(spec, i), { context });
    const sub = typeof spec.path === "string" && spec.path !== "" ? `${spec.path.replace(/\/+$/, "")}/` : "";
    const key = `c${i}/${sub}${typeof spec.metadata_key === "string" ? spec.metadata_key : ".zarray"}`;
    const stored = await context.resource("memory_key_value_store", undefined, "kvstore").get(key);
    expect(stored && new TextDecoder().decode(stored)).toBe(zarray);
  });

  it("leaves only a zarr3 array and an assume_metadata open without a .zarray", () => {
    expect(unwritten.map((c) => c.spec.driver ?? (c.spec.assume_metadata ? "assume_metadata" : "?"))).toEqual([
      "zarr3",
      "assume_metadata",
    ]);
    // The zarr3 array's document is zarr.json (spec-zarr3-create.test.ts): not a .zarray.
    expect(() => specZarray(withStore(unwritten[0]!.spec, unwritten[0]!.i))).toThrow(SpecError);
  });

  it("opens with assume_metadata without writing a .zarray, as TensorStore", async () => {
    const context = new SpecContext();
    const z = await openSpec(withStore(unwritten[1]!.spec, 0), { context });
    expect(z.shape).toEqual([10, 10]);
    expect(await context.resource("memory_key_value_store", undefined, "kvstore").get("c0/.zarray")).toBeUndefined();
  });

  it.each(refused)("#$i is refused as TensorStore refuses it", async ({ spec, error, i }) => {
    let thrown: unknown;
    try {
      specZarray(withStore(spec, i));
    } catch (e) {
      thrown = e;
    }
    expect(thrown, `TensorStore: ${error}`).toBeInstanceOf(ZarrError);
    expect((thrown as ZarrError).code, String(thrown)).toMatch(/^ZARR_SPEC/);
    // openSpec refuses it too, before writing anything (TensorStore writes .zarray before finding
    // an "order" it cannot keep, for a rank-0 or rank-1 array asked to be in F order).
    const context = new SpecContext();
    await expect(openSpec(withStore(spec, i), { context })).rejects.toBeInstanceOf(ZarrError);
    const memory = context.resource("memory_key_value_store", undefined, "kvstore");
    expect(await memory.list!(`c${i}/`)).toEqual([]);
  });
});
