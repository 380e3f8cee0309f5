/**
 * zarr3 open specs resolved as TensorStore 0.1.85 resolves them, against arrays TensorStore created:
 * for each case of fixtures/tensorstore-spec/open-zarr3.json (made by
 * python/tensorstore_zarr3_fixtures.py with TensorStore itself), `openSpec` opens what TensorStore
 * opened (its shape and data type) from the `zarr.json` TensorStore wrote, or refuses what it
 * refused: every `metadata` member and `schema` constraint checked against the stored document.
 */
import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { UnsupportedExtensionError, ZarrError, type DataType, type JsonValue, type Store } from "@z/meta";
import { parseArrayMetadataV3 } from "@z/meta/v3";
import { MemoryStore, ZarrArray } from "@z/core";
import { SpecContext } from "../src/context.js";
import { openSpec } from "../src/open.js";
import { parseSpecText } from "../src/parse.js";

interface OpenCase {
  base: string;
  spec: Record<string, JsonValue>;
  shape?: number[];
  dtype?: string;
  error?: string;
  zarr_json_after?: string;
}
interface OpenFixtures {
  bases: Record<string, { spec: Record<string, JsonValue>; zarr_json: string }>;
  cases: OpenCase[];
}

const { bases, cases } = parseSpecText(
  readFileSync(new URL("./fixtures/tensorstore-spec/open-zarr3.json", import.meta.url), "utf8"),
) as unknown as OpenFixtures;

/** TensorStore's name of the data type a plain array holds. */
function tsName(dtype: DataType): string {
  if (dtype.kind === "x") return dtype.extension!;
  if (dtype.kind === "b") return "bool";
  const bits = 8 * dtype.itemsize;
  const names: Record<string, string> = { i: `int${bits}`, u: `uint${bits}`, f: `float${bits}`, c: `complex${bits}` };
  return names[dtype.kind] ?? dtype.kind;
}

/** Whether z opens sharded arrays yet (see spec-zarr3-create.test.ts). */
const zShards = await ZarrArray.fromMetadata(
  new MemoryStore(),
  "",
  parseArrayMetadataV3(bases.sharded!.zarr_json),
).then(
  () => true,
  (e: unknown) => {
    if (e instanceof UnsupportedExtensionError && /sharding_indexed/.test(e.message)) return false;
    throw e;
  },
);

const kvstore = (base: string): JsonValue => ({ driver: "memory", path: `bases/${base}/` });
let context: SpecContext;
const memory = (): Store => context.resource("memory_key_value_store", undefined, "kvstore");
const text = async (key: string): Promise<string | undefined> => {
  const bytes = await memory().get(key);
  return bytes && new TextDecoder().decode(bytes);
};

/** The array as TensorStore created it: its zarr.json. */
async function tensorstoreBase(name: string): Promise<void> {
  await memory().set!(`bases/${name}/zarr.json`, new TextEncoder().encode(bases[name]!.zarr_json));
}

describe("zarr3 open specs as TensorStore resolves them", () => {
  beforeEach(() => {
    context = new SpecContext();
  });

  it.each(Object.keys(bases))("creates base %s with TensorStore's zarr.json", async (name) => {
    const create = openSpec(
      { driver: "zarr3", kvstore: kvstore(name), create: true, ...bases[name]!.spec },
      { context },
    );
    if (!zShards && bases[name]!.zarr_json.includes("sharding_indexed")) {
      await expect(create).rejects.toThrow(/sharding_indexed/);
      expect(await memory().list!(`bases/${name}/`)).toEqual([]);
      return;
    }
    await create;
    expect(await text(`bases/${name}/zarr.json`)).toBe(bases[name]!.zarr_json);
  });

  it.each(cases.map((c, i) => ({ ...c, i })))(
    "#$i $base $spec",
    async ({ base, spec, shape, dtype, error, zarr_json_after }) => {
      await tensorstoreBase(base);
      const open = () => openSpec({ driver: "zarr3", kvstore: kvstore(base), ...spec }, { context });
      if (error === undefined) {
        const written = zarr_json_after ?? bases[base]!.zarr_json;
        if (!zShards && written.includes("sharding_indexed")) {
          await expect(open()).rejects.toThrow(/sharding_indexed/);
          return;
        }
        const opened = await open();
        expect(opened).toBeInstanceOf(ZarrArray);
        expect({ shape: [...opened.shape], dtype: tsName(opened.dtype) }).toEqual({ shape, dtype });
        // What TensorStore left stored (a new array, for delete_existing), z leaves too.
        if (spec.assume_metadata !== true) expect(await text(`bases/${base}/zarr.json`)).toBe(written);
      } else {
        const thrown = await open().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(thrown, `TensorStore: ${error}`).toBeInstanceOf(ZarrError);
        expect((thrown as ZarrError).code).toMatch(/^ZARR_(SPEC|NOT_FOUND|EXISTS)/);
        expect(await text(`bases/${base}/zarr.json`)).toBe(bases[base]!.zarr_json);
      }
    },
  );
});
