import { forEachConcurrent, slice, ZarrArray } from "@z/core";
import {
  keyPrefix,
  parseArrayMetadata,
  parseAttributes,
  parseGroupMetadata,
  parseJson,
  stringifyJson,
  V1_ATTRS_KEY,
  V1_META_KEY,
  ZarrError,
  type ArrayMetadata,
  type JsonValue,
  type Store,
} from "@z/meta";
import type { Command } from "../command.js";
import { positionals, stringFlag, UsageError } from "../command.js";
import { readNode } from "../hierarchy.js";
import { progressBar } from "../progress.js";
import { scanArrayKeys } from "../stats.js";
import { listsChunks, withStore } from "../store-arg.js";
import { removeTemporaryFile } from "@z/store-fs";
import { STALE_AFTER_MS, temporaryFiles } from "../temporaries.js";
import { parseChunkKey } from "@z/meta";

export interface Problem {
  readonly level: "error" | "warning";
  readonly key: string;
  readonly message: string;
}

const METADATA = /(^|\/)\.z(array|group|attrs)$/;

export const validate: Command = {
  name: "validate",
  summary: "check every metadata document and decode every chunk; exit 1 on any error",
  usage: "zarr validate STORE [--path P] [--json] [--strict] [--fix]",
  details: `Checks that every .zarray, .zgroup and .zattrs parses as zarr-python would read it, that
every array's codecs exist and accept their configs, that every stored chunk decodes to a whole
chunk, and that .zmetadata (when present) matches the documents. Each problem is printed with its
key. Warnings (keys that belong to no node, chunks outside an array's grid, nodes whose parent is
not a group, temporary files that writes killed part way left behind) do not fail the check
unless --strict.
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
  const arrays = new Map<string, ArrayMetadata | undefined>();
  const groups = new Set<string>();
  for (const key of keys.filter((k) => METADATA.test(k))) {
    const dir = dirOf(key);
    const bytes = await store.get(key, { signal: options.signal });
    if (bytes === undefined) continue;
    // a node whose document does not parse still counts as a node (its keys are not strays)
    if (key.endsWith(".zarray")) arrays.set(dir, undefined);
    else if (key.endsWith(".zgroup")) groups.add(dir);
    try {
      if (key.endsWith(".zarray")) arrays.set(dir, parseArrayMetadata(bytes, key));
      else if (key.endsWith(".zgroup")) parseGroupMetadata(bytes, key);
      else parseAttributes(bytes, key);
    } catch (error) {
      add("error", key, message(error));
    }
  }
  // a spec-v1 array: `meta` (and `attrs`) at the root of a store with no v2 documents there
  const v1 = path === "" && !arrays.has("") && !groups.has("") && keys.includes(V1_META_KEY);
  const documents = (dir: string): string[] =>
    v1 && dir === "" ? [V1_META_KEY, V1_ATTRS_KEY] : [`${keyPrefix(dir)}.zarray`, `${keyPrefix(dir)}.zattrs`];
  if (v1) {
    arrays.set("", undefined);
    try {
      const node = await readNode(store, "");
      if (node?.kind === "array") arrays.set("", node.meta);
    } catch (error) {
      add("error", V1_META_KEY, message(error));
    }
  }
  for (const dir of groups)
    if (arrays.has(dir))
      add("error", `${keyPrefix(dir)}.zgroup`, "a node cannot be both an array and a group (.zarray is there too)");
  const nodes = new Set([...arrays.keys(), ...groups]);
  for (const key of keys.filter((k) => k.endsWith(".zattrs"))) {
    if (!nodes.has(dirOf(key)))
      add("warning", key, "attributes of no array or group (no .zarray or .zgroup beside them)");
  }
  for (const node of nodes) {
    if (node === path) continue;
    const parent = dirOf(`${node}/x`).split("/").slice(0, -1).join("/");
    if (!groups.has(parent) && parent.length >= path.length)
      add(
        "warning",
        `${keyPrefix(node)}${arrays.has(node) ? ".zarray" : ".zgroup"}`,
        `its parent ${parent === "" ? "(the root)" : JSON.stringify(parent)} is not a group`,
      );
  }

  // keys that belong to no node
  const arrayDirs = [...arrays.keys()].sort((a, b) => b.length - a.length);
  const owner = (key: string): string | undefined => arrayDirs.find((dir) => dir === "" || key.startsWith(`${dir}/`));
  for (const key of keys) {
    if (
      METADATA.test(key) ||
      (v1 && documents("").includes(key)) ||
      key === `${prefix}.zmetadata` ||
      key.endsWith("/.zmetadata")
    )
      continue;
    if (owner(key) === undefined) add("warning", key, "belongs to no array (not inside an array's directory)");
  }

  // chunks
  const plans: { path: string; array: ZarrArray; keys: string[]; separator: "." | "/" }[] = [];
  for (const [dir, meta] of arrays) {
    if (meta === undefined) continue;
    let array: ZarrArray;
    try {
      array = await ZarrArray.open(store, dir, { readOnly: true });
    } catch (error) {
      add("error", documents(dir)[0]!, `cannot decode this array's chunks: ${message(error)}`);
      continue;
    }
    const scan = (await scanArrayKeys(store, dir, meta, documents(dir)))!;
    for (const key of scan.others) {
      if (owner(key) !== dir) continue; // a nested node's key
      const rest = key.slice(keyPrefix(dir).length);
      const coords = parseChunkKey(rest, meta.shape.length, scan.separator);
      add(
        "warning",
        key,
        coords
          ? `chunk outside the grid of ${JSON.stringify(dir)} (shape [${meta.shape.join(", ")}], chunks [${meta.chunks.join(", ")}])`
          : `not a chunk key of array ${JSON.stringify(dir)}`,
      );
    }
    plans.push({ path: dir, array, keys: scan.chunks, separator: scan.separator });
  }
  const jobs = plans.flatMap((p) => p.keys.map((key) => ({ ...p, key })));
  options.onTotal?.(jobs.length);
  await forEachConcurrent(
    jobs,
    async ({ path: dir, array, key, separator }) => {
      const coords = parseChunkKey(key.slice(keyPrefix(dir).length), array.ndim, separator)!;
      const region = coords.map((c, d) =>
        slice(c * array.chunks[d]!, Math.min((c + 1) * array.chunks[d]!, array.shape[d]!)),
      );
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

  problems.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { arrays: arrays.size, groups: groups.size, chunks: jobs.length, problems };
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
  const present = keys.filter((k) => METADATA.test(k));
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
