import { encodeAttributes, isWritable, stringifyJson, type JsonObject, JsonFloat } from "@z/meta";
import { parseNodeMetadataV3, serializeNodeMetadataV3 } from "@z/meta/v3";
import { parseJsonArg } from "../array-options.js";
import type { Command } from "../command.js";
import { CommandError, positionals, stringFlag, UsageError } from "../command.js";
import { attrsKeyOf, readAttributes, requireNode } from "../hierarchy.js";
import { withStore } from "../store-arg.js";

export const attrs: Command = {
  name: "attrs",
  summary: "print or change the attributes (.zattrs, or zarr.json's) of an array or group",
  usage: "zarr attrs get|set|delete STORE [--path P] [KEY [JSON]]",
  details: `  zarr attrs get STORE                 all attributes, as JSON
  zarr attrs get STORE KEY             one attribute's value, as JSON (exit 1 when missing)
  zarr attrs set STORE KEY JSON        set one attribute (JSON: 1.5, "text", [1, 2], {"a": null}, NaN)
  zarr attrs set STORE JSON            add or replace every attribute of a JSON object
  zarr attrs delete STORE KEY          remove one attribute (exit 1 when missing)
.zattrs is written as zarr-python writes it (sorted keys, indent 4, 1.0 stays 1.0); a Zarr v3 node's
attributes are the "attributes" member of its zarr.json, which is rewritten as zarr-python 3 writes
it (its other members as they are).
  --path P    the node inside the store (default: the root)`,
  flags: { path: "string" },
  async run(args, io) {
    const [action, location, key, value] = positionals(args, 2, 4, "ACTION STORE KEY JSON");
    if (action !== "get" && action !== "set" && action !== "delete")
      throw new UsageError(`unknown action ${JSON.stringify(action)} (expected get, set or delete)`);
    return withStore(
      location!,
      { mode: action === "get" ? "read" : "update", path: stringFlag(args, "path") },
      async ({ store, path }) => {
        const node = await requireNode(store, path);
        const current = await readAttributes(store, node);
        const where = attrsKeyOf(node);
        if (action === "get") {
          if (value !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(value)}`);
          if (key === undefined) io.out(`${stringifyJson(current)}\n`);
          else if (!Object.hasOwn(current, key))
            throw new CommandError(`no attribute ${JSON.stringify(key)} in ${where}`, { key: where });
          else io.out(`${stringifyJson(current[key]!)}\n`);
          return 0;
        }
        let next: JsonObject;
        if (action === "delete") {
          if (key === undefined) throw new UsageError("missing KEY");
          if (value !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(value)}`);
          if (!Object.hasOwn(current, key))
            throw new CommandError(`no attribute ${JSON.stringify(key)} in ${where}`, { key: where });
          const copy: Record<string, unknown> = { ...current };
          delete copy[key];
          next = copy as JsonObject;
        } else if (value === undefined) {
          if (key === undefined) throw new UsageError("missing KEY JSON (or one JSON object)");
          const update = parseJsonArg(key, "attributes");
          if (typeof update !== "object" || update === null || Array.isArray(update) || update instanceof JsonFloat) {
            throw new UsageError(
              "with one argument after STORE, `attrs set` takes a JSON object of attributes (or give KEY JSON)",
            );
          }
          next = { ...current, ...(update as JsonObject) };
        } else {
          next = { ...current, [key!]: parseJsonArg(value, `value of ${key}`) };
        }
        if (!isWritable(store)) throw new CommandError(`the store is read-only`, { key: where });
        if (node.kind === "array" && node.zarrFormat === 1)
          throw new CommandError("a Zarr v1 array is read-only (zarr-python's migrate_1to2 converts it to v2)", {
            key: where,
          });
        if (node.zarrFormat === 3) {
          const current = await store.get(where);
          if (current === undefined) throw new CommandError(`${where} is gone`, { key: where });
          const meta = parseNodeMetadataV3(current, where);
          await store.set(where, new TextEncoder().encode(serializeNodeMetadataV3({ ...meta, attributes: next })));
        } else await store.set(where, encodeAttributes(next));
        return 0;
      },
    );
  },
};
