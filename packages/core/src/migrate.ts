import type { CodecRegistry } from "@z/codecs/registry";
import { defaultCodecRegistry } from "./codec-registry.js";
import { encodeArrayMetadata, isWritable, V1_ATTRS_KEY, V1_META_KEY, type Store } from "@z/meta";
import { readV1Metadata } from "./array.js";
import { NodeNotFoundError, ReadOnlyError } from "./errors.js";
import { arrayMetaKey, attrsKey } from "./keys.js";

/**
 * Converts the spec-v1 array at the root of `store` to v2 in place, as zarr-python's
 * `migrate_1to2`: `meta` becomes `.zarray`, `attrs` becomes `.zattrs`; chunks stay as they are.
 * The new documents are written before the old ones are removed, so a failure loses nothing.
 */
export async function migrate1to2(store: Store, options: { registry?: CodecRegistry } = {}): Promise<void> {
  if (!isWritable(store)) throw new ReadOnlyError("the store");
  const bytes = await store.get(V1_META_KEY);
  if (bytes === undefined) throw new NodeNotFoundError("array", "", { key: V1_META_KEY });
  const meta = await readV1Metadata(bytes, options.registry ?? defaultCodecRegistry());
  await store.set(arrayMetaKey(""), encodeArrayMetadata(meta));
  const attrs = await store.get(V1_ATTRS_KEY);
  if (attrs !== undefined) await store.set(attrsKey(""), attrs);
  await store.delete(V1_META_KEY);
  await store.delete(V1_ATTRS_KEY);
}
