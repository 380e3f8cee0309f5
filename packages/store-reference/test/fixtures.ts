// The reference sets the cross-checks read: made by python/make_refs.py (NetCDF4 and HDF5 files,
// their references as kerchunk makes them, in the three forms, and what fsspec + zarr-python read
// through them), with the Python of scripts/ensure-python-refs.sh (installed the first time).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../../../", import.meta.url).pathname;

/** What fsspec + zarr-python read: per form, each node's metadata and values, and each key's bytes. */
export interface Expected {
  readonly forms: Record<Form, Record<string, ExpectedNode>>;
  readonly keys: string[];
  readonly bytes: Record<Form, Record<string, string | null>>;
}

export interface ExpectedNode {
  readonly attrs: Record<string, unknown>;
  readonly shape?: number[];
  readonly chunks?: number[];
  readonly dtype?: string;
  readonly fill_value?: string | null;
  /** The values' bytes, C order, base64. */
  readonly data?: string;
}

export type Form = "v0" | "v1" | "parquet" | "parquet-gzip";

/** Each form's reference file (or directory) in the fixture directory. */
export const FORM_FILES: Record<Form, string> = {
  v0: "refs-v0.json",
  v1: "refs-v1.json",
  parquet: "refs.parq",
  "parquet-gzip": "refs-gzip.parq",
};

/** The Python with h5py, netCDF4, fsspec, fastparquet and zarr-python 2.13, or the ensure script's failure. */
export function refsPython(): string {
  const ensure = spawnSync("bash", [join(root, "scripts/ensure-python-refs.sh")], {
    encoding: "utf8",
    timeout: 900_000,
  });
  if (ensure.status !== 0) throw new Error(`scripts/ensure-python-refs.sh failed:\n${ensure.stderr.slice(-2000)}`);
  return ensure.stdout.trim().split("\n").pop()!;
}

/** Makes the fixtures in a new temporary directory: its path, and what fsspec read. */
export function makeReferences(): { dir: string; expected: Expected } {
  const dir = mkdtempSync(join(tmpdir(), "z-refs-"));
  const run = spawnSync(refsPython(), [new URL("./python/make_refs.py", import.meta.url).pathname, dir], {
    encoding: "utf8",
    timeout: 300_000,
  });
  if (run.status !== 0) throw new Error(`make_refs.py failed:\n${run.stderr.slice(-3000)}`);
  return { dir, expected: JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Expected };
}
