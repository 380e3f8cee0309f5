import { ZarrArray } from "@z/core";
import type { Store } from "@z/meta";
import { CommandError } from "./command.js";
import { requireNode } from "./hierarchy.js";
import { withStore } from "./store-arg.js";

/**
 * Runs `fn` on the array a STORE argument and `--path` name, opened for reading or writing its
 * data; the store is closed afterwards.
 */
export function withArrayArg<T>(
  location: string,
  path: string | undefined,
  options: { readOnly: boolean; writeEmptyChunks?: boolean; signal?: AbortSignal },
  fn: (array: ZarrArray) => Promise<T>,
): Promise<T> {
  return withStore(location, { mode: options.readOnly ? "read" : "update", path }, async (opened) =>
    fn(await openArrayAt(opened.store, opened.path, options)),
  );
}

export async function openArrayAt(
  store: Store,
  path: string,
  options: { readOnly: boolean; writeEmptyChunks?: boolean; signal?: AbortSignal },
): Promise<ZarrArray> {
  const node = await requireNode(store, path);
  if (node.kind === "group") {
    throw new CommandError(
      `${path === "" ? "the root" : JSON.stringify(path)} is a group, not an array (pick an array with --path; \`zarr tree\` lists them)`,
      { key: `${path === "" ? "" : `${path}/`}.zgroup` },
    );
  }
  return ZarrArray.open(store, path, options);
}
