// Reads the expectations xarray_fixtures.py recorded (what xarray 2023.01 reads from each store)
// and compares @z/xarray's datasets with them: values bit for bit.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson, type JsonValue } from "@z/meta";
import type { Dataset, Values } from "../src/index.js";
import { expect } from "vitest";
import { comparable, type ExpectedVariable, expectValues } from "./compare.js";

export { comparable, type ExpectedVariable, expectValues };

/** The fixtures: fresh ones in the live check (Z_XARRAY_FIXTURES), else the committed ones. */
export const FIXTURES = process.env.Z_XARRAY_FIXTURES ?? fileURLToPath(new URL("./fixtures", import.meta.url));

export interface ExpectedDataset {
  variables: Record<string, ExpectedVariable>;
  variable_order: string[];
  dim_order: string[];
  coords: string[];
  data_vars: string[];
  dims: Record<string, number>;
  attrs: Record<string, JsonValue>;
}

export interface ExpectedCase {
  case: string;
  consolidated: boolean;
  open: Record<string, boolean>;
  dataset: ExpectedDataset;
  selections: {
    method: "isel" | "sel";
    args: Record<string, JsonValue>;
    options: Record<string, string>;
    result: ExpectedDataset;
  }[];
}

export function caseNames(): string[] {
  return (readJson(join(FIXTURES, "cases.json")) as { cases: string[] }).cases;
}

export function readCase(name: string): ExpectedCase {
  return readJson(join(FIXTURES, `${name}.json`)) as unknown as ExpectedCase;
}

function readJson(path: string): JsonValue {
  return parseJson(readFileSync(path));
}

/** xarray's open_zarr keyword arguments as openDataset options. */
export function openOptions(open: Record<string, boolean>): Record<string, boolean> {
  const names: Record<string, string> = {
    mask_and_scale: "maskAndScale",
    decode_times: "decodeTimes",
    decode_timedelta: "decodeTimedelta",
    concat_characters: "concatCharacters",
    decode_coords: "decodeCoords",
    use_cftime: "useCftime",
  };
  return Object.fromEntries(Object.entries(open).map(([k, v]) => [names[k] ?? k, v]));
}

/**
 * Compares a dataset (metadata and every variable's values) with what xarray read; `encoding:
 * false` leaves encodings out, `values` adjusts values before they are compared (for the changes
 * writing makes as xarray makes them).
 */
export async function expectDataset(
  ds: Dataset,
  expected: ExpectedDataset,
  where: string,
  options: { encoding?: boolean; order?: boolean; values?: (name: string, values: Values) => Values | undefined } = {},
): Promise<void> {
  const order = options.order === false ? (names: string[]): string[] => [...names].sort() : (names: string[]) => names;
  expect(order([...ds.variables.keys()]), `${where}: variables`).toEqual(order(expected.variable_order));
  expect(order(ds.coords), `${where}: coords`).toEqual(order(expected.coords));
  expect(order(ds.dataVars), `${where}: data_vars`).toEqual(order(expected.data_vars));
  expect(order(ds.dims), `${where}: dims`).toEqual(order(expected.dim_order));
  expect(ds.sizes, `${where}: sizes`).toEqual(expected.dims);
  expect(comparable(ds.attrs), `${where}: attrs`).toEqual(comparable(expected.attrs));
  for (const [name, want] of Object.entries(expected.variables)) {
    const variable = ds.get(name);
    const at = `${where}: ${name}`;
    expect(variable.dims, `${at}: dims`).toEqual(want.dims);
    expect(variable.shape, `${at}: shape`).toEqual(want.shape);
    expect(variable.dtype, `${at}: dtype`).toBe(want.var_dtype);
    expect(comparable(variable.attrs), `${at}: attrs`).toEqual(comparable(want.attrs));
    const encoding = Object.fromEntries(Object.keys(want.encoding).map((k) => [k, variable.encoding[k]]));
    const wantEncoding = Object.fromEntries(
      Object.entries(want.encoding).map(([k, v]) => [
        k,
        v !== null && typeof v === "object" && "bytes" in (v as object) ? (v as { bytes: string }).bytes : v,
      ]),
    );
    if (options.encoding !== false) expect(comparable(encoding), `${at}: encoding`).toEqual(comparable(wantEncoding));
    const values = await variable.values();
    const adjusted = options.values === undefined ? values : options.values(name, values);
    if (adjusted !== undefined) expectValues(adjusted, want, at);
  }
}
