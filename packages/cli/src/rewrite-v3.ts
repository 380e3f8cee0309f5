// `zarr copy --zarr-format 3`: a node and everything below it rewritten as Zarr v3 in another
// layout (chunks, shards, codecs), every chunk decoded and encoded again; the key-by-key copy
// (key-copy.ts) is the one that keeps the layout. Groups keep their attributes; arrays their shape,
// data type, fill value, attributes and (a v3 source's) dimension names.

import { create, slice, ZarrArray, type BasicSelectionItem, type CreateOptions, type NdData } from "@z/core";
import { joinPath, type ArrayMetadataV3, type Store, type WritableStore } from "@z/meta";
import { serializeGroupMetadataV3 } from "@z/meta/v3";
import { settleCodecsV3 } from "./array-options-v3.js";
import { CommandError } from "./command.js";
import { readAttributes, readTree, treeNodes, zarrJsonKey, type ArrayNode, type NodeInfo } from "./hierarchy.js";
import type { Progress } from "./progress.js";
import { planSlabs } from "./slabs.js";

export interface RewriteOptions {
  /** The layout flags (`--chunks`, `--shards`, `--codecs`), for every array; each array's own chunks otherwise. */
  readonly layout: Partial<CreateOptions>;
  readonly overwrite: boolean;
  /** Runs once every array's options are checked, before the first write (clearing, parent groups). */
  readonly prepare?: () => Promise<void>;
  readonly bar: Progress;
  readonly signal?: AbortSignal;
}

export interface RewriteReport {
  arrays: number;
  groups: number;
}

const encoder = new TextEncoder();

/** Rewrites the node `root` of `source` (and all below it) as v3 at `to` in `dest` (see the top of this file). */
export async function rewriteAsV3(
  source: Store,
  root: NodeInfo,
  dest: Store & WritableStore,
  to: string,
  options: RewriteOptions,
): Promise<RewriteReport> {
  const nodes = [...treeNodes(await readTree(source, root))];
  const target = (node: NodeInfo): string =>
    node.path === root.path ? to : joinPath(to, node.path.slice(root.path === "" ? 0 : root.path.length + 1));
  // every array's options first: a flag that does not fit one (a --chunks of another rank) is
  // refused before anything is written
  const plans = new Map<string, Partial<CreateOptions>>();
  for (const node of nodes) {
    if (node.kind !== "array") continue;
    const plan = arrayOptions(node, options);
    await settleCodecsV3(plan, node.meta.shape);
    plans.set(node.path, plan);
  }
  await options.prepare?.();
  const report: RewriteReport = { arrays: 0, groups: 0 };
  for (const node of nodes) {
    options.signal?.throwIfAborted();
    const path = target(node);
    const attributes = await readAttributes(source, node);
    if (node.kind === "group") {
      await dest.set(
        zarrJsonKey(path),
        encoder.encode(serializeGroupMetadataV3({ zarrFormat: 3, nodeType: "group", attributes })),
      );
      report.groups += 1;
      continue;
    }
    const from = await ZarrArray.open(source, node.path, { readOnly: true });
    const into = await create({
      ...plans.get(node.path)!,
      store: dest,
      path,
      shape: [...from.shape],
      attributes,
      overwrite: options.overwrite,
      signal: options.signal,
    });
    await copyValues(from, into, options);
    report.arrays += 1;
  }
  return report;
}

/** `create`'s options for the v3 copy of `node`: its type and fill value, the layout flags or its chunks. */
function arrayOptions(node: ArrayNode, options: RewriteOptions): Partial<CreateOptions> {
  const { layout } = options;
  const ndim = node.meta.shape.length;
  for (const flag of ["chunks", "shards"] as const) {
    const given = layout[flag] as readonly unknown[] | undefined;
    if (given !== undefined && given.length !== ndim)
      throw new CommandError(
        `--${flag} has ${given.length} values, ${JSON.stringify(node.path)} has ${ndim} dimensions`,
        { key: node.metaKey },
      );
  }
  const out: Partial<CreateOptions> & Record<string, unknown> = {
    zarrFormat: 3,
    ...layout,
    chunks: layout.chunks ?? [...ownChunks(node)],
  };
  if (node.zarrFormat === 3) {
    out.dtype = node.meta.dataType as never;
    if (node.meta.dimensionNames !== undefined) out.dimensionNames = [...node.meta.dimensionNames];
    out.fillValue = node.meta.fillValue;
    if (node.meta.dtype.kind === "O")
      out.objectCodec = { id: node.meta.dataType === "string" ? "vlen-utf8" : "vlen-bytes" };
    return out;
  }
  const { meta } = node;
  if (meta.dtype.kind === "O") {
    const id = meta.filters?.[0]?.id;
    if (id !== "vlen-utf8" && id !== "vlen-bytes")
      throw new CommandError(
        `${node.metaKey}: an object array of ${id ?? "no object codec"} has no Zarr v3 data type (v3 holds text as string and bytes as bytes)`,
        { key: node.metaKey },
      );
    out.objectCodec = { id };
  } else out.dtype = meta.dtype;
  // a v2 null fill reads as the type's default in zarr-python 3: v3 needs one, and that is it
  if (meta.fillValue !== null) out.fillValue = meta.fillValue;
  return out;
}

/** The chunks reads of the node see: v2's, a v3 array's chunk grid, or a sharded one's inner chunks. */
function ownChunks(node: ArrayNode): readonly number[] {
  if (node.zarrFormat !== 3) return node.meta.chunks;
  const meta: ArrayMetadataV3 = node.meta;
  const [only] = meta.codecs;
  const inner =
    only?.name === "sharding_indexed" && meta.codecs.length === 1 ? only.configuration?.chunk_shape : undefined;
  return Array.isArray(inner) ? (inner as number[]) : meta.chunkShape;
}

/** The values of `from` into `into`, in slabs of whole chunks (shards) of `into` along the first dimension. */
async function copyValues(from: ZarrArray, into: ZarrArray, options: RewriteOptions): Promise<void> {
  const { bar, signal } = options;
  const shape = from.shape;
  if (shape.includes(0)) return;
  if (shape.length === 0) {
    await into.set([], await from.get<NdData>([], { signal }), { signal, progress: bar.callback() });
    return;
  }
  const perRow = shape.slice(1).reduce((a, b) => a * b, 1) * Math.max(1, from.dtype.itemsize);
  const grid = (into.metadata as ArrayMetadataV3).chunkShape;
  const slabs = planSlabs({ kind: "range", start: 0, step: 1, length: shape[0]! }, grid[0]!, perRow);
  for (const [start, stop] of slabs) {
    signal?.throwIfAborted();
    const selection: BasicSelectionItem[] = shape.map((_, d) => (d === 0 ? slice(start, stop) : null));
    const values = await from.get<NdData>(selection, { signal });
    await into.set(selection, values, { signal, progress: bar.callback() });
  }
}
