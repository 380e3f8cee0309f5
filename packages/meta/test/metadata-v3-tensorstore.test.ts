/**
 * Zarr v3 metadata against TensorStore 0.1.85's zarr3 driver (test/fixtures/tensorstore-v3, made by
 * test/python/tensorstore_v3_fixtures.py): every `zarr.json` it wrote is read into the model
 * (data type, fill element's bytes as TensorStore holds them, chunk keys of the chunks it stored),
 * and written back as the same JSON. The last test makes the fixtures again with TensorStore (from
 * the venv apps/bench/python/ensure-tensorstore.sh makes) and checks they are the committed ones;
 * without TensorStore it is skipped, except under CI, where a missing TensorStore fails.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fillValueBytes, parseJson, type DataType, type JsonValue } from "@z/meta";
import { chunkKeyV3, parseArrayMetadataV3, parseChunkKeyV3, serializeArrayMetadataV3 } from "@z/meta/v3";
import { requireTool } from "../../../scripts/test-child/tools.js";

const fixtures = new URL("./fixtures/tensorstore-v3/", import.meta.url).pathname;

interface Case {
  metadata: Record<string, JsonValue>;
  written: number[] | null;
  keys: string[];
  fill_bytes: string;
}
const manifest = JSON.parse(readFileSync(join(fixtures, "manifest.json"), "utf8")) as Record<string, Case>;
const names = Object.keys(manifest).sort();
const text = (name: string): string => readFileSync(join(fixtures, `${name}.json`), "utf8");

const le = (kind: "i" | "u" | "f" | "c", itemsize: number): DataType => ({
  kind,
  byteOrder: itemsize === 1 ? "|" : "<",
  itemsize,
});
const ext = (extension: string, itemsize = 1): DataType =>
  ({ kind: "x", byteOrder: itemsize === 1 ? "|" : "<", itemsize, extension }) as DataType;
/** What each of TensorStore's data types is in z: byte order is the `bytes` codec's, so always little-endian. */
const DTYPES: Record<string, DataType> = {
  bool: { kind: "b", byteOrder: "|", itemsize: 1 },
  int2: ext("int2"),
  int4: ext("int4"),
  int8: le("i", 1),
  int16: le("i", 2),
  int32: le("i", 4),
  int64: le("i", 8),
  uint8: le("u", 1),
  uint16: le("u", 2),
  uint32: le("u", 4),
  uint64: le("u", 8),
  float8_e3m4: ext("float8_e3m4"),
  float8_e4m3fn: ext("float8_e4m3fn"),
  float8_e4m3fnuz: ext("float8_e4m3fnuz"),
  float8_e4m3b11fnuz: ext("float8_e4m3b11fnuz"),
  float8_e5m2: ext("float8_e5m2"),
  float8_e5m2fnuz: ext("float8_e5m2fnuz"),
  float4_e2m1fn: ext("float4_e2m1fn"),
  float8_e8m0fnu: ext("float8_e8m0fnu"),
  float16: le("f", 2),
  bfloat16: ext("bfloat16", 2),
  float32: le("f", 4),
  float64: le("f", 8),
  complex64: le("c", 8),
  complex128: le("c", 16),
};
/**
 * Where TensorStore 0.1.85 holds a fill other than the one its zarr.json states: for
 * float8_e8m0fnu it reads 4.0 as the code 0x41 (2^-62); 4.0 is the code 0x81, as ml_dtypes and z
 * convert it.
 */
const TENSORSTORE_FILL_BUGS: Record<string, { tensorstore: string; z: string }> = {
  "dtype-float8_e8m0fnu": { tensorstore: "41", z: "81" },
};

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

describe("zarr.json documents TensorStore 0.1.85 wrote", () => {
  it("has every case of the script, one document each", () => {
    expect(readdirSync(fixtures).sort()).toEqual(["manifest.json", ...names.map((n) => `${n}.json`)].sort());
    expect(names.filter((n) => n.startsWith("dtype-")).length).toBe(25);
  });

  for (const name of names) {
    const c = manifest[name]!;
    const dataType = c.metadata.data_type as string;

    it(`${name}: reads the model TensorStore wrote`, () => {
      const meta = parseArrayMetadataV3(text(name), `${name}/zarr.json`);
      expect(meta.dtype).toEqual(DTYPES[dataType]);
      expect(meta.dataType).toBe(dataType);
      expect(meta.shape).toEqual(c.metadata.shape);
      // The fill element's bytes are the ones TensorStore holds, bit for bit (NaN payloads too).
      const bug = TENSORSTORE_FILL_BUGS[name];
      if (bug !== undefined) expect(c.fill_bytes).toBe(bug.tensorstore);
      expect(hex(fillValueBytes(meta.fillValue, meta.dtype))).toBe(bug?.z ?? c.fill_bytes);
      if (c.metadata.dimension_names !== undefined) expect(meta.dimensionNames).toEqual(c.metadata.dimension_names);
      const given = c.metadata.chunk_grid as { configuration: { chunk_shape: number[] } } | undefined;
      if (given !== undefined) expect(meta.chunkShape).toEqual(given.configuration.chunk_shape);
    });

    it(`${name}: the chunk TensorStore stored has the key z gives it`, () => {
      const meta = parseArrayMetadataV3(text(name), `${name}/zarr.json`);
      const coords = c.written === null ? [] : c.written.map((i, d) => Math.floor(i / meta.chunkShape[d]!));
      expect(c.keys).toEqual(c.written === null ? [] : [chunkKeyV3(coords, meta.chunkKeys)]);
      for (const key of c.keys) expect(parseChunkKeyV3(key, meta.shape.length, meta.chunkKeys)).toEqual(coords);
    });

    it(`${name}: writes back the JSON TensorStore wrote`, () => {
      const meta = parseArrayMetadataV3(text(name));
      const ours = serializeArrayMetadataV3(meta);
      expect(parseJson(ours)).toEqual(parseJson(text(name)));
      // And reads back to the same model.
      expect(parseArrayMetadataV3(ours)).toEqual(meta);
    });
  }
});

const root = new URL("../../../", import.meta.url).pathname;
const ensure = spawnSync("bash", [join(root, "apps/bench/python/ensure-tensorstore.sh")], {
  encoding: "utf8",
  timeout: 900_000,
});
const python = ensure.status === 0 ? ensure.stdout.trim().split("\n").pop() : undefined;
const script = new URL("./python/tensorstore_v3_fixtures.py", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "z-meta-v3-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The script above installs TensorStore when it is missing: its failure is this test's.
it("has TensorStore 0.1.85 (apps/bench/python/ensure-tensorstore.sh)", () => {
  expect(ensure.stderr.slice(-2000), "apps/bench/python/ensure-tensorstore.sh failed").toBe(
    ensure.status === 0 ? ensure.stderr.slice(-2000) : "",
  );
  expect(python).toBeDefined();
});

describe("the fixtures against TensorStore 0.1.85 itself", () => {
  requireTool("tensorstore", python !== undefined);
  it("makes the same documents and manifest again", () => {
    const out = join(dir, "tensorstore-v3");
    const run = spawnSync(python!, [script, "generate", out], { encoding: "utf8", timeout: 300_000 });
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(readdirSync(out).sort()).toEqual(readdirSync(fixtures).sort());
    for (const file of readdirSync(out)) {
      expect(readFileSync(join(out, file), "utf8"), file).toBe(readFileSync(join(fixtures, file), "utf8"));
    }
  }, 300_000);
});
