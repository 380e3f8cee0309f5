import { copyStore, type CopyReport } from "@z/core";
import {
  encodeGroupMetadata,
  isListable,
  isWritable,
  joinPath,
  keyPrefix,
  type Store,
  type WritableStore,
} from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import type { Command } from "../command.js";
import { CommandError, integerFlag, positionals, stringFlag, UsageError } from "../command.js";
import { arrayKey, groupKey, readNode, requireNode } from "../hierarchy.js";
import { progressBar } from "../progress.js";
import { describeLocation, listsChunks, withStore } from "../store-arg.js";

export const copy: Command = {
  name: "copy",
  summary: "copy an array or group, key by key, from one store to another",
  usage: "zarr copy SRC DST [--path P] [--dest-path Q] [--overwrite] [--concurrency N]",
  details: `Copies every key of the node (metadata, attributes, chunks and everything below it) byte for
byte, so nothing is decoded: codecs this build lacks are no obstacle. Groups above the node are
created in DST.
  --path P        the node in SRC (default: the whole store)
  --dest-path Q   where it goes in DST (default: the same path)
  --overwrite     replace what is at that path in DST (default: refuse when anything is there)
  --concurrency N keys copied at once (default 8; more hides the latency of remote stores such as S3)`,
  flags: { path: "string", "dest-path": "string", overwrite: "boolean", concurrency: "string" },
  async run(args, io) {
    const [srcArg, dstArg] = positionals(args, 2, 2, "SRC DST");
    const concurrency = integerFlag(args, "concurrency", { min: 1, max: 1024 }) ?? 8;
    return withStore(srcArg!, { mode: "read", path: stringFlag(args, "path") }, (src) =>
      withStore(dstArg!, { mode: "write" }, async (dst) => {
        const destPath = joinPath(dst.path, stringFlag(args, "dest-path") ?? src.path);
        if (!listsChunks(src.store)) throw new UsageError(`${srcArg} cannot list its keys`);
        if (!isWritable(dst.store)) throw new UsageError(`${dstArg} is read-only`);
        if (
          src.location.kind === dst.location.kind &&
          describeLocation(src.location) === describeLocation(dst.location)
        ) {
          const [a, b] = [src.path, destPath];
          if (a === "" || b === "" || a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`)) {
            throw new UsageError("source and destination overlap in the same store");
          }
        }
        await requireNode(src.store, src.path);
        const store = dst.store;
        if (await readNode(store, destPath)) {
          if (!args.flags.has("overwrite"))
            throw new CommandError(
              `${dstArg} already has a node at ${destPath === "" ? "the root" : JSON.stringify(destPath)} (pass --overwrite to replace it)`,
              { key: arrayKey(destPath) },
            );
          await removeSubtree(store, destPath);
        }
        await requireParentGroups(store, destPath);

        const bar = progressBar(io, "copying");
        let report: CopyReport;
        try {
          report = await copyStore(src.store, store, {
            sourcePath: src.path,
            destPath,
            ifExists: "replace",
            concurrency,
            signal: io.signal,
            progress: bar.callback(),
          });
        } finally {
          bar.finish();
        }
        io.err(
          `copied ${report.copied} keys (${report.bytesCopied} bytes) to ${dstArg}${destPath === "" ? "" : ` at ${destPath}`}\n`,
        );
        return 0;
      }),
    );
  },
};

async function removeSubtree(store: WritableStore, path: string): Promise<void> {
  if (store instanceof DirectoryStore) return store.rmdir(path);
  // An S3Store removes a subtree with one listing and parallel DELETEs.
  const remover = store as WritableStore & { rmdir?: (path: string) => Promise<void> };
  if (typeof remover.rmdir === "function") return remover.rmdir(path);
  if (!isListable(store)) throw new CommandError("cannot overwrite: the destination cannot list its keys");
  for (const key of await store.list(keyPrefix(path))) await store.delete(key);
}

/** Every ancestor of `path` must be a group: missing ones are created, arrays in the way are an error. */
async function requireParentGroups(store: Store & WritableStore, path: string): Promise<void> {
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
    if (node === undefined) await store.set(groupKey(parent), encodeGroupMetadata());
  }
}
