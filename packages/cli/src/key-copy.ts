// `zarr copy`'s copy of a node's keys, made so that a copy that was stopped part way (killed,
// interrupted, a lost connection) shows as unfinished and is finished by running it again with
// --resume:
//
// - every other key first, the metadata documents after them, the node's own document (`.zarray`,
//   `.zgroup`) the very last: until the copy is complete, there is no node where it goes, rather
//   than an array whose chunks not yet copied read as the fill value;
// - --resume lists the destination once and writes only what is not there. Each write is atomic
//   (a directory store renames a whole temporary file into place, an S3 PUT replaces an object
//   whole), so a key that exists holds the whole value an earlier run wrote: chunks are kept by
//   name, at the cost of one listing. Metadata documents, few and small, are compared byte for byte
//   (attributes may have changed since). --verify also compares every chunk kept (reading both
//   sides), for a source that may have changed between the runs. Keys below the node that the source
//   lacks are removed, so the destination ends as the source is.

import { forEachConcurrent } from "@z/core";
import { isListable, type ListableStore, type Store, type WritableStore } from "@z/meta";
import { CommandError } from "./command.js";
import type { Progress } from "./progress.js";

/** A node's own metadata document: the key whose presence makes the node exist. */
const NODE_DOCUMENTS = new Set([".zarray", ".zgroup", "zarr.json"]);
/** The other metadata documents: attributes and consolidated metadata. */
const OTHER_DOCUMENTS = new Set([".zattrs", ".zmetadata"]);

/** What a key below the copied node is: a node's document, another metadata document, or data. */
export function keyRole(relative: string): "node" | "metadata" | "data" {
  const name = relative.slice(relative.lastIndexOf("/") + 1);
  // a Zarr v1 array's documents, `meta` and `attrs`, are at its store's root
  if (NODE_DOCUMENTS.has(name) || relative === "meta") return "node";
  if (OTHER_DOCUMENTS.has(name) || relative === "attrs") return "metadata";
  return "data";
}

export interface KeyCopyOptions {
  /** The node's keys in the source: `""` for the whole store, else a path ending in `/`. */
  readonly sourcePrefix: string;
  /** Where they go in the destination, the same way. */
  readonly destPrefix: string;
  /** Keep what the destination holds already (see the top of this file). */
  readonly resume: boolean;
  /** With `resume`, compare kept chunks byte for byte too. */
  readonly verify: boolean;
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  /** Bars for the comparison (with `resume`) and for the writes and removals. */
  readonly bars: { readonly verifying: () => Progress; readonly copying: () => Progress };
}

export interface KeyCopyReport {
  /** Keys written, and their bytes. */
  copied: number;
  bytesCopied: number;
  /** Keys the destination held already, equal to the source's (with `resume`). */
  kept: number;
  /** Keys below the node the source lacks, removed from the destination (with `resume`). */
  removed: number;
}

interface Write {
  readonly from: string;
  readonly to: string;
  readonly role: "node" | "metadata" | "data";
}

/** Copies the keys under `sourcePrefix` of `source` to `destPrefix` of `dest` (see the top of this file). */
export async function copyKeys(
  source: ListableStore,
  dest: WritableStore,
  options: KeyCopyOptions,
): Promise<KeyCopyReport> {
  const { sourcePrefix, destPrefix, signal } = options;
  const report: KeyCopyReport = { copied: 0, bytesCopied: 0, kept: 0, removed: 0 };
  const keys = (await source.list(sourcePrefix, { signal })).sort();
  const planned: Write[] = keys.map((from) => {
    const relative = from.slice(sourcePrefix.length);
    return { from, to: destPrefix + relative, role: keyRole(relative) };
  });

  let writes = planned;
  let removals: string[] = [];
  if (options.resume) {
    if (!isListable(dest)) throw new CommandError("--resume needs a destination that can list its keys");
    const present = new Set(await dest.list(destPrefix, { signal }));
    const wanted = new Set(planned.map((w) => w.to));
    removals = [...present].filter((key) => !wanted.has(key)).sort();
    const held = planned.filter((w) => present.has(w.to));
    const compared = held.filter((w) => w.role !== "data" || options.verify);
    const differing = new Set<string>();
    // metadata documents alone may be many GETs too (a hierarchy of many arrays, on S3)
    const bar = options.bars.verifying();
    try {
      await forEachConcurrent(
        compared,
        async (w) => {
          const [a, b] = await Promise.all([source.get(w.from, { signal }), dest.get(w.to, { signal })]);
          if (a !== undefined && b !== undefined && equalBytes(a, b)) return;
          if (w.role === "node")
            throw new CommandError(
              `${w.to} differs from the source's ${w.from}: the destination holds another node, not a copy of this one (pass --overwrite instead of --resume to replace it)`,
              { key: w.to },
            );
          differing.add(w.to);
        },
        { concurrency: options.concurrency, signal, progress: bar.callback() },
        compared.length,
      );
    } finally {
      bar.finish();
    }
    writes = planned.filter((w) => !present.has(w.to) || differing.has(w.to));
    report.kept = planned.length - writes.length;
  }

  // Phases, each finished before the next starts: stale documents out (so no node shows over what
  // follows), data in, stale data out, documents in, the node's own document last of all.
  const isDocument = (key: string): boolean => keyRole(key.slice(destPrefix.length)) !== "data";
  const root = writes.filter((w) => w.role === "node" && !w.to.slice(destPrefix.length).includes("/"));
  const phases: (() => Promise<void>)[] = [
    () => remove(removals.filter(isDocument)),
    () => copy(writes.filter((w) => w.role === "data")),
    () => remove(removals.filter((key) => !isDocument(key))),
    () => copy(writes.filter((w) => w.role !== "data" && !root.includes(w))),
    () => copy(root),
  ];
  const bar = options.bars.copying();
  bar.setTotal(writes.length + removals.length);
  const run = <T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> =>
    forEachConcurrent(
      items,
      async (item) => {
        await task(item);
        bar.tick();
      },
      { concurrency: options.concurrency, signal },
    );
  const copy = (items: readonly Write[]): Promise<void> =>
    run(items, async ({ from, to }) => {
      const value = await source.get(from, { signal });
      if (value === undefined) return; // removed from the source since it was listed
      await dest.set(to, value, { signal });
      report.copied += 1;
      report.bytesCopied += value.length;
    });
  const remove = (items: readonly string[]): Promise<void> =>
    run(items, async (key) => {
      await dest.delete(key, { signal });
      report.removed += 1;
    });
  try {
    for (const phase of phases) await phase();
  } finally {
    bar.finish();
  }
  return report;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** Keys below `prefix` in `store` (none when it cannot list). */
export async function keysBelow(store: Store, prefix: string, signal?: AbortSignal): Promise<string[]> {
  return isListable(store) ? store.list(prefix, { signal }) : [];
}
