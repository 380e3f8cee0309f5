/**
 * Open specs resolved as TensorStore 0.1.85 resolves them, against arrays created from specs:
 * for each case of fixtures/tensorstore-spec/open.json (made by python/tensorstore_spec_fixtures.py
 * with TensorStore itself), `openSpec` opens what TensorStore opened (its shape and data type,
 * fields and `open_as_void` as views with their dimensions appended) or refuses what it refused.
 */
import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { ZarrError, type DataType, type JsonValue, type Store } from "@z/meta";
import { ZarrArray } from "@z/core";
import { SpecContext } from "../src/context.js";
import { SpecFieldView } from "../src/field-view.js";
import { openSpec, type SpecArray } from "../src/open.js";
import { parseSpecText } from "../src/parse.js";

interface OpenCase {
  base: string;
  spec: Record<string, JsonValue>;
  shape?: number[];
  dtype?: string;
  error?: string;
}
interface OpenFixtures {
  bases: Record<string, { spec: Record<string, JsonValue>; zarray: string }>;
  cases: OpenCase[];
}

// The whole path in one literal: Vite rewrites `new URL(literal, import.meta.url)` for the browser
// run, and drops a directory's trailing slash.
const { bases, cases } = parseSpecText(
  readFileSync(new URL("./fixtures/tensorstore-spec/open.json", import.meta.url), "utf8"),
) as unknown as OpenFixtures;

/** TensorStore's name of the data type a plain array holds. */
function tsName(dtype: DataType): string {
  if (dtype.kind === "x") return dtype.extension!;
  if (dtype.kind === "b") return "bool";
  const bits = 8 * dtype.itemsize;
  const names: Record<string, string> = { i: `int${bits}`, u: `uint${bits}`, f: `float${bits}`, c: `complex${bits}` };
  return names[dtype.kind] ?? dtype.kind;
}
const described = (a: SpecArray): { shape: number[]; dtype: string } =>
  a instanceof SpecFieldView
    ? { shape: [...a.shape], dtype: a.tsDtype }
    : { shape: [...a.shape], dtype: tsName(a.dtype) };

const kvstore = (base: string): JsonValue => ({ driver: "memory", path: `bases/${base}/` });
let context: SpecContext;
const memory = (): Store => context.resource("memory_key_value_store", undefined, "kvstore");

async function createBase(name: string): Promise<void> {
  await openSpec(
    { driver: "zarr2", kvstore: kvstore(name), create: true, delete_existing: true, ...bases[name]!.spec },
    { context },
  );
}

describe("open specs as TensorStore resolves them", () => {
  beforeEach(() => {
    context = new SpecContext();
  });

  it.each(Object.keys(bases))("creates base %s with TensorStore's .zarray", async (name) => {
    await createBase(name);
    const stored = await memory().get(`bases/${name}/.zarray`);
    expect(new TextDecoder().decode(stored)).toBe(bases[name]!.zarray);
  });

  it.each(cases.map((c, i) => ({ ...c, i })))("#$i $base $spec", async ({ base, spec, shape, dtype, error }) => {
    await createBase(base);
    const open = () => openSpec({ driver: "zarr2", kvstore: kvstore(base), ...spec }, { context });
    if (error === undefined) {
      const opened = await open();
      expect(described(opened)).toEqual({ shape, dtype });
      if (!(opened instanceof SpecFieldView)) expect(opened).toBeInstanceOf(ZarrArray);
    } else {
      const thrown = await open().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(thrown, `TensorStore: ${error}`).toBeInstanceOf(ZarrError);
      expect((thrown as ZarrError).code).toMatch(/^ZARR_(SPEC|NOT_FOUND|EXISTS)/);
    }
  });
});
