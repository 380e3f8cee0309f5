// The reference reader's fixtures and checks: make_refs.py (packages/store-reference/test/python,
// in the venv of scripts/ensure-python-refs.sh) writes a NetCDF4 and an HDF5 file, their references
// as fsspec's LazyReferenceMapper writes Parquet, and what fsspec's ReferenceFileSystem +
// zarr-python 2.13 read through them (expected.json). The files are served from memory by a test
// server session, whose log gives the page's requests.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { root } from "./lib.mjs";

/** Makes the reference set in `dir`; returns the files (`/path` → base64, a session's `values`) and what fsspec read. */
export function makeReferenceSet(dir) {
  const ensure = spawnSync("bash", [join(root, "scripts/ensure-python-refs.sh")], { encoding: "utf8" });
  if (ensure.status !== 0) throw new Error(`scripts/ensure-python-refs.sh failed:\n${ensure.stderr.slice(-2000)}`);
  const python = ensure.stdout.trim().split("\n").pop();
  const script = join(root, "packages/store-reference/test/python/make_refs.py");
  const made = spawnSync(python, [script, dir], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`make_refs.py failed:\n${made.stderr.slice(-3000)}`);
  const files = {};
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/^(data\.(nc|h5)|refs\.parq\/)/.test(relative(dir, path)))
        files[`/${relative(dir, path)}`] = readFileSync(path).toString("base64");
    }
  };
  walk(dir);
  const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")).forms.parquet;
  return { files, expected };
}

/** Differences between the arrays the page read and what zarr-python read through fsspec. */
export function compareWithFsspec(value, expected) {
  const problems = [];
  for (const [path, got] of Object.entries(value ?? {})) {
    const want = expected[path];
    if (want?.data === undefined) {
      problems.push(`${path}: fsspec read no array there`);
      continue;
    }
    if (JSON.stringify(got.shape) !== JSON.stringify(want.shape))
      problems.push(`${path}: shape [${got.shape}], zarr-python [${want.shape}]`);
    if (got.data !== want.data) problems.push(`${path}: values differ from zarr-python's (base64 of the bytes)`);
  }
  if (Object.keys(value ?? {}).length === 0) problems.push("no arrays read");
  return problems;
}

/** The page's requests, from the session's log: how many, and to which files. */
export async function describeRequests(logUrl, value) {
  const { requests } = await (await fetch(logUrl)).json();
  const count = (test) => requests.filter((r) => test(r.path.replace(/\?.*/, ""))).length;
  return (
    `${Object.keys(value).length} arrays as zarr-python read them; ${requests.length} requests: ` +
    `${count((p) => p.endsWith("data.nc"))} to data.nc, ${count((p) => p.endsWith("data.h5"))} to data.h5, ` +
    `${count((p) => p.endsWith(".parq"))} record files, ${count((p) => p.endsWith(".zmetadata"))} .zmetadata`
  );
}
