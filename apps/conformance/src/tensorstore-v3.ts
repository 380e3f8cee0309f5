/**
 * The Zarr v3 fixtures TensorStore 0.1.85 wrote (`fixtures/tensorstore-v3`, made by
 * `python/tensorstore_v3.py generate`; its docstring describes the layout), what z's `create`
 * takes to write the same arrays, and the script's runs in TensorStore's venv.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CreateOptions } from "@z/core";
import type { ArrayMetadataV3, JsonValue } from "@z/meta";
import { parseArrayMetadataV3 } from "@z/meta/v3";
import type { Region } from "./fixtures.js";

/** One case of `manifest.json`. */
export interface TensorStoreCase {
  /** The metadata the generator gave TensorStore (TensorStore's zarr.json fills in the rest). */
  readonly metadata: { readonly data_type: string } & Record<string, JsonValue>;
  /** The regions written, in order, each taking the whole array's values there. */
  readonly writes: readonly Region[];
  /** The chunk keys TensorStore stored (zarr.json aside), sorted. */
  readonly keys: readonly string[];
}

const appDir = fileURLToPath(new URL("../", import.meta.url));

/** The generator (and TensorStore's reader of what z wrote). */
export const TENSORSTORE_V3_SCRIPT = join(appDir, "python/tensorstore_v3.py");

/** Where the fixtures are: `$Z_CONFORMANCE_TENSORSTORE_V3`, or the committed ones. */
export const tensorstoreV3Dir = (): string =>
  process.env.Z_CONFORMANCE_TENSORSTORE_V3 || join(appDir, "fixtures/tensorstore-v3");

export function loadManifest(dir: string): Record<string, TensorStoreCase> {
  return JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Record<string, TensorStoreCase>;
}

/** TensorStore's reading of the whole array: C order, little-endian, extension types as z's `get` gives them. */
export const expectedValues = (dir: string, name: string): Uint8Array =>
  new Uint8Array(readFileSync(join(dir, name, "expected.bin")));

/** The zarr.json TensorStore wrote for a case, as z reads it. */
export const tensorstoreMetadata = (dir: string, name: string): ArrayMetadataV3 =>
  parseArrayMetadataV3(readFileSync(join(dir, name, "array", "zarr.json")), `${name}/zarr.json`);

/**
 * What z's `create` takes to make the array TensorStore made: its data type by name, its fill
 * value (as z read it), its codecs as TensorStore wrote them, its chunk key encoding and names.
 */
export function createOptionsLike(meta: ArrayMetadataV3): CreateOptions {
  return {
    zarrFormat: 3,
    shape: meta.shape,
    chunks: meta.chunkShape,
    dtype: meta.dataType as string,
    fillValue: meta.fillValue,
    codecs: meta.codecs,
    chunkKeyEncoding: meta.chunkKeys.name,
    dimensionSeparator: meta.chunkKeys.separator,
    ...(meta.dimensionNames === undefined ? {} : { dimensionNames: meta.dimensionNames }),
  };
}

/** Runs the script with TensorStore's python; its standard output, or an error with its standard error. */
export function runTensorStore(python: string, args: readonly string[]): string {
  const run = spawnSync(python, [TENSORSTORE_V3_SCRIPT, ...args], {
    encoding: "utf8",
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    throw new Error(`${TENSORSTORE_V3_SCRIPT} ${args.join(" ")} failed (${run.status ?? run.signal}):\n${run.stderr}`);
  }
  return run.stdout;
}
