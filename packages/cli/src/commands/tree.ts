import { dataTypeToJSON, numpyName, stringifyJson, type JsonValue } from "@z/meta";
import type { Command } from "../command.js";
import { integerFlag, positionals, stringFlag } from "../command.js";
import { readAttributes, readTree, requireNode, treeNodes, type TreeEntry } from "../hierarchy.js";
import { pyTupleRepr } from "../python-repr.js";
import { withStore } from "../store-arg.js";

export const tree: Command = {
  name: "tree",
  summary: "draw the hierarchy, like zarr-python's Group.tree()",
  usage: "zarr tree STORE [--path P] [--level N] [--json]",
  details: `  --path P     start at this group (default: the root)
  --level N    descend at most N levels
  --json       one object mapping every node path (the start is "") to
               {"kind": "group"|"array", "zarr_format": 2|3, "attrs": {...}, "shape": [...],
               "dtype": ...} (shape and dtype, as in .zarray, for arrays only; a v3 array has
               "data_type", as in its zarr.json, instead of "dtype")
Both formats are found: a node with a zarr.json is read as v3, as zarr-python 3 reads it.`,
  flags: { path: "string", level: "string", json: "boolean" },
  async run(args, io) {
    const [location] = positionals(args, 1, 1, "STORE");
    return withStore(location!, { mode: "read", path: stringFlag(args, "path") }, async ({ store, path }) => {
      const level = integerFlag(args, "level");
      const root = await readTree(store, await requireNode(store, path), level);
      if (!args.flags.has("json")) {
        io.out(`${drawTree(root)}\n`);
        return 0;
      }
      const out: Record<string, JsonValue> = {};
      const base = path === "" ? "" : `${path}/`;
      for (const node of treeNodes(root)) {
        const key = node.path === path ? "" : node.path.slice(base.length);
        const attrs = await readAttributes(store, node);
        const format = node.zarrFormat;
        if (node.kind === "group") out[key] = { kind: "group", zarr_format: format, attrs };
        else if (node.zarrFormat === 3)
          out[key] = {
            kind: "array",
            zarr_format: format,
            attrs,
            shape: [...node.meta.shape],
            data_type: node.meta.dataType as JsonValue,
          };
        else
          out[key] = {
            kind: "array",
            zarr_format: format,
            attrs,
            shape: [...node.meta.shape],
            dtype: dataTypeToJSON(node.meta.dtype),
          };
      }
      io.out(`${stringifyJson(out)}\n`);
      return 0;
    });
  },
};

function label(entry: TreeEntry): string {
  const { node } = entry;
  return node.kind === "array"
    ? `${entry.name} ${pyTupleRepr(node.meta.shape)} ${numpyName(node.meta.dtype)}`
    : entry.name;
}

/** The text of zarr-python's `Group.tree()`: the start alone on a line, then box-drawn members. */
export function drawTree(root: TreeEntry): string {
  const lines = [label(root)];
  const walk = (entry: TreeEntry, indent: string): void => {
    entry.children.forEach((child, i) => {
      const last = i === entry.children.length - 1;
      lines.push(`${indent} ${last ? "└──" : "├──"} ${label(child)}`);
      walk(child, `${indent} ${last ? "   " : "│  "}`);
    });
  };
  walk(root, "");
  return lines.join("\n");
}
