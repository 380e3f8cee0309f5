import { migrateToV3, type MigratedDocument } from "@z/core";
import type { Command } from "../command.js";
import { CommandError, positionals, stringFlag, UsageError } from "../command.js";
import { progressBar } from "../progress.js";
import { listsChunks, withStore, type OpenedStore } from "../store-arg.js";

export const migrate: Command = {
  name: "migrate",
  summary: "write Zarr v3 metadata beside a v2 hierarchy's, as zarr-python 3's zarr migrate v3",
  usage: "zarr migrate v3 STORE [OUTPUT] [--path P] [--dry-run] [--overwrite [--force]]",
  details: `Writes a zarr.json for the v2 array or group at STORE (and --path) and for every array and group
below it, as zarr-python 3's \`zarr migrate v3\` writes them: the same shape, chunk grid and data
type; the "v2" chunk key encoding with each array's separator, so every chunk stays where it is and
none is rewritten; the filters and compressor as v3 codecs (blosc, zstd and gzip as v3's own, the
other numcodecs codecs as numcodecs.<id>; F order as a transpose); the .zattrs attributes. Readers
of v3 (zarr-python 3, TensorStore's zarr3 driver, zarrita, z) then read it as v3; readers of v2 read
it as before, since no v2 document is changed or removed (\`zarr remove-metadata v2\` does that, when
no v2 reader is left).
Every document is made first, so a codec zarr-python 3 cannot convert (categorize, object codecs,
a filter that is not array to array, blosc's automatic shuffle) is refused before anything is
written. They are written members first and the starting node's last, so a migration stopped part
way leaves a hierarchy every reader reads as v2 still; run it again with --overwrite to finish it.
Unlike zarr-python 3, a hierarchy with consolidated metadata (.zmetadata) is migrated too (its
.zmetadata is kept, for v2 readers), an array whose .zarray names no separator but whose chunks
are nested keeps "/", and a null fill value becomes the type's default (as zarr-python 3 reads it).
  OUTPUT        write the zarr.json documents there instead (an empty store; no chunk is copied)
  --path P      start at this node (default: the root)
  --dry-run     print each zarr.json that would be written, write nothing
  --overwrite   first remove the v3 metadata there (as \`zarr remove-metadata v3\`)
  --force       with --overwrite: also remove zarr.json documents that have no v2 metadata beside them`,
  flags: { path: "string", "dry-run": "boolean", overwrite: "boolean", force: "boolean" },
  async run(args, io) {
    const [format, location, outputArg] = positionals(args, 2, 3, "FORMAT STORE OUTPUT");
    if (format !== "v3")
      throw new UsageError(`zarr migrate converts to v3 only: zarr migrate v3 STORE (got ${JSON.stringify(format)})`);
    const dryRun = args.flags.has("dry-run");
    const overwrite = args.flags.has("overwrite");
    const force = args.flags.has("force");
    if (force && !overwrite) throw new UsageError("--force goes with --overwrite");
    const mode = dryRun || outputArg !== undefined ? "read" : "update";
    return withStore(location!, { mode, path: stringFlag(args, "path") }, async (input) => {
      if (!listsChunks(input.store))
        throw new UsageError(`${location} cannot list its keys: migrating needs a listing`);
      const go = (output: OpenedStore | undefined): Promise<number> => run(input, output);
      const run = async (from: OpenedStore, to: OpenedStore | undefined): Promise<number> => {
        const bar = progressBar(io, dryRun ? "planning" : "migrating");
        let documents: MigratedDocument[];
        try {
          documents = await migrateToV3(from.store, {
            path: from.path,
            ...(to === undefined ? {} : { output: to.store }),
            dryRun,
            overwrite,
            force,
            signal: io.signal,
            onRemove: (key) => io.out(`${dryRun ? "would remove" : "removed"} ${key}\n`),
            onPlanned: (planned) => bar.setTotal(planned.length),
            onDocument: (d) => {
              bar.tick();
              if (dryRun) io.out(`would write ${d.key} (${d.nodeType}, from ${d.source}):\n${d.text}\n`);
            },
          });
        } finally {
          bar.finish();
        }
        const arrays = documents.filter((d) => d.nodeType === "array").length;
        const where = to === undefined ? location : outputArg;
        io.err(
          dryRun
            ? `dry run: would write ${documents.length} zarr.json (${arrays} arrays, ${documents.length - arrays} groups) to ${where}; nothing was written\n`
            : `wrote ${documents.length} zarr.json (${arrays} arrays, ${documents.length - arrays} groups) to ${where}; no chunk and no v2 document was changed\n`,
        );
        return 0;
      };
      if (outputArg === undefined) return go(undefined);
      return withStore(outputArg, { mode: dryRun ? "read" : "write" }, async (output) => {
        if (output.path !== "")
          throw new CommandError(
            `${outputArg}: OUTPUT is a whole store (the documents go at the same paths as in STORE)`,
          );
        return go(output);
      });
    });
  },
};
