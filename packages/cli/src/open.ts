import { ZarrArray } from "@z/core";
import type { Store } from "@z/meta";
import { CommandError } from "./command.js";
import { requireNode } from "./hierarchy.js";
import { isSpecArg, openSpecArray, withStore } from "./store-arg.js";

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
  if (isSpecArg(location)) return withSpecArray(location, path, options.readOnly, fn);
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
      { key: node.metaKey },
    );
  }
  return ZarrArray.open(store, path, options);
}

/** `withArrayArg` for a spec: the array `openSpec` opens (a field of a structured dtype is refused). */
async function withSpecArray<T>(
  text: string,
  path: string | undefined,
  readOnly: boolean,
  fn: (array: ZarrArray) => Promise<T>,
): Promise<T> {
  const opened = await openSpecArray(text, path, readOnly);
  if (!(opened instanceof ZarrArray))
    throw new CommandError(
      `the spec opens ${opened.field === undefined ? "the bytes of" : `field ${JSON.stringify(opened.field)} of`} an array as TensorStore does (shape [${opened.shape.join(", ")}]); this command reads whole arrays: drop "field"/"open_as_void" and select fields with the selection`,
    );
  return fn(opened);
}
