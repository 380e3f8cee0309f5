/**
 * Reads every array zarr-python wrote (the fixtures) with our library: the whole array and a few
 * basic selections must equal zarr-python's own reading bit for bit, and our parsing of each
 * `.zarray` must serialise back to zarr-python's bytes.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openArray } from "@z/core";
import { WorkerPool } from "@z/core/node";
import { parseArrayMetadata, parseDataType, serializeArrayMetadata } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import {
  cOrderBytes,
  decodeSelection,
  describeBytesMismatch,
  describeMismatch,
  fixturesDir,
  listCases,
  loadFixture,
  loadSpec,
  readBytes,
} from "../src/fixtures.js";
import { isObjectCase } from "../src/object-fixtures.js";

const dir = fixturesDir();
// Object arrays have JSON fixtures of their own (object-arrays.test.ts).
const cases = listCases(dir).filter((name) => !isObjectCase(loadSpec(join(dir, name))));
// No minimum size: every read of two or more chunks goes through the pool's threads.
const pool = new WorkerPool({ size: 2, minBytes: 0 });
beforeAll(() => pool.warm());
afterAll(() => pool.close());

const open = (name: string) => openArray(new DirectoryStore(join(dir, name, "array")), { mode: "r" });

describe(`reading zarr-python's arrays (${dir})`, () => {
  it("has fixtures", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const name of cases) {
    describe(name, () => {
      const fixture = loadFixture(join(dir, name));
      const { spec } = fixture;
      const { itemsize } = parseDataType(spec.dtype);

      it("reads the whole array as zarr-python does", async () => {
        const nd = await (await open(name)).get();
        expect(nd.shape).toEqual(spec.shape);
        expect(describeMismatch(cOrderBytes(nd), fixture.expected, itemsize, spec.shape)).toBe("");
      });

      it("reads the whole array in a worker pool as zarr-python does", async () => {
        const nd = await (await open(name)).get(undefined, { pool });
        expect(describeMismatch(cOrderBytes(nd), fixture.expected, itemsize, spec.shape)).toBe("");
      });

      it("reads selections (steps, negative ints and bounds) as zarr-python does", async () => {
        const arr = await open(name);
        for (const sel of fixture.selections) {
          const nd = await arr.get(decodeSelection(sel.selection));
          const where = `selection ${JSON.stringify(sel.selection)}`;
          expect(nd.shape, where).toEqual(sel.shape);
          const expected = readBytes(join(dir, name, sel.file));
          expect(describeMismatch(cOrderBytes(nd), expected, itemsize, sel.shape), where).toBe("");
        }
      });

      it("re-serialises .zarray to zarr-python's bytes", () => {
        const bytes = readBytes(join(dir, name, "array", ".zarray"));
        const again = new TextEncoder().encode(serializeArrayMetadata(parseArrayMetadata(bytes)));
        expect(describeBytesMismatch(again, bytes)).toBe("");
      });
    });
  }
});
