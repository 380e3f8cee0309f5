import type { Store, TypedArray } from "@z/meta";
import { ZarrArray } from "./array.js";
import { array, type CreateOptions } from "./create.js";
import { group, open } from "./group.js";
import type { NdArray, NdArrayLike } from "./nd-array.js";

type Data = NdArrayLike | TypedArray;
type SaveOptions = Omit<CreateOptions, "store" | "shape" | "overwrite">;

/**
 * Saves one array (replacing what is at `path`), or several as a group of named arrays, as
 * zarr-python's `save` (`save_array` / `save_group`).
 */
export async function save(store: Store, data: Data | Record<string, Data>, options: SaveOptions = {}): Promise<void> {
  if (
    ArrayBuffer.isView(data) ||
    ("data" in data && "shape" in data && ArrayBuffer.isView((data as NdArrayLike).data))
  ) {
    await array(data as Data, { ...options, store, overwrite: true });
    return;
  }
  const root = await group({ store, path: options.path, overwrite: true });
  for (const [name, value] of Object.entries(data as Record<string, Data>)) await root.array(name, value, options);
}

/** Loads an array's whole content, or every array directly in a group by name, as zarr-python's `load`. */
export async function load(store: Store, options: { path?: string } = {}): Promise<NdArray | Record<string, NdArray>> {
  const node = await open(store, { mode: "r", path: options.path });
  if (node instanceof ZarrArray) return node.get();
  const out: Record<string, NdArray> = {};
  for (const [name, member] of await node.arrays()) out[name] = await member.get();
  return out;
}
