/**
 * Object arrays (dtype `|O`: vlen-utf8, vlen-bytes, vlen-array, json2, msgpack2) both ways: we read
 * what zarr-python wrote (whole array and selections, element for element), and we write every
 * case into `$Z_CONFORMANCE_OUT`, where `python/verify.py` holds our chunks and `.zarray` to
 * zarr-python's and reads them with zarr-python.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { create, openArray } from "@z/core";
import { decodeFillValue, parseDataType } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import {
  decodeSelection,
  fixturesDir,
  listCases,
  loadSpec,
  outDir,
  plainNumbers,
  product,
  regionSelection,
  regionShape,
  writeRegions,
  type Region,
} from "../src/fixtures.js";
import { decodeElement, encodeElement, isObjectCase, readElements } from "../src/object-fixtures.js";

const dir = fixturesDir();
const cases = listCases(dir).filter((name) => isObjectCase(loadSpec(join(dir, name))));

/** The elements of `region` of a C-order list of `shape`. */
function regionElements(values: readonly unknown[], shape: readonly number[], region: Region): unknown[] {
  const out: unknown[] = [];
  const walk = (d: number, offset: number): void => {
    if (d === shape.length) {
      out.push(values[offset]);
      return;
    }
    const stride = product(shape.slice(d + 1));
    for (let i = region[d]![0]; i < region[d]![1]; i++) walk(d + 1, offset + i * stride);
  };
  walk(0, 0);
  return out;
}

describe(`object arrays against zarr-python (${dir})`, () => {
  it("has object cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  for (const name of cases) {
    describe(name, () => {
      const caseDir = join(dir, name);
      const spec = loadSpec(caseDir);
      const open = () => openArray(new DirectoryStore(join(caseDir, "array")), { mode: "r" });

      it("reads the whole array and selections as zarr-python does", async () => {
        const arr = await open();
        const all = await arr.get<unknown[]>();
        expect(all.shape).toEqual(spec.shape);
        expect(all.data.map((v) => encodeElement(v, spec))).toEqual(readElements(caseDir, "expected.json"));
        const selections = readElements(caseDir, "selections.json") as {
          selection: never;
          shape: number[];
          file: string;
        }[];
        for (const sel of selections) {
          const nd = await arr.get<unknown[]>(decodeSelection(sel.selection));
          const where = `selection ${JSON.stringify(sel.selection)}`;
          expect(nd.shape, where).toEqual(sel.shape);
          expect(
            nd.data.map((v) => encodeElement(v, spec)),
            where,
          ).toEqual(readElements(caseDir, sel.file));
        }
      });

      it("writes the case as zarr-python does (verify.py checks the bytes)", async () => {
        const target = join(outDir(), name);
        await rm(target, { recursive: true, force: true });
        const store = new DirectoryStore(join(target, "array"));
        const dtype = parseDataType(spec.dtype);
        const arr = await create({
          store,
          shape: spec.shape,
          chunks: spec.chunks,
          dtype,
          compressor: spec.compressor,
          fillValue: decodeFillValue(plainNumbers(spec.fill_value), dtype),
          order: spec.order,
          filters: spec.filters,
          ...(spec.dimension_separator === undefined ? {} : { dimensionSeparator: spec.dimension_separator }),
        });
        const values = readElements(caseDir, "values.json").map((e) => decodeElement(e, spec));
        for (const region of writeRegions(spec)) {
          await arr.set(regionSelection(region), {
            data: regionElements(values, spec.shape, region),
            shape: regionShape(region),
          });
        }
        const again = await (await openArray(store, { mode: "r" })).get<unknown[]>();
        expect(again.data.map((v) => encodeElement(v, spec))).toEqual(readElements(caseDir, "expected.json"));
      });
    });
  }
});
