import {
  isListable,
  isWritable,
  normalizeStoragePath,
  numpyName,
  ZarrError,
  type JsonValue,
  type Store,
} from "@z/meta";
import { ZarrArray } from "./array.js";
import { forEachConcurrent, type RunOptions } from "./concurrency.js";
import type { CreateOptions } from "./create.js";
import { ArgumentError } from "./errors.js";
import type { Group } from "./group.js";
import { pythonTupleRepr as tupleRepr } from "@z/meta";
import { cStrides } from "./nd-array.js";

/** A key or node that exists in the destination of a copy made with `ifExists: "raise"`. */
export class CopyError extends ZarrError {
  constructor(message: string, options: { key?: string } = {}) {
    super("ZARR_COPY", message, options);
  }
}

/** What a copy did, as zarr-python's `(n_copied, n_skipped, n_bytes_copied)`. */
export interface CopyReport {
  copied: number;
  skipped: number;
  bytesCopied: number;
}

export interface CopyOptions extends RunOptions {
  /** What to do when the destination exists: fail (default), overwrite, or leave it. */
  ifExists?: "raise" | "replace" | "skip";
  /** Report what would be copied without writing anything. */
  dryRun?: boolean;
  /** Receives a line per key or node, as zarr-python's `log`. */
  log?: (line: string) => void;
}

/**
 * Copies every key under `sourcePath` of one store to `destPath` of another, byte for byte, as
 * zarr-python's `copy_store`. Keys matching an `excludes` pattern are left out unless they also
 * match an `includes` pattern.
 */
export async function copyStore(
  source: Store,
  dest: Store,
  options: CopyOptions & {
    sourcePath?: string;
    destPath?: string;
    excludes?: (RegExp | string)[];
    includes?: (RegExp | string)[];
  } = {},
): Promise<CopyReport> {
  if (!isListable(source)) throw new ArgumentError("copyStore needs a source store that can list its keys");
  if (!isWritable(dest) && !options.dryRun) throw new ArgumentError("copyStore needs a writable destination");
  const prefix = withSlash(normalizeStoragePath(options.sourcePath));
  const destPrefix = withSlash(normalizeStoragePath(options.destPath));
  const patterns = (list: (RegExp | string)[] = []): RegExp[] =>
    list.map((p) => (typeof p === "string" ? new RegExp(p) : p));
  const excludes = patterns(options.excludes);
  const includes = patterns(options.includes);
  const ifExists = checkIfExists(options.ifExists ?? "raise", ["raise", "replace", "skip"]);
  const report: CopyReport = { copied: 0, skipped: 0, bytesCopied: 0 };
  const log = options.log ?? (() => {});

  const keys = (await source.list(prefix)).sort().filter((key) => {
    const excluded = excludes.some((p) => p.test(key));
    return !excluded || includes.some((p) => p.test(key));
  });
  // Decide everything before writing anything, so "raise" fails with the destination untouched.
  const plan: { key: string; target: string; copy: boolean }[] = [];
  for (const key of keys) {
    const target = destPrefix + key.slice(prefix.length);
    let copy = true;
    if (ifExists !== "replace" && (await dest.get(target)) !== undefined) {
      if (ifExists === "raise")
        throw new CopyError(`key ${JSON.stringify(target)} exists in destination`, { key: target });
      copy = false;
    }
    plan.push({ key, target, copy });
  }
  let done = 0;
  await forEachConcurrent(
    plan,
    async ({ key, target, copy }) => {
      const label = target === key ? key : `${key} -> ${target}`;
      if (!copy) {
        log(`skip ${label}`);
        report.skipped += 1;
      } else {
        log(`copy ${label}`);
        if (!options.dryRun) {
          const value = await source.get(key, { signal: options.signal });
          if (value !== undefined) {
            await (dest as Required<Store>).set(target, value, { signal: options.signal });
            report.bytesCopied += value.length;
          }
        }
        report.copied += 1;
      }
      options.progress?.(++done, plan.length);
    },
    { ...options, progress: undefined },
  );
  log(summary(report, options.dryRun ?? false));
  return report;
}

export interface NodeCopyOptions extends Omit<CopyOptions, "ifExists"> {
  /** The name in the destination (default: the source's own name). */
  name?: string;
  /** Copy a group without its sub-groups. */
  shallow?: boolean;
  withoutAttrs?: boolean;
  /** `skipInitialized` skips an existing array only when all of its chunks are stored. */
  ifExists?: "raise" | "replace" | "skip" | "skipInitialized";
  /** Creation options for copied arrays (default: the source's chunks, compressor, filters, order, fill value). */
  create?: Partial<Omit<CreateOptions, "store" | "path" | "shape" | "dtype">>;
}

/**
 * Copies an array or group into the group `dest`, data chunk by chunk (so a copy may change
 * chunks or compressor), as zarr-python's `copy`.
 */
export async function copy(source: ZarrArray | Group, dest: Group, options: NodeCopyOptions = {}): Promise<CopyReport> {
  const name = options.name ?? source.path.split("/").pop() ?? "";
  if (name === "") throw new ArgumentError("the source has no name (it is a root): pass `name`");
  const report: CopyReport = { copied: 0, skipped: 0, bytesCopied: 0 };
  await copyNode(
    source,
    dest,
    name,
    true,
    {
      ...options,
      ifExists: checkIfExists(options.ifExists ?? "raise", ["raise", "replace", "skip", "skipInitialized"]),
    },
    report,
  );
  options.log?.(summary(report, options.dryRun ?? false));
  return report;
}

/** Copies every member of the group `source` into `dest`, as zarr-python's `copy_all`. */
export async function copyAll(
  source: Group,
  dest: Group,
  options: Omit<NodeCopyOptions, "name"> = {},
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, skipped: 0, bytesCopied: 0 };
  const opts = {
    ...options,
    ifExists: checkIfExists(options.ifExists ?? "raise", ["raise", "replace", "skip", "skipInitialized"]),
  };
  for (const key of await source.keys()) await copyNode(await source.getItem(key), dest, key, false, opts, report);
  options.log?.(summary(report, options.dryRun ?? false));
  return report;
}

async function copyNode(
  source: ZarrArray | Group,
  dest: Group | undefined,
  name: string,
  root: boolean,
  options: NodeCopyOptions,
  report: CopyReport,
): Promise<void> {
  const log = options.log ?? (() => {});
  const label =
    source instanceof ZarrArray
      ? `${source.name ?? "/"} ${tupleRepr(source.shape)} ${numpyName(source.dtype)}`
      : (source.name ?? "/");
  const exists = dest !== undefined && (await dest.contains(name));
  if (source instanceof ZarrArray) {
    let doCopy = true;
    if (exists) {
      if (options.ifExists === "raise")
        throw new CopyError(
          `an object ${JSON.stringify(name)} already exists in destination ${JSON.stringify(dest!.name)}`,
        );
      if (options.ifExists === "skip") doCopy = false;
      if (options.ifExists === "skipInitialized") {
        const existing = await dest!.getItem(name);
        doCopy = !(existing instanceof ZarrArray && (await existing.nchunksInitialized()) === existing.nchunks);
      }
    }
    if (!doCopy) {
      log(`skip ${label}`);
      report.skipped += 1;
      return;
    }
    log(`copy ${label}`);
    if (!options.dryRun && dest !== undefined) {
      if (exists) await dest.delItem(name);
      const meta = source.metadata;
      // A v3 array keeps its codecs (and names) in a v3 group; into a v2 one it takes v2's defaults,
      // as its codecs have no v2 form in general.
      const layout =
        meta.zarrFormat !== 3
          ? { compressor: source.compressor, filters: source.filters, order: source.order }
          : dest.zarrFormat === 3
            ? {
                codecs: meta.codecs,
                chunkKeyEncoding: meta.chunkKeyEncoding,
                ...(meta.dimensionNames === undefined ? {} : { dimensionNames: meta.dimensionNames }),
              }
            : {};
      const target = await dest.createDataset(name, {
        chunks: source.chunks,
        ...layout,
        fillValue: source.fillValue,
        ...options.create,
        shape: source.shape,
        // v3's own name of the type: an object dtype is a string or bytes type only there.
        dtype: meta.zarrFormat === 3 && dest.zarrFormat === 3 ? (meta.dataType as JsonValue) : source.dtype,
      });
      await copyData(source, target, options);
      report.bytesCopied += target.nbytes;
      if (!options.withoutAttrs) await target.attrs.update(await source.attrs.asObject());
    }
    report.copied += 1;
    return;
  }
  if (!root && options.shallow) return;
  const arrayInTheWay = exists && (await dest!.getItem(name)) instanceof ZarrArray;
  if (arrayInTheWay && options.ifExists === "raise") {
    throw new CopyError(`an array ${JSON.stringify(name)} already exists in destination ${JSON.stringify(dest!.name)}`);
  }
  if (arrayInTheWay && options.ifExists === "skip") {
    log(`skip ${label}`);
    report.skipped += 1;
    return;
  }
  log(`copy ${label}`);
  let group: Group | undefined;
  if (!options.dryRun && dest !== undefined) {
    if (arrayInTheWay) await dest.delItem(name);
    group = await dest.requireGroup(name);
    if (!options.withoutAttrs) await group.attrs.update(await source.attrs.asObject());
  } else if (dest !== undefined && exists && !arrayInTheWay) {
    group = (await dest.getItem(name)) as Group;
  }
  for (const key of await source.keys()) await copyNode(await source.getItem(key), group, key, false, options, report);
  report.copied += 1;
}

/** Copies data region by region, one destination chunk at a time, so memory stays one chunk. */
async function copyData(source: ZarrArray, target: ZarrArray, options: RunOptions): Promise<void> {
  const grid = target.cdataShape;
  const regions: { kind: "slice"; start: number; stop: number; step: number }[][] = [];
  if (target.ndim === 0) {
    await target.set(undefined, await source.get(undefined, options), options);
    return;
  }
  const total = grid.reduce((a, b) => a * b, 1);
  for (let flat = 0; flat < total; flat++) {
    const coords = unravel(flat, grid);
    regions.push(
      coords.map((c, d) => ({
        kind: "slice",
        start: c * target.chunks[d]!,
        stop: Math.min(target.shape[d]!, (c + 1) * target.chunks[d]!),
        step: 1,
      })),
    );
  }
  let done = 0;
  await forEachConcurrent(
    regions,
    async (region) => {
      const values = await source.get(region, { signal: options.signal, concurrency: 1 });
      await target.set(
        region,
        { data: values.data, shape: values.shape, strides: cStrides(values.shape) },
        { signal: options.signal, concurrency: 1 },
      );
      options.progress?.(++done, total);
    },
    { ...options, progress: undefined },
  );
}

function unravel(flat: number, grid: readonly number[]): number[] {
  const coords = new Array<number>(grid.length);
  for (let d = grid.length - 1; d >= 0; d--) {
    coords[d] = flat % grid[d]!;
    flat = Math.floor(flat / grid[d]!);
  }
  return coords;
}

const withSlash = (path: string): string => (path === "" ? "" : `${path}/`);

function checkIfExists<T extends string>(value: T, allowed: readonly string[]): T {
  if (!allowed.includes(value))
    throw new ArgumentError(`ifExists must be one of ${allowed.join(", ")}; got ${JSON.stringify(value)}`);
  return value;
}

/** zarr-python's closing log line (numbers with thousands separators, as Python's `{:,}`). */
function summary(report: CopyReport, dryRun: boolean): string {
  const n = (x: number): string => x.toLocaleString("en-US");
  const counts = `${n(report.copied)} copied, ${n(report.skipped)} skipped`;
  return dryRun ? `dry run: ${counts}` : `all done: ${counts}, ${n(report.bytesCopied)} bytes copied`;
}
