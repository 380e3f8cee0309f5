import { removeMetadata } from "@z/core";
import type { Command } from "../command.js";
import { positionals, stringFlag, UsageError } from "../command.js";
import { progressBar } from "../progress.js";
import { listsChunks, withStore } from "../store-arg.js";

export const removeMetadataCommand: Command = {
  name: "remove-metadata",
  summary: "remove one format's metadata (v2 or v3), as zarr-python 3's zarr remove-metadata",
  usage: "zarr remove-metadata v2|v3 STORE [--path P] [--force] [--dry-run]",
  details: `Removes every .zarray, .zattrs, .zgroup and .zmetadata (v2) or every zarr.json (v3) at and below
STORE (and --path), as zarr-python 3's \`zarr remove-metadata\`: after \`zarr migrate v3\`, v2 readers
no longer see the hierarchy once v2's is removed. A document is removed only where the node has
the other format's metadata (a zarr.json beside v2's, a .zarray or .zgroup beside v3's); where one
has none, nothing at all is removed, unless --force. Chunks are never touched.
  --path P      start at this node (default: the root)
  --force       remove them where the node has no other metadata too (it is then no node at all)
  --dry-run     print what would be removed, remove nothing`,
  flags: { path: "string", force: "boolean", "dry-run": "boolean" },
  async run(args, io) {
    const [format, location] = positionals(args, 2, 2, "FORMAT STORE");
    if (format !== "v2" && format !== "v3")
      throw new UsageError(`FORMAT must be v2 or v3, got ${JSON.stringify(format)}`);
    const dryRun = args.flags.has("dry-run");
    return withStore(
      location!,
      { mode: dryRun ? "read" : "update", path: stringFlag(args, "path") },
      async ({ store, path }) => {
        if (!listsChunks(store)) throw new UsageError(`${location} cannot list its keys`);
        const bar = progressBar(io, "removing");
        let removed: string[];
        try {
          removed = await removeMetadata(store, format === "v2" ? 2 : 3, {
            path,
            force: args.flags.has("force"),
            dryRun,
            signal: io.signal,
            onRemove: (key) => {
              bar.tick();
              io.out(`${dryRun ? "would remove" : "removed"} ${key}\n`);
            },
          });
        } finally {
          bar.finish();
        }
        io.err(
          `${dryRun ? "dry run: would remove" : "removed"} ${removed.length} ${format} metadata document${removed.length === 1 ? "" : "s"}${dryRun ? "; nothing was removed" : ""}\n`,
        );
        return 0;
      },
    );
  },
};
