// What the dataset reader's page read (consumers/browser/dataset.ts), compared with what xarray
// read from the same store: the expectations xarray_fixtures.py recorded with xarray 2023.01
// (packages/xarray/test/fixtures/<case>.json: names, sizes, attributes, encodings, each variable's
// values as bytes), never with z's own output.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib.mjs";

/** The datasets xarray wrote, as the test server's sessions name them (relative to the repository). */
export const XARRAY_FIXTURES = "packages/xarray/test/fixtures";

/** The dataset the page reads. */
export const DATASET_CASE = "packed-small-consolidated";

/** Keys sorted, so objects compare whatever order they were built in. */
const canonical = (value) =>
  JSON.stringify(value, (_, v) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/** How two base64 byte strings differ, or undefined when they are the same. */
function bytesDiffer(got, want) {
  const [a, b] = [Buffer.from(got ?? "", "base64"), Buffer.from(want, "base64")];
  if (a.equals(b)) return undefined;
  const at = a.findIndex((byte, i) => byte !== b[i]);
  return `${a.length} bytes, xarray ${b.length}, first difference at byte ${at === -1 ? b.length : at}`;
}

/** Differences between a dataset the page read and xarray's, each naming where. */
function compareDataset(got, want, where) {
  const problems = [];
  const same = (what, a, b) => {
    if (canonical(a) !== canonical(b)) problems.push(`${where}: ${what} ${canonical(a)}, xarray ${canonical(b)}`);
  };
  same("dims", got.dims, want.dim_order);
  same("sizes", got.sizes, want.dims);
  same("coords", got.coords, want.coords);
  same("data_vars", got.dataVars, want.data_vars);
  same("variables", got.variableOrder, want.variable_order);
  same("attrs", got.attrs, want.attrs);
  for (const [name, expected] of Object.entries(want.variables)) {
    const variable = got.variables[name];
    if (variable === undefined) {
      problems.push(`${where}: no variable ${name}`);
      continue;
    }
    same(`${name} dims`, variable.dims, expected.dims);
    same(`${name} shape`, variable.shape, expected.shape);
    same(`${name} dtype`, variable.dtype, expected.var_dtype);
    same(`${name} attrs`, variable.attrs, expected.attrs);
    const encoding = Object.fromEntries(Object.keys(expected.encoding).map((key) => [key, variable.encoding[key]]));
    same(`${name} encoding`, encoding, expected.encoding);
    same(`${name} values dtype`, variable.values.dtype, expected.dtype);
    same(`${name} values shape`, variable.values.shape, expected.shape);
    if (expected.values.base64 !== undefined) {
      const difference = bytesDiffer(variable.values.base64, expected.values.base64);
      if (difference !== undefined) problems.push(`${where}: ${name} values ${difference}`);
    } else same(`${name} values`, variable.values.objects, expected.values.strings ?? expected.values.objects);
  }
  return problems;
}

/**
 * The first value of a datetime64[ns] variable xarray read, as xarray prints it: ISO, the time left
 * out at midnight (to whole seconds: enough for this fixture's hours).
 */
function firstTimestamp(variable) {
  const ns = Buffer.from(variable.values.base64, "base64").readBigInt64LE(0);
  return new Date(Number(ns / 1_000_000n))
    .toISOString()
    .replace(/\.000Z$/, "")
    .replace(/T00:00:00$/, "");
}

/**
 * Differences between the page's result and xarray's reads: the dataset, each selection (found in
 * the fixture by method and arguments), and the first time formatted. Empty when all agree.
 */
export function compareWithXarray(value) {
  const expected = JSON.parse(readFileSync(join(root, XARRAY_FIXTURES, `${DATASET_CASE}.json`), "utf8"));
  const problems = compareDataset(value.dataset, expected.dataset, DATASET_CASE);
  const wantTime = firstTimestamp(expected.dataset.variables.time);
  if (value.firstTime !== wantTime) problems.push(`time[0] formatted ${value.firstTime}, xarray ${wantTime}`);
  if ((value.selections ?? []).length === 0) problems.push("no selections read");
  for (const { method, args, result } of value.selections ?? []) {
    const where = `${method}(${canonical(args)})`;
    const want = expected.selections.find(
      (s) => s.method === method && canonical(s.args) === canonical(args) && Object.keys(s.options).length === 0,
    );
    if (want === undefined) problems.push(`${where}: the fixture has no such selection`);
    else problems.push(...compareDataset(result, want.result, where));
  }
  return problems;
}

/** A line for the report: what was checked. */
export function describeDataset(value) {
  const { sizes, variableOrder } = value.dataset;
  return `${DATASET_CASE}: ${variableOrder.join(", ")} over ${canonical(sizes)}, time[0] ${value.firstTime}, ${value.selections.length} selections`;
}
