import { numpyName, pythonTupleRepr as tupleRepr } from "@z/meta";

/** A node of a hierarchy as `tree()` draws it. */
export interface TreeNode {
  readonly name: string;
  readonly array?: { readonly shape: readonly number[]; readonly dtype: Parameters<typeof numpyName>[0] };
  readonly children: readonly TreeNode[];
}

/**
 * Draws a hierarchy as zarr-python's `Group.tree()` prints it: the root's name alone on the first
 * line, then one line per member with box-drawing branches, arrays followed by shape and dtype.
 */
export function drawTree(root: TreeNode): string {
  const lines = [root.name];
  const walk = (node: TreeNode, indent: string): void => {
    node.children.forEach((child, i) => {
      const last = i === node.children.length - 1;
      const label = child.array
        ? `${child.name} ${tupleRepr(child.array.shape)} ${numpyName(child.array.dtype)}`
        : child.name;
      lines.push(`${indent} ${last ? "└──" : "├──"} ${label}`);
      walk(child, `${indent} ${last ? "   " : "│  "}`);
    });
  };
  walk(root, "");
  return lines.join("\n");
}
