/**
 * Reading the fixtures `python/generate.py` writes with zarr-python, and comparing our results
 * with them bit for bit. See the generator's docstring for the layout of a case directory.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { slice, type Slice } from "@z/core";
import { JsonFloat, parseJson, type CodecConfig, type JsonValue } from "@z/meta";

/** A case spec (`cases/*.json`), as the generator documents it. */
export interface CaseSpec {
  readonly name: string;
  readonly shape: readonly number[];
  readonly chunks: readonly number[];
  /** A type string, or a structured descr. */
  readonly dtype: JsonValue;
  readonly compressor: CodecConfig | null;
  readonly order: "C" | "F";
  readonly dimension_separator?: "." | "/";
  /** In `.zarray` encoding: `"NaN"`, `"-Infinity"`, big ints as bigint, `null`, ... */
  readonly fill_value: JsonValue;
  readonly filters: readonly CodecConfig[] | null;
  readonly writes?: readonly Region[];
}

/** `[start, stop]` per dimension. */
export type Region = readonly (readonly [number, number])[];

/** One entry of `selections.json`: per dimension an int or `[start, stop, step]`. */
export interface SelectionFixture {
  readonly selection: readonly (number | readonly [number | null, number | null, number | null])[];
  readonly shape: readonly number[];
  readonly file: string;
}

export interface Fixture {
  readonly dir: string;
  readonly spec: CaseSpec;
  /** The source values: the whole array, C order, little-endian. */
  readonly values: Uint8Array;
  /** zarr-python's reading of the whole array, encoded as `values`. */
  readonly expected: Uint8Array;
  readonly selections: readonly SelectionFixture[];
}

const appDir = fileURLToPath(new URL("../", import.meta.url));

/** Where the fixtures are: `$Z_CONFORMANCE_FIXTURES`, or the committed ones. */
export const fixturesDir = (): string => process.env.Z_CONFORMANCE_FIXTURES || join(appDir, "fixtures");

/** Where our writing of each case goes: `$Z_CONFORMANCE_OUT`, or `apps/conformance/out`. */
export const outDir = (): string => process.env.Z_CONFORMANCE_OUT || join(appDir, "out");

/** The names of the cases in `dir` (synchronous, so tests can be declared from it). */
export function listCases(dir: string): string[] {
  if (!existsSync(dir)) throw new Error(`no fixtures at ${dir} (run: pnpm --filter @z/conformance generate)`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, "case.json")))
    .map((e) => e.name)
    .sort();
}

/** Floats stay `JsonFloat`s, so codec configs reach our codecs as zarr-python wrote them (`10.0`). */
const readJson = (path: string): JsonValue => parseJson(readFileSync(path), path, { keepFloats: true });

/** `value` with every `JsonFloat` back to a plain number, for fill values. */
export function plainNumbers(value: JsonValue): JsonValue {
  if (value instanceof JsonFloat) return value.value;
  return Array.isArray(value) ? (value as readonly JsonValue[]).map(plainNumbers) : value;
}

/** Only the case spec of a case directory (`case.json`). */
export const loadSpec = (dir: string): CaseSpec => readJson(join(dir, "case.json")) as unknown as CaseSpec;

export function loadFixture(dir: string): Fixture {
  const bytes = (file: string): Uint8Array => new Uint8Array(readFileSync(join(dir, file)));
  return {
    dir,
    spec: readJson(join(dir, "case.json")) as unknown as CaseSpec,
    values: bytes("values.bin"),
    expected: bytes("expected.bin"),
    selections: readJson(join(dir, "selections.json")) as unknown as SelectionFixture[],
  };
}

export const readBytes = (path: string): Uint8Array => new Uint8Array(readFileSync(path));

// --- selections and regions ------------------------------------------------------------------

/** The region covering the whole array. */
export const wholeRegion = (shape: readonly number[]): Region => shape.map((s) => [0, s] as const);

/** The case's write regions: omitted means one write of the whole array. */
export const writeRegions = (spec: CaseSpec): readonly Region[] => spec.writes ?? [wholeRegion(spec.shape)];

export const regionSelection = (region: Region): Slice[] => region.map(([a, b]) => slice(a, b));
export const regionShape = (region: Region): number[] => region.map(([a, b]) => b - a);

export function decodeSelection(selection: SelectionFixture["selection"]): (number | Slice)[] {
  return selection.map((item) => (typeof item === "number" ? item : slice(item[0], item[1], item[2])));
}

export const product = (values: readonly number[]): number => values.reduce((a, b) => a * b, 1);

/** The bytes of `region` of a C-order array of `shape` whose elements are `itemsize` bytes. */
export function extractRegion(
  bytes: Uint8Array,
  shape: readonly number[],
  itemsize: number,
  region: Region,
): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(product(regionShape(region)) * itemsize);
  if (out.length === 0) return out;
  const strides = cStrides(shape);
  const n = shape.length;
  // Copy row by row along the last dimension; for 0-d there is one element.
  const rowBytes = n === 0 ? itemsize : (region[n - 1]![1] - region[n - 1]![0]) * itemsize;
  const outer = region.slice(0, -1);
  const index = outer.map(([a]) => a);
  let pos = 0;
  for (;;) {
    let offset = n === 0 ? 0 : region[n - 1]![0];
    index.forEach((i, d) => (offset += i * strides[d]!));
    out.set(bytes.subarray(offset * itemsize, offset * itemsize + rowBytes), pos);
    pos += rowBytes;
    let d = outer.length - 1;
    while (d >= 0 && ++index[d]! === outer[d]![1]) index[d] = outer[d--]![0];
    if (d < 0) return out;
  }
}

export function cStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let stride = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = stride;
    stride *= shape[i]!;
  }
  return strides;
}

// --- comparing results -----------------------------------------------------------------------

type Typed = ArrayBufferView & { readonly length: number; readonly BYTES_PER_ELEMENT: number };

/**
 * The C-order bytes of an n-d result with element `strides` (any layout over `data`). An element
 * is `dtype.itemsize` bytes: one typed-array value, or several (complex, raw bytes, structs).
 */
export function cOrderBytes(nd: {
  data: Typed;
  shape: readonly number[];
  strides: readonly number[];
  dtype: { itemsize: number };
}): Uint8Array {
  const { data, shape, strides } = nd;
  const size = nd.dtype.itemsize;
  const all = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const count = product(shape);
  const contiguous = strides.every((s, d) => s === cStrides(shape)[d] || shape[d] === 1);
  if (contiguous) return all.slice(0, count * size);
  const out = new Uint8Array(count * size);
  const index = new Array<number>(shape.length).fill(0);
  for (let k = 0; k < count; k++) {
    const at = index.reduce((acc, i, d) => acc + i * strides[d]!, 0);
    out.set(all.subarray(at * size, (at + 1) * size), k * size);
    for (let d = shape.length - 1; d >= 0 && ++index[d]! === shape[d]; d--) index[d] = 0;
  }
  return out;
}

const hex = (bytes: Uint8Array): string =>
  [...bytes]
    .reverse()
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

function unravel(i: number, shape: readonly number[]): number[] {
  return cStrides(shape).map((stride, d) => Math.floor(i / stride) % shape[d]!);
}

/**
 * `""` when `actual` and `expected` (little-endian elements of `itemsize` bytes, C order over
 * `shape`) are bit-identical; otherwise which cells differ, with their bits as hex.
 */
export function describeMismatch(
  actual: Uint8Array,
  expected: Uint8Array,
  itemsize: number,
  shape: readonly number[],
): string {
  if (actual.length !== expected.length) {
    return `${actual.length / itemsize} elements instead of ${expected.length / itemsize}`;
  }
  const bad: string[] = [];
  let count = 0;
  for (let i = 0; i < expected.length / itemsize; i++) {
    const a = actual.subarray(i * itemsize, (i + 1) * itemsize);
    const e = expected.subarray(i * itemsize, (i + 1) * itemsize);
    if (a.every((b, k) => b === e[k])) continue;
    if (++count <= 8) bad.push(`[${unravel(i, shape).join(", ")}]: 0x${hex(a)} instead of 0x${hex(e)}`);
  }
  return count === 0 ? "" : `${count} of ${expected.length / itemsize} cells differ: ${bad.join("; ")}`;
}

export function describeBytesMismatch(actual: Uint8Array, expected: Uint8Array): string {
  if (actual.length === expected.length && actual.every((b, i) => b === expected[i])) return "";
  const n = Math.min(actual.length, expected.length);
  let i = 0;
  while (i < n && actual[i] === expected[i]) i++;
  const text = (b: Uint8Array) => JSON.stringify(new TextDecoder().decode(b.subarray(Math.max(0, i - 20), i + 40)));
  return `${actual.length} bytes instead of ${expected.length}, first difference at byte ${i}: ${text(actual)} vs ${text(expected)}`;
}
