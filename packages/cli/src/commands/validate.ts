import { forEachConcurrent, slice, ZarrArray } from "@z/core";
import {
  keyPrefix,
  parseArrayMetadata,
  parseAttributes,
  parseGroupMetadata,
  parseJson,
  type NodeMetadataV3,
  numpyName,
  type DataType,
  stringifyJson,
  V1_ATTRS_KEY,
  V1_META_KEY,
  ZarrError,
  type ArrayMetadata,
  type JsonValue,
  type Store,
} from "@z/meta";
import { chunkKeyV3, dataTypeToV3, nodeMetadataV3ToJson, parseDataTypeV3, parseNodeMetadataV3 } from "@z/meta/v3";
import type { Command } from "../command.js";
import { positionals, stringFlag, UsageError } from "../command.js";
import { gridChunks, readNode, zarrJsonKey, type ArrayNode, type ArrayNodeV3 } from "../hierarchy.js";
import { progressBar } from "../progress.js";
import { chunkCoordsOf, chunkSeparator, scanArrayKeys } from "../stats.js";
import { listsChunks, withStore } from "../store-arg.js";
import { removeTemporaryFile } from "@z/store-fs";
import { STALE_AFTER_MS, temporaryFiles } from "../temporaries.js";

export interface Problem {
  readonly level: "error" | "warning";
  readonly key: string;
  readonly message: string;
}

const METADATA = /(^|\/)(\.z(array|group|attrs)|zarr\.json)$/;
/** v2's documents, which `.zmetadata` gathers. */
const METADATA_V2 = /(^|\/)\.z(array|group|attrs)$/;

export const validate: Command = {
  name: "validate",
  summary: "check every metadata document and decode every chunk; exit 1 on any error",
  usage: "zarr validate STORE [--path P] [--json] [--strict] [--fix]",
  details: `Checks that every .zarray, .zgroup, .zattrs and zarr.json parses as zarr-python would read it,
that every array's codecs exist and accept their configs, that every stored chunk decodes to a whole
chunk, that .zmetadata and a v3 group's inline consolidated metadata (when present) match the
documents, and that a node with both formats' metadata (a migrated one) describes one array in
both. Each problem is printed with its key. Warnings (keys that belong to no node, chunks outside
an array's grid, nodes whose parent is not a group, v2 nodes inside a v3 group, temporary files
that writes killed part way left behind) do not fail the check unless --strict.
  --path P    check only the hierarchy below P
  --json      print {"ok", "arrays", "groups", "chunks", "problems": [{"level", "key", "message"}],
              "removed": [path, ...]}
  --strict    warnings fail the check too
  --fix       remove the temporary files of killed writes (z's .<name>.<hex>.partial and
              zarr-python's <name>.<hex>.partial in a directory store, the working copies beside a
              zip file) once unwritten for a minute, and print each one removed; nothing else is
              changed`,
  flags: { path: "string", json: "boolean", strict: "boolean", fix: "boolean" },
  async run(args, io) {
    const [location] = positionals(args, 1, 1, "STORE");
    return withStore(
      location!,
      { mode: "read", path: stringFlag(args, "path") },
      async ({ store, path, location: where }) => {
        if (!listsChunks(store)) throw new UsageError(`${location} cannot list its keys`);
        const bar = progressBar(io, "validating");
        let report: Report;
        try {
          report = await validateStore(store, path, {
            signal: io.signal,
            onTotal: (n) => bar.setTotal(n),
            onChunk: () => bar.tick(),
          });
        } finally {
          bar.finish();
        }
        // What killed writes left: not keys, so the store never lists them.
        const problems = [...report.problems];
        const removed: string[] = [];
        for (const leftover of await temporaryFiles(where, path)) {
          const { name, file, stale } = leftover;
          if (args.flags.has("fix") && stale) {
            if (await removeTemporaryFile(file.path)) {
              removed.push(name);
              if (!args.flags.has("json"))
                io.out(`removed: ${name}: temporary file of a killed write (${file.size} bytes)\n`);
            }
            continue;
          }
          problems.push({
            level: "warning",
            key: name,
            message: stale
              ? `temporary file left by a write killed part way (${file.size} bytes, last written ${file.modified.toISOString()}); zarr validate --fix removes it`
              : `temporary file of a write in progress, or of one killed less than ${STALE_AFTER_MS / 1000} s ago (${file.size} bytes); --fix leaves it until then`,
          });
        }
        problems.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        const errors = problems.filter((p) => p.level === "error").length;
        const warnings = problems.length - errors;
        const ok = errors === 0 && (!args.flags.has("strict") || warnings === 0);
        if (args.flags.has("json")) {
          const json: JsonValue = {
            ok,
            arrays: report.arrays,
            groups: report.groups,
            chunks: report.chunks,
            problems: problems.map((p) => ({ ...p })),
            removed,
          };
          io.out(`${stringifyJson(json)}\n`);
        } else {
          for (const p of problems) io.out(`${p.level}: ${p.key}: ${p.message}\n`);
          io.out(
            `${ok ? "ok" : "FAILED"}: ${report.arrays} arrays, ${report.groups} groups, ${report.chunks} chunks checked; ` +
              `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}` +
              (removed.length > 0
                ? `; removed ${removed.length} temporary file${removed.length === 1 ? "" : "s"}`
                : "") +
              "\n",
          );
        }
        return ok ? 0 : 1;
      },
    );
  },
};

export interface Report {
  readonly arrays: number;
  readonly groups: number;
  readonly chunks: number;
  readonly problems: readonly Problem[];
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Checks everything under `path`; problems come back sorted by key. */
export async function validateStore(
  store: Store & { list(prefix?: string): Promise<string[]> },
  path: string,
  options: { signal?: AbortSignal; onTotal?: (chunks: number) => void; onChunk?: () => void } = {},
): Promise<Report> {
  const prefix = keyPrefix(path);
  const keys = (await store.list(prefix)).sort();
  const problems: Problem[] = [];
  const add = (level: Problem["level"], key: string, text: string): void =>
    void problems.push({ level, key, message: text });
  const dirOf = (key: string): string => key.slice(0, Math.max(0, key.lastIndexOf("/")));

  // metadata documents
  // dir -> the array there (undefined: one whose document does not parse, still a node: its keys are no strays)
  const arrays = new Map<string, ArrayNode | undefined>();
  const groups = new Set<string>();
  const v3Groups = new Set<string>();
  const v3Dirs = new Set<string>();
  const v2Arrays = new Map<string, ArrayMetadata>();
  for (const key of keys.filter((k) => METADATA.test(k))) {
    const dir = dirOf(key);
    const bytes = await store.get(key, { signal: options.signal });
    if (bytes === undefined) continue;
    const name = key.slice(key.lastIndexOf("/") + 1);
    if (name === ".zarray") arrays.set(dir, arrays.get(dir));
    else if (name === ".zgroup") groups.add(dir);
    else if (name === "zarr.json") v3Dirs.add(dir);
    try {
      if (name === ".zarray") v2Arrays.set(dir, parseArrayMetadata(bytes, key));
      else if (name === ".zgroup") parseGroupMetadata(bytes, key);
      else if (name === "zarr.json") {
        const node = parseNodeMetadataV3(bytes, key);
        if (node.nodeType === "group") {
          groups.add(dir);
          v3Groups.add(dir);
        } else arrays.set(dir, undefined);
      } else parseAttributes(bytes, key);
    } catch (error) {
      if (name === "zarr.json") arrays.set(dir, arrays.get(dir)); // a node of some kind: its keys are no strays
      add("error", key, message(error));
    }
  }
  // each node as readers see it: v3's zarr.json where there is one (as zarr-python 3 reads it)
  for (const dir of [...arrays.keys()]) {
    try {
      const node = await readNode(store, dir);
      if (node?.kind === "array") arrays.set(dir, node);
    } catch {
      // reported with its document above
    }
  }
  // a spec-v1 array: `meta` (and `attrs`) at the root of a store with no v2 or v3 documents there
  const v1 = path === "" && !arrays.has("") && !groups.has("") && keys.includes(V1_META_KEY);
  if (v1) {
    arrays.set("", undefined);
    try {
      const node = await readNode(store, "");
      if (node?.kind === "array") arrays.set("", node);
    } catch (error) {
      add("error", V1_META_KEY, message(error));
    }
  }
  for (const dir of groups) {
    if (!arrays.has(dir)) continue;
    const present = [".zgroup", ".zarray", "zarr.json"].filter((name) => keys.includes(keyPrefix(dir) + name));
    add(
      "error",
      keyPrefix(dir) + (v3Dirs.has(dir) ? "zarr.json" : ".zgroup"),
      present.length === 2 && !v3Dirs.has(dir)
        ? "a node cannot be both an array and a group (.zarray is there too)"
        : `a node cannot be both an array and a group (${present.join(", ")} say different things)`,
    );
  }
  for (const dir of v3Dirs) {
    const node = arrays.get(dir);
    const v2 = v2Arrays.get(dir);
    if (node?.zarrFormat === 3 && v2 !== undefined) {
      const separator = await chunkSeparator(store, {
        kind: "array",
        path: dir,
        meta: v2,
        zarrFormat: 2,
        metaKey: `${keyPrefix(dir)}.zarray`,
        attrsKey: `${keyPrefix(dir)}.zattrs`,
      });
      const disagreement = formatsDisagree(node, v2, separator.separator);
      if (disagreement !== undefined)
        add(
          "error",
          zarrJsonKey(dir),
          `zarr.json and .zarray describe different arrays (${disagreement}): zarr-python 3 and z read zarr.json, zarr-python 2 .zarray; one was changed without the other`,
        );
    }
  }
  const nodes = new Set([...arrays.keys(), ...groups]);
  for (const key of keys.filter((k) => k.endsWith(".zattrs"))) {
    if (!nodes.has(dirOf(key)))
      add("warning", key, "attributes of no array or group (no .zarray or .zgroup beside them)");
  }
  for (const node of nodes) {
    if (node === path) continue;
    const parent = dirOf(`${node}/x`).split("/").slice(0, -1).join("/");
    const own = v3Dirs.has(node) ? zarrJsonKey(node) : `${keyPrefix(node)}${arrays.has(node) ? ".zarray" : ".zgroup"}`;
    if (!groups.has(parent) && parent.length >= path.length)
      add("warning", own, `its parent ${parent === "" ? "(the root)" : JSON.stringify(parent)} is not a group`);
    else if (v3Groups.has(parent) && !v3Dirs.has(node))
      add(
        "warning",
        own,
        `its parent ${parent === "" ? "(the root)" : JSON.stringify(parent)} is a Zarr v3 group, whose members zarr-python 3 looks for by their zarr.json: this v2 node is not one of them (zarr migrate v3 gives it one)`,
      );
  }

  // keys that belong to no node
  const arrayDirs = [...arrays.keys()].sort((a, b) => b.length - a.length);
  const owner = (key: string): string | undefined => arrayDirs.find((dir) => dir === "" || key.startsWith(`${dir}/`));
  const v1Documents = [V1_META_KEY, V1_ATTRS_KEY];
  for (const key of keys) {
    if (
      METADATA.test(key) ||
      (v1 && v1Documents.includes(key)) ||
      key === `${prefix}.zmetadata` ||
      key.endsWith("/.zmetadata")
    )
      continue;
    if (owner(key) === undefined) add("warning", key, "belongs to no array (not inside an array's directory)");
  }

  // chunks
  const plans: { node: ArrayNode; array: ZarrArray; keys: string[]; separator: "." | "/" }[] = [];
  for (const [dir, node] of arrays) {
    if (node === undefined) continue;
    let array: ZarrArray;
    try {
      array = await ZarrArray.open(store, dir, { readOnly: true });
    } catch (error) {
      add("error", node.metaKey, `cannot decode this array's chunks: ${message(error)}`);
      continue;
    }
    const scan = (await scanArrayKeys(store, node))!;
    const grid = gridChunks(node);
    for (const key of scan.others) {
      if (owner(key) !== dir) continue; // a nested node's key
      const coords = chunkCoordsOf(node, scan.separator, key.slice(keyPrefix(dir).length));
      add(
        "warning",
        key,
        coords
          ? `chunk outside the grid of ${JSON.stringify(dir)} (shape [${node.meta.shape.join(", ")}], chunks [${grid.join(", ")}])`
          : `not a chunk key of array ${JSON.stringify(dir)}`,
      );
    }
    plans.push({ node, array, keys: scan.chunks, separator: scan.separator });
  }
  const jobs = plans.flatMap((p) => p.keys.map((key) => ({ ...p, key })));
  options.onTotal?.(jobs.length);
  await forEachConcurrent(
    jobs,
    async ({ node, array, key, separator }) => {
      const coords = chunkCoordsOf(node, separator, key.slice(keyPrefix(node.path).length))!;
      const grid = gridChunks(node);
      const region = coords.map((c, d) => slice(c * grid[d]!, Math.min((c + 1) * grid[d]!, array.shape[d]!)));
      try {
        await array.get(region, { signal: options.signal, concurrency: 1 });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        add("error", error instanceof ZarrError && error.key !== undefined ? error.key : key, message(error));
      }
      options.onChunk?.();
    },
    { signal: options.signal, concurrency: 8 },
  );

  // consolidated metadata
  const consolidatedKey = `${prefix}.zmetadata`;
  const consolidated = await store.get(consolidatedKey, { signal: options.signal });
  if (consolidated !== undefined) await checkConsolidated(consolidated, consolidatedKey, prefix, keys, store, add);
  for (const dir of v3Groups) await checkConsolidatedV3(store, dir, keys, add);

  problems.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { arrays: arrays.size, groups: groups.size, chunks: jobs.length, problems };
}

/**
 * How a v3 array's `zarr.json` and the `.zarray` beside it (a migrated array) disagree: shape, chunk
 * grid, element type or chunk keys; undefined when they describe the same stored array.
 */
function formatsDisagree(node: ArrayNodeV3, v2: ArrayMetadata, separator: "." | "/"): string | undefined {
  const v3 = node.meta;
  const list = (a: readonly number[]) => `[${a.join(", ")}]`;
  if (list(v3.shape) !== list(v2.shape)) return `shape ${list(v3.shape)} and ${list(v2.shape)}`;
  if (list(v3.chunkShape) !== list(v2.chunks)) return `chunks ${list(v3.chunkShape)} and ${list(v2.chunks)}`;
  // the elements v3 holds (little-endian: the bytes codec has the stored order) against v2's
  if (v2.dtype.kind !== "O") {
    let v2AsV3: DataType | undefined;
    try {
      v2AsV3 = parseDataTypeV3(dataTypeToV3(v2.dtype) as JsonValue).dtype;
    } catch {
      v2AsV3 = undefined; // a dtype v3 has no type for
    }
    if (v2AsV3 === undefined || numpyName(v2AsV3) !== numpyName(v3.dtype))
      return `data type ${JSON.stringify(v3.dataType)} and ${numpyName(v2.dtype)}`;
  }
  const ndim = v3.shape.length;
  const probe = Array.from({ length: ndim }, (_, i) => i + 1);
  const v3Key = chunkKeyV3(probe, v3.chunkKeys);
  const v2Key = ndim === 0 ? "0" : probe.join(separator);
  if (v3Key !== v2Key) return `chunk keys such as ${v3Key} and ${v2Key}`;
  return undefined;
}

/**
 * A v3 group's inline `consolidated_metadata` (zarr-python 3's `consolidate_metadata`): each entry
 * must be the `zarr.json` of the node at its path, and each node below the group must have one. A
 * group entry's own `consolidated_metadata` is not compared (zarr-python 3 writes it as it likes).
 */
async function checkConsolidatedV3(
  store: Store,
  dir: string,
  keys: readonly string[],
  add: (level: Problem["level"], key: string, text: string) => void,
): Promise<void> {
  const key = zarrJsonKey(dir);
  const bytes = await store.get(key);
  if (bytes === undefined) return;
  let group: NodeMetadataV3;
  try {
    group = parseNodeMetadataV3(bytes, key);
  } catch {
    return; // reported with the document itself
  }
  if (group.nodeType !== "group" || group.consolidatedMetadata === undefined) return;
  const entries = group.consolidatedMetadata.metadata;
  const prefix = keyPrefix(dir);
  const below = keys
    .filter((k) => k.startsWith(prefix) && k !== key && /(^|\/)zarr\.json$/.test(k))
    .map((k) => k.slice(prefix.length, -"/zarr.json".length));
  const comparable = (node: NodeMetadataV3): string => {
    const json = { ...nodeMetadataV3ToJson(node) };
    delete json.consolidated_metadata;
    return stringifyJson(json);
  };
  for (const name of entries.keys())
    if (!below.includes(name))
      add(
        "error",
        key,
        `stale consolidated metadata: it has ${JSON.stringify(name)}, which has no zarr.json (run \`zarr consolidate\`)`,
      );
  for (const name of below) {
    const entry = entries.get(name);
    if (entry === undefined) {
      add("error", key, `stale consolidated metadata: it lacks ${JSON.stringify(name)} (run \`zarr consolidate\`)`);
      continue;
    }
    const actual = await store.get(`${prefix + name}/zarr.json`);
    if (actual === undefined) continue;
    try {
      if (comparable(parseNodeMetadataV3(actual, `${prefix + name}/zarr.json`)) !== comparable(entry))
        add(
          "error",
          key,
          `stale consolidated metadata: its ${JSON.stringify(name)} differs from ${prefix}${name}/zarr.json (run \`zarr consolidate\`)`,
        );
    } catch {
      // reported with the document itself
    }
  }
}

async function checkConsolidated(
  bytes: Uint8Array,
  key: string,
  prefix: string,
  keys: readonly string[],
  store: Store,
  add: (level: Problem["level"], key: string, text: string) => void,
): Promise<void> {
  let doc: JsonValue;
  try {
    doc = parseJson(bytes, key);
  } catch (error) {
    add("error", key, message(error));
    return;
  }
  const obj = doc as Record<string, JsonValue> | null;
  if (typeof obj !== "object" || obj === null || Array.isArray(obj) || obj.zarr_consolidated_format !== 1) {
    add("error", key, 'not consolidated metadata: expected {"zarr_consolidated_format": 1, "metadata": {...}}');
    return;
  }
  const metadata = obj.metadata as Record<string, JsonValue> | undefined;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    add("error", key, '"metadata" must be an object of metadata documents');
    return;
  }
  const present = keys.filter((k) => METADATA_V2.test(k));
  const relative = new Set(present.map((k) => k.slice(prefix.length)));
  for (const name of Object.keys(metadata)) {
    if (!relative.has(name))
      add("error", key, `stale: it has ${JSON.stringify(name)}, which the store does not (run \`zarr consolidate\`)`);
  }
  for (const full of present) {
    const name = full.slice(prefix.length);
    if (!(name in metadata)) {
      add("error", key, `stale: it lacks ${JSON.stringify(name)} (run \`zarr consolidate\`)`);
      continue;
    }
    const value = await store.get(full);
    if (value === undefined) continue;
    let actual: JsonValue;
    try {
      actual = parseJson(value, full);
    } catch {
      continue; // reported with the document itself
    }
    if (stringifyJson(actual) !== stringifyJson(metadata[name]!))
      add("error", key, `stale: its ${JSON.stringify(name)} differs from ${full} (run \`zarr consolidate\`)`);
  }
}
