import { consolidateMetadata, CONSOLIDATED_KEY } from "@z/core";
import { isListable, isWritable, keyPrefix } from "@z/meta";
import type { Command } from "../command.js";
import { CommandError, positionals, stringFlag, UsageError } from "../command.js";
import { requireNode } from "../hierarchy.js";
import { withStore } from "../store-arg.js";

export const consolidate: Command = {
  name: "consolidate",
  summary: "consolidate a hierarchy's metadata, as zarr-python's consolidate_metadata does",
  usage: "zarr consolidate STORE [--path P]",
  details: `Gathers every .zarray, .zgroup and .zattrs into one .zmetadata document, byte for byte as
zarr-python 2.13 writes it, so readers need one request for all metadata. Run it again after
metadata changes: \`zarr validate\` reports a stale .zmetadata. A Zarr v3 group (zarr.json, also a
migrated one) gets zarr-python 3's consolidation instead: every zarr.json below it, inline in its
own zarr.json as "consolidated_metadata".
  --path P    consolidate only the hierarchy below P (written to P/.zmetadata)`,
  flags: { path: "string" },
  async run(args, io) {
    const [location] = positionals(args, 1, 1, "STORE");
    return withStore(location!, { mode: "update", path: stringFlag(args, "path") }, async ({ store, path }) => {
      if (!isWritable(store) || !isListable(store)) throw new UsageError(`${location} must be writable and listable`);
      const node = await requireNode(store, path);
      if (node.kind === "array" && node.zarrFormat === 1)
        throw new CommandError(`${location} holds a Zarr v1 array, which has no v2 metadata to consolidate`, {
          key: node.metaKey,
        });
      if (node.zarrFormat === 3 && node.kind === "array")
        throw new CommandError(`${node.metaKey} is a Zarr v3 array: v3 consolidates a group's metadata`, {
          key: node.metaKey,
        });
      await consolidateMetadata(store, { path });
      if (node.zarrFormat === 3) {
        const nodes = (await store.list(keyPrefix(path))).filter(
          (k) => k !== node.metaKey && /(^|\/)zarr\.json$/.test(k),
        ).length;
        io.err(`wrote the metadata of ${nodes} nodes inline into ${node.metaKey} (consolidated_metadata)\n`);
        return 0;
      }
      const documents = (await store.list(keyPrefix(path))).filter((k) =>
        /(^|\/)\.z(array|group|attrs)$/.test(k),
      ).length;
      io.err(`wrote ${keyPrefix(path)}${CONSOLIDATED_KEY} with ${documents} metadata documents\n`);
      return 0;
    });
  },
};
