import {
  encodeGroupMetadata,
  isListable,
  isWritable,
  joinPath,
  keyPrefix,
  type Store,
  type WritableStore,
} from "@z/meta";
import { serializeGroupMetadataV3 } from "@z/meta/v3";
import { DirectoryStore, removeTemporaryFile } from "@z/store-fs";
import type { Command } from "../command.js";
import {
  CommandError,
  integerFlag,
  parseIntegerList,
  positionals,
  stringFlag,
  UsageError,
  type ParsedArgs,
} from "../command.js";
import type { CreateOptions } from "@z/core";
import { codecsFlag } from "../array-options-v3.js";
import { rewriteAsV3, type RewriteReport } from "../rewrite-v3.js";
import { arrayKey, groupKey, readNode, requireNode, zarrJsonKey } from "../hierarchy.js";
import { copyKeys, keysBelow, type KeyCopyReport } from "../key-copy.js";
import { progressBar } from "../progress.js";
import { describeLocation, listsChunks, withStore } from "../store-arg.js";
import { temporaryFiles } from "../temporaries.js";

export const copy: Command = {
  name: "copy",
  summary: "copy an array or group, key by key, from one store to another",
  usage:
    "zarr copy SRC DST [--path P] [--dest-path Q] [--overwrite | --resume [--verify]] [--concurrency N]\n       zarr copy SRC DST --zarr-format 3 [--chunks 10,10] [--shards 100,100] [--codecs JSON] [--path P] [--dest-path Q] [--overwrite]",
  details: `Copies every key of the node (metadata, attributes, chunks and everything below it) byte for
byte, so nothing is decoded: codecs this build lacks are no obstacle. Either format is copied as it
is. Groups above the node are created in DST, of the node's format.
Chunks are written first and the metadata documents last, the node's own (.zarray, .zgroup,
zarr.json) the very last, so a copy that is stopped part way (killed, Ctrl-C, a lost connection) leaves no array
or group in DST, rather than one whose missing chunks read as the fill value. Run the same copy
again with --resume to finish it.
  --path P        the node in SRC (default: the whole store)
  --dest-path Q   where it goes in DST (default: the same path)
  --overwrite     replace what is at that path in DST (default: refuse when anything is there)
  --resume        finish a copy that was stopped, or bring a finished one up to date, writing only
                  what DST lacks: one listing of DST, then chunks it holds are kept by name (every
                  write is atomic: a directory store renames a whole file into place, an S3 PUT
                  replaces an object whole, so a chunk there is one a run wrote whole), metadata
                  documents are compared byte for byte and rewritten when they differ, keys below
                  the node that SRC lacks are removed, and so are the temporary files that writes
                  cut short left in a directory. Over a finished copy it writes nothing. A node in
                  DST whose .zarray or .zgroup differs from SRC's is refused (use --overwrite)
  --verify        with --resume, compare every chunk DST holds with SRC's too (reads both), for a
                  SRC that may have changed since the first run; those that differ are written
  --concurrency N keys copied at once (default 8; more hides the latency of remote stores such as S3)
With --zarr-format 3 the node is rewritten instead: every array as a Zarr v3 array (zarr.json) of
the same shape, data type, fill value and attributes, every group as a v3 group, each chunk
decoded and encoded again (its codecs must be in this build), as zarr-python 3's create_array
would write them:
  --chunks 10,10  the chunks of every array (default: each array's own)
  --shards S      the shards of every array, a multiple of the chunks (see \`zarr create --help\`)
  --codecs JSON   the codecs of every array (with --shards: of the inner chunks); default bytes,
                  then zstd level 0
A rewrite stopped part way leaves what it wrote: run it again with --overwrite.`,
  flags: {
    path: "string",
    "dest-path": "string",
    overwrite: "boolean",
    resume: "boolean",
    verify: "boolean",
    concurrency: "string",
    "zarr-format": "string",
    chunks: "string",
    shards: "string",
    codecs: "string",
  },
  async run(args, io) {
    const [srcArg, dstArg] = positionals(args, 2, 2, "SRC DST");
    const concurrency = integerFlag(args, "concurrency", { min: 1, max: 1024 }) ?? 8;
    const overwrite = args.flags.has("overwrite");
    const resume = args.flags.has("resume");
    const verify = args.flags.has("verify");
    if (overwrite && resume) throw new UsageError("--overwrite and --resume exclude each other");
    if (verify && !resume) throw new UsageError("--verify goes with --resume");
    const rewrite = layoutFlags(args);
    if (rewrite !== undefined && resume)
      throw new UsageError(
        "--resume finishes a key-by-key copy; a --zarr-format 3 rewrite starts again with --overwrite",
      );
    return withStore(srcArg!, { mode: "read", path: stringFlag(args, "path") }, (src) =>
      withStore(dstArg!, { mode: "write" }, async (dst) => {
        const destPath = joinPath(dst.path, stringFlag(args, "dest-path") ?? src.path);
        if (!listsChunks(src.store)) throw new UsageError(`${srcArg} cannot list its keys`);
        if (!isWritable(dst.store)) throw new UsageError(`${dstArg} is read-only`);
        if (resume && !isListable(dst.store)) throw new UsageError(`--resume: ${dstArg} cannot list its keys`);
        if (
          src.location.kind === dst.location.kind &&
          describeLocation(src.location) === describeLocation(dst.location)
        ) {
          const [a, b] = [src.path, destPath];
          if (a === "" || b === "" || a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`)) {
            throw new UsageError("source and destination overlap in the same store");
          }
        }
        const source = await requireNode(src.store, src.path);
        if (rewrite !== undefined) {
          if (!isWritable(dst.store)) throw new UsageError(`${dstArg} is read-only`);
          const existing = await readNode(dst.store, destPath);
          if (existing !== undefined && !args.flags.has("overwrite"))
            throw new CommandError(
              `${dstArg} already has a node at ${destPath === "" ? "the root" : JSON.stringify(destPath)} (pass --overwrite to replace it)`,
              { key: existing.metaKey },
            );
          const bar = progressBar(io, "rewriting");
          let report: RewriteReport;
          try {
            report = await rewriteAsV3(src.store, source, dst.store, destPath, {
              layout: rewrite,
              overwrite: args.flags.has("overwrite"),
              prepare: async () => {
                if (existing !== undefined) await removeSubtree(dst.store as WritableStore, destPath);
                await requireParentGroups(dst.store as Store & WritableStore, destPath, 3);
              },
              bar,
              signal: io.signal,
            });
          } finally {
            bar.finish();
          }
          io.err(
            `rewrote ${report.arrays} arrays and ${report.groups} groups as Zarr v3 into ${dstArg}${destPath === "" ? "" : ` at ${destPath}`}\n`,
          );
          return 0;
        }
        const store = dst.store;
        const where = destPath === "" ? "the root" : JSON.stringify(destPath);
        if (!resume) {
          const node = await readNode(store, destPath);
          // keys but no node: what a copy stopped part way leaves (its metadata comes last)
          const left = node === undefined ? (await keysBelow(store, keyPrefix(destPath), io.signal)).length : 0;
          if ((node !== undefined || left > 0) && !overwrite)
            throw new CommandError(
              node !== undefined
                ? `${dstArg} already has a node at ${where} (pass --overwrite to replace it, or --resume to bring it up to date)`
                : `${dstArg} holds ${left} keys at ${where} but no array or group: a copy that was stopped part way? Pass --resume to finish it, or --overwrite to start again`,
              { key: arrayKey(destPath) },
            );
          if (node !== undefined || left > 0) await removeSubtree(store, destPath);
        }
        await requireParentGroups(store, destPath, source.zarrFormat === 3 ? 3 : 2);
        const leftovers = dst.location.kind === "directory" ? await temporaryFiles(dst.location, destPath) : [];
        for (const { file } of leftovers) await removeTemporaryFile(file.path);

        const report: KeyCopyReport = await copyKeys(src.store, store, {
          sourcePrefix: keyPrefix(src.path),
          destPrefix: keyPrefix(destPath),
          resume,
          verify,
          concurrency,
          signal: io.signal,
          bars: {
            verifying: () => progressBar(io, verify ? "verifying" : "comparing metadata"),
            copying: () => progressBar(io, "copying"),
          },
        });
        const kept = resume ? `, kept ${report.kept} it held already` : "";
        const removed =
          report.removed + leftovers.length > 0
            ? `, removed ${report.removed} keys the source lacks and ${leftovers.length} temporary files`
            : "";
        io.err(
          `copied ${report.copied} keys (${report.bytesCopied} bytes) to ${dstArg}${destPath === "" ? "" : ` at ${destPath}`}${kept}${removed}\n`,
        );
        return 0;
      }),
    );
  },
};

/** `--chunks`, `--shards` and `--codecs` of a `--zarr-format 3` rewrite; undefined for a key-by-key copy. */
function layoutFlags(args: ParsedArgs): Partial<CreateOptions> | undefined {
  const format = stringFlag(args, "zarr-format");
  const layout = ["chunks", "shards", "codecs"].filter((f) => args.flags.has(f));
  if (format === undefined) {
    if (layout.length > 0)
      throw new UsageError(
        `${layout.map((f) => `--${f}`).join(", ")}: a copy keeps the layout; rewrite it with --zarr-format 3`,
      );
    return undefined;
  }
  if (format !== "3")
    throw new UsageError(
      `--zarr-format must be 3 (a rewrite into Zarr v3), got ${JSON.stringify(format)}; without it the node is copied as it is`,
    );
  const out: Partial<CreateOptions> & Record<string, unknown> = {};
  const chunks = stringFlag(args, "chunks");
  if (chunks !== undefined) {
    const list = parseIntegerList(chunks, "--chunks");
    if (list.some((c) => c === 0)) throw new UsageError("--chunks must be positive");
    out.chunks = list;
  }
  const shards = stringFlag(args, "shards");
  if (shards !== undefined) {
    if (chunks === undefined) throw new UsageError("--shards needs --chunks: the inner chunks each shard is made of");
    const list = parseIntegerList(shards, "--shards");
    const inner = out.chunks as number[];
    if (list.length !== inner.length || list.some((s, i) => s === 0 || s % inner[i]! !== 0))
      throw new UsageError(
        `--shards [${list.join(", ")}] must be a multiple of --chunks [${inner.join(", ")}] in each dimension`,
      );
    out.shards = list;
  }
  const codecs = codecsFlag(args);
  if (codecs !== undefined) out.codecs = codecs;
  return out;
}

async function removeSubtree(store: WritableStore, path: string): Promise<void> {
  if (store instanceof DirectoryStore) return store.rmdir(path);
  // An S3Store removes a subtree with one listing and parallel DELETEs.
  const remover = store as WritableStore & { rmdir?: (path: string) => Promise<void> };
  if (typeof remover.rmdir === "function") return remover.rmdir(path);
  if (!isListable(store)) throw new CommandError("cannot overwrite: the destination cannot list its keys");
  for (const key of await store.list(keyPrefix(path))) await store.delete(key);
}

/**
 * Every ancestor of `path` must be a group: missing ones are created, of the copied node's format
 * (a v3 node is a member only of v3 groups), arrays in the way are an error.
 */
async function requireParentGroups(store: Store & WritableStore, path: string, format: 2 | 3): Promise<void> {
  if (path === "") return;
  const segments = path.split("/");
  for (let i = 0; i < segments.length; i++) {
    const parent = segments.slice(0, i).join("/");
    const node = await readNode(store, parent);
    if (node?.kind === "array")
      throw new CommandError(
        `cannot copy to ${JSON.stringify(path)}: ${parent === "" ? "the root" : JSON.stringify(parent)} is an array`,
        { key: arrayKey(parent) },
      );
    if (node === undefined && format === 3)
      await store.set(
        zarrJsonKey(parent),
        new TextEncoder().encode(serializeGroupMetadataV3({ zarrFormat: 3, nodeType: "group", attributes: {} })),
      );
    else if (node === undefined) await store.set(groupKey(parent), encodeGroupMetadata());
  }
}
