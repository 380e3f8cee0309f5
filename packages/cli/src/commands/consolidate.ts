import { consolidateMetadata, CONSOLIDATED_KEY } from "@z/core";
import { isListable, isWritable, keyPrefix } from "@z/meta";
import type { Command } from "../command.js";
import { CommandError, positionals, stringFlag, UsageError } from "../command.js";
import { requireNode } from "../hierarchy.js";
import { withStore } from "../store-arg.js";

export const consolidate: Command = {
  name: "consolidate",
  summary: "write .zmetadata, as zarr-python's consolidate_metadata does",
  usage: "zarr consolidate STORE [--path P]",
  details: `Gathers every .zarray, .zgroup and .zattrs into one .zmetadata document, byte for byte as
zarr-python 2.13 writes it, so readers need one request for all metadata. Run it again after
metadata changes: \`zarr validate\` reports a stale .zmetadata. A migrated hierarchy (zarr.json
beside the v2 documents) gets its v2 documents consolidated; a Zarr v3-only one is refused.
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
      if (node.zarrFormat === 3 && !node.v2Too)
        throw new CommandError(
          `${node.metaKey} is Zarr v3, whose consolidated metadata lives inline in the group's zarr.json; this build writes v2's .zmetadata only`,
          { key: node.metaKey },
        );
      await consolidateMetadata(store, { path });
      const documents = (await store.list(keyPrefix(path))).filter((k) =>
        /(^|\/)\.z(array|group|attrs)$/.test(k),
      ).length;
      io.err(`wrote ${keyPrefix(path)}${CONSOLIDATED_KEY} with ${documents} metadata documents\n`);
      return 0;
    });
  },
};
