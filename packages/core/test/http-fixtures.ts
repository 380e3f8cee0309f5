// What zarr-python 2.13 wrote for the HTTP tests (test/python/http_fixtures.py) and what it read
// back, for test files that run in Node and in Chromium (there `readFileSync` is the shim in
// scripts/browser-shims/, so each URL is written whole on import.meta.url).
import { readFileSync } from "node:fs";
import { slice, type NdArray, type ZarrArray } from "@z/core";

/** The fixture directory, as the shared test server's `openSession({ files })` wants it. */
export const FIXTURES = "packages/core/test/fixtures/http";

/** A selection item as the Python script describes it: an index, a slice, or a list of indices. */
export type ItemSpec = number | { slice: [number | null, number | null, number | null] } | { ints: number[] };

export interface SelectionSpec {
  kind: "basic" | "orthogonal" | "coordinate" | "mask" | "block";
  sel?: ItemSpec[];
  /** For "mask": the coordinates (one list per dimension) where the mask is true. */
  where?: number[][];
  /** What zarr-python returned: its shape, and its values in C order (NaN and infinities as strings). */
  shape: number[];
  values: (number | string)[];
}

export interface ExpectedArray {
  path: string;
  shape: number[];
  /** numpy's dtype string, e.g. `>f8`. */
  dtype: string;
  /** The chunk keys zarr-python stored, relative to the array. */
  chunkKeys: string[];
  /** The whole array, C order, little-endian: [offset, length] in expected.bin ... */
  bytes?: [number, number];
  /** ... or, for the big array in the zip only, the SHA-256 of those bytes. */
  sha256?: string;
  selections: SelectionSpec[];
}

export interface Expected {
  zarr: string;
  /** `str(group.tree())` of hierarchy.zarr, opened consolidated. */
  tree: string;
  zip: { size: number; keys: number; tree: string };
  arrays: ExpectedArray[];
}

export const expected = JSON.parse(
  readFileSync(new URL("./fixtures/http/expected.json", import.meta.url), "utf8"),
) as Expected;

/** The arrays of hierarchy.zarr (the zip holds them too, and "big"). */
export const smallArrays = expected.arrays.filter((entry) => entry.bytes !== undefined);
export const bigArray = expected.arrays.find((entry) => entry.path === "big")!;

const expectedBin = new Uint8Array(readFileSync(new URL("./fixtures/http/expected.bin", import.meta.url)));

/** The whole array as zarr-python read it: C order, little-endian bytes. */
export function expectedBytes(entry: ExpectedArray): Uint8Array {
  const [offset, length] = entry.bytes!;
  return expectedBin.subarray(offset, offset + length);
}

/** The bytes of what we read, little-endian as zarr-python's were written (typed arrays use the platform's order). */
export function littleEndianBytes(result: NdArray): Uint8Array {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
    throw new Error("these tests compare bytes on little-endian platforms only");
  const { data } = result;
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** Values as the fixture spells them: numbers, `"NaN"`, `"Infinity"`, `"-Infinity"`; -0 stays -0. */
export function plainValues(result: NdArray): (number | string)[] {
  return Array.from(result.data as ArrayLike<number | bigint>, (value) =>
    typeof value === "bigint" ? Number(value) : Number.isFinite(value) ? value : String(value),
  );
}

const item = (spec: ItemSpec) => (typeof spec === "number" ? spec : "slice" in spec ? slice(...spec.slice) : spec.ints);

/** Reads the selection `spec` describes with the matching method of `z`. */
export function readSelection(z: ZarrArray, spec: SelectionSpec): Promise<NdArray> {
  switch (spec.kind) {
    case "basic":
      return z.get(spec.sel!.map(item) as Parameters<ZarrArray["getBasicSelection"]>[0]);
    case "orthogonal":
      return z.oindex.get(spec.sel!.map(item));
    case "coordinate":
      return z.vindex.get(spec.sel!.map(item) as number[][]);
    case "block":
      return z.blocks.get(spec.sel!.map(item) as Parameters<ZarrArray["getBlockSelection"]>[0]);
    case "mask":
      // The mask as the only item of a list: a nested list alone would be one item per dimension.
      return z.vindex.get([mask(z.shape, spec.where!)] as Parameters<ZarrArray["getMaskSelection"]>[0]);
  }
}

/** A Boolean mask of `shape` (nested lists), true at the listed coordinates. */
function mask(shape: readonly number[], where: number[][]): unknown[] {
  const make = (depth: number): unknown[] =>
    Array.from({ length: shape[depth]! }, () => (depth === shape.length - 1 ? false : make(depth + 1)));
  const out = make(0);
  where[0]!.forEach((_, n) => {
    let row = out;
    for (let d = 0; d < shape.length - 1; d++) row = row[where[d]![n]!] as unknown[];
    row[where[shape.length - 1]![n]!] = true;
  });
  return out;
}

/** A readable name for a selection in a test title, e.g. `basic [3:30:4, ::-3]`. */
export function describeSelection(spec: SelectionSpec): string {
  if (spec.kind === "mask") return `mask true at ${spec.where![0]!.length} points`;
  const text = (s: ItemSpec): string =>
    typeof s === "number"
      ? String(s)
      : "slice" in s
        ? s.slice
            .map((v, n) => (v === null || (n === 2 && v === 1) ? "" : String(v)))
            .join(":")
            .replace(/:$/, "")
        : `[${s.ints.join(", ")}]`;
  return `${spec.kind} [${spec.sel!.map(text).join(", ")}]`;
}

/** Hex SHA-256 (Web Crypto: Node 20 and Chromium alike). */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
