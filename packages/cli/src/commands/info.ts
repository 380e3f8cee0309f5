import { codecRepr, fixed1, humanSize } from "@z/core";
import {
  encodeFillValue,
  numpyName,
  stringifyJson,
  dataTypeToJSON,
  type JsonValue,
  type NamedConfig,
  type Store,
} from "@z/meta";
import { encodeFillValueV3 } from "@z/meta/v3";
import type { Command } from "../command.js";
import { positionals, stringFlag, UsageError } from "../command.js";
import { datasetInfoText } from "../dataset.js";
import {
  childNames,
  readAttributes,
  readNode,
  requireNode,
  type ArrayNode,
  type ArrayNodeV2,
  type ArrayNodeV3,
  type NodeInfo,
} from "../hierarchy.js";
import { arrayInfoTextV3, groupInfoTextV3, innerChunkShape, shardingOf } from "../info-v3.js";
import { pyTupleRepr } from "../python-repr.js";
import { chunkGrid, chunkSeparator, scanArrayKeys, storedBytes } from "../stats.js";
import { withStore } from "../store-arg.js";
import { joinPath } from "@z/meta";

export const info: Command = {
  name: "info",
  summary: "describe an array or group, like zarr-python's .info",
  usage: "zarr info STORE [--path P] [--json | --dataset]",
  details: `Reads metadata only, so it works for arrays whose codecs this build lacks. A Zarr v2 node is
described as zarr-python 2's .info describes it, a v3 node (zarr.json) as zarr-python 3's
.info_complete(): its format, codecs as Filters, Serializer and Compressors (a sharded array's
inner codecs, with its shard shape and inner chunk shape). A node with both formats' metadata (a
migrated one) is read as v3, as zarr-python 3 reads it, and says so.
  --path P    the node inside the store (default: the root)
  --json      print a JSON object instead (shape, chunks, dtype as in .zarray or data_type and
              codecs as in zarr.json, storage)
  --dataset   print the group as xarray's repr of its dataset: dimensions, coordinates (with the
              values of those named as their dimension, decoded), data variables with their
              decoded dtypes, attributes (reads the group's arrays as xr.open_zarr does)`,
  flags: { path: "string", json: "boolean", dataset: "boolean" },
  async run(args, io) {
    const [location] = positionals(args, 1, 1, "STORE");
    if (args.flags.has("json") && args.flags.has("dataset"))
      throw new UsageError("--json and --dataset exclude each other");
    return withStore(location!, { mode: "read", path: stringFlag(args, "path") }, async ({ store, path }) => {
      if (args.flags.has("dataset")) {
        io.out(await datasetInfoText(store, path));
        return 0;
      }
      const node = await requireNode(store, path);
      if (args.flags.has("json")) io.out(`${stringifyJson(await describe(store, node))}\n`);
      else if (node.kind === "array")
        io.out(node.zarrFormat === 3 ? await arrayInfoV3(store, node) : await arrayInfoText(store, node));
      else if (node.zarrFormat === 3) {
        const { arrays, groups } = await members(store, node.path);
        io.out(
          groupInfoTextV3({
            path: node.path,
            storeType: storeType(store),
            arrays: arrays.length,
            groups: groups.length,
            v2Too: node.v2Too ?? false,
          }),
        );
      } else io.out(await groupInfoText(store, node));
      return 0;
    });
  },
};

const storeType = (store: Store): string => store.constructor.name;

async function members(store: Store, path: string): Promise<{ arrays: string[]; groups: string[] }> {
  const arrays: string[] = [];
  const groups: string[] = [];
  for (const name of await childNames(store, path)) {
    const member = await readNode(store, joinPath(path, name));
    if (member?.kind === "array") arrays.push(name);
    else if (member?.kind === "group") groups.push(name);
  }
  return { arrays, groups };
}

function layout(items: readonly (readonly [string, string])[]): string {
  const width = Math.max(...items.map(([k]) => k.length));
  return `${items.map(([k, v]) => `${k.padEnd(width)} : ${v}`).join("\n")}\n`;
}

/** The layout of `Group.info()` in @z/core (zarr-python's, with this project's type names). */
async function groupInfoText(store: Store, node: NodeInfo): Promise<string> {
  const { arrays, groups } = await members(store, node.path);
  const items: [string, string][] = [
    ["Name", `/${node.path}`],
    ["Type", "Group"],
    ["Read-only", "True"],
    ["Store type", storeType(store)],
    ["No. members", String(arrays.length + groups.length)],
    ["No. arrays", String(arrays.length)],
    ["No. groups", String(groups.length)],
  ];
  if (arrays.length > 0) items.push(["Arrays", arrays.join(", ")]);
  if (groups.length > 0) items.push(["Groups", groups.join(", ")]);
  return layout(items);
}

/** The layout of `ZarrArray.info()` in @z/core (zarr-python's `Array.info`). */
async function arrayInfoText(store: Store, node: ArrayNodeV2): Promise<string> {
  const { meta, path } = node;
  const scan = await scanArrayKeys(store, node);
  const stored = scan === undefined ? undefined : await storedBytes(store, node, scan.chunks);
  const nbytes = meta.shape.reduce((a, b) => a * b, 1) * meta.dtype.itemsize;
  const nchunks = chunkGrid(node).reduce((a, b) => a * b, 1);
  const items: [string, string][] = [];
  if (path !== "") items.push(["Name", `/${path}`]);
  items.push(
    ["Type", "ZarrArray"],
    ["Data type", numpyName(meta.dtype)],
    ["Shape", pyTupleRepr(meta.shape)],
    ["Chunk shape", pyTupleRepr(meta.chunks)],
    ["Order", meta.order],
    ["Read-only", "True"],
  );
  // as @z/core's info(): chunks found under "/" keys although .zarray names no separator
  if ((await chunkSeparator(store, node)).found)
    items.push(["Dimension separator", "/ (found nested in the store; .zarray names none)"]);
  (meta.filters ?? []).forEach((f, i) => items.push([`Filter [${i}]`, codecRepr(f)]));
  items.push(
    ["Compressor", codecRepr(meta.compressor)],
    ["Store type", storeType(store)],
    ["No. bytes", bytesRepr(nbytes)],
  );
  if (stored !== undefined && stored > 0) {
    items.push(["No. bytes stored", bytesRepr(stored)], ["Storage ratio", fixed1(nbytes / stored)]);
  }
  items.push(["Chunks initialized", `${scan?.chunks.length ?? "?"}/${nchunks}`]);
  return layout(items);
}

/** `zarr info` of a v3 array (info-v3.ts). */
async function arrayInfoV3(store: Store, node: ArrayNodeV3): Promise<string> {
  const scan = await scanArrayKeys(store, node);
  return arrayInfoTextV3({
    meta: node.meta,
    fillValueJson: encodeFillValueV3(node.meta.fillValue, node.meta),
    storeType: storeType(store),
    nbytes: nbytesOf(node),
    ...(scan === undefined
      ? {}
      : { stored: await storedBytes(store, node, scan.chunks), initialized: scan.chunks.length }),
    v2Too: node.v2Too,
  });
}

/** A named configuration as zarr.json writes it (no `configuration` when it has none). */
const namedJson = (c: NamedConfig): JsonValue =>
  (c.configuration === undefined ? { name: c.name } : { name: c.name, configuration: c.configuration }) as JsonValue;

const nbytesOf = (node: ArrayNode): number => node.meta.shape.reduce((a, b) => a * b, 1) * node.meta.dtype.itemsize;

async function describe(store: Store, node: NodeInfo): Promise<JsonValue> {
  const attributes = await readAttributes(store, node);
  if (node.kind === "group") {
    const { arrays, groups } = await members(store, node.path);
    return {
      kind: "group",
      path: node.path,
      name: `/${node.path}`,
      zarr_format: node.zarrFormat,
      arrays,
      groups,
      attributes,
    };
  }
  if (node.zarrFormat === 3) return describeV3(store, node, attributes);
  const { meta, path } = node;
  const scan = await scanArrayKeys(store, node);
  const nbytes = meta.shape.reduce((a, b) => a * b, 1) * meta.dtype.itemsize;
  return {
    kind: "array",
    path,
    name: path === "" ? null : `/${path}`,
    zarr_format: node.zarrFormat,
    shape: [...meta.shape],
    chunks: [...meta.chunks],
    dtype: dataTypeToJSON(meta.dtype),
    fill_value: encodeFillValue(meta.fillValue, meta.dtype),
    order: meta.order,
    compressor: meta.compressor,
    filters: meta.filters === null ? null : [...meta.filters],
    dimension_separator: (await chunkSeparator(store, node)).separator,
    dimension_separator_found: (await chunkSeparator(store, node)).found,
    nbytes,
    nbytes_stored: scan === undefined ? null : await storedBytes(store, node, scan.chunks),
    nchunks: chunkGrid(node).reduce((a, b) => a * b, 1),
    nchunks_initialized: scan === undefined ? null : scan.chunks.length,
    attributes,
  };
}

/**
 * `--json` of a v3 array: `zarr.json`'s members as written (`data_type`, `fill_value`, `codecs`,
 * `chunk_key_encoding`, `dimension_names`), `chunks` the chunks reads see (a sharded array's inner
 * chunks) and `shards` the shard shape (null when not sharded), as zarr-python 3's `Array.chunks`
 * and `.shards`; `nchunks` counts what the store holds one key each (shards, for a sharded array).
 */
async function describeV3(store: Store, node: ArrayNodeV3, attributes: JsonValue): Promise<JsonValue> {
  const { meta, path } = node;
  const scan = await scanArrayKeys(store, node);
  const sharding = shardingOf(meta);
  return {
    kind: "array",
    path,
    name: path === "" ? null : `/${path}`,
    zarr_format: 3,
    shape: [...meta.shape],
    chunks: sharding === undefined ? [...meta.chunkShape] : (innerChunkShape(sharding) ?? null),
    shards: sharding === undefined ? null : [...meta.chunkShape],
    data_type: meta.dataType as JsonValue,
    fill_value: encodeFillValueV3(meta.fillValue, meta),
    codecs: meta.codecs.map((c) => namedJson(c)),
    chunk_key_encoding: namedJson(meta.chunkKeyEncoding),
    dimension_names: meta.dimensionNames === undefined ? null : [...meta.dimensionNames],
    v2_metadata: node.v2Too,
    nbytes: nbytesOf(node),
    nbytes_stored: scan === undefined ? null : await storedBytes(store, node, scan.chunks),
    nchunks: chunkGrid(node).reduce((a, b) => a * b, 1),
    nchunks_initialized: scan === undefined ? null : scan.chunks.length,
    attributes,
  };
}

const bytesRepr = (n: number): string => (n > 1024 ? `${n} (${humanSize(n)})` : String(n));
