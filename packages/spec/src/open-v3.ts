/*
 * The metadata of a zarr3 spec's array, as TensorStore's zarr3 driver finds it: assumed (chosen as
 * for creating, nothing read), read from `zarr.json` and checked against the spec, or created. The
 * `zarr.json` written is TensorStore's text; the array is then opened from it as any v3 array.
 */
import { isWritable, parseJson, type ArrayMetadataV3, type Store } from "@z/meta";
import { parseArrayMetadataV3 } from "@z/meta/v3";
import { NodeExistsError, NodeNotFoundError } from "@z/core";
import { newMetadataV3For, validateCreatedV3 } from "./create.js";
import { formatDomain } from "./domain.js";
import { SpecError, SpecUnsupportedError } from "./errors.js";
import { describeKvStore } from "./kvstore.js";
import type { ParsedSpec } from "./parse.js";
import { encodeMetadataV3, type MetadataV3, parseMetadataV3 } from "./v3-metadata.js";

const encoder = new TextEncoder();

/**
 * An identity `transform`'s explicit bounds must be the array's: TensorStore would open a view of
 * another region, which this library does not.
 */
function checkTransformV3(spec: ParsedSpec, meta: MetadataV3): void {
  const t = spec.transform;
  if (t === undefined) return;
  if (t.dims.length !== meta.rank)
    throw new SpecError(`Transform input rank ${t.dims.length} does not match the array's rank ${meta.rank}`, {
      member: "transform",
    });
  t.dims.forEach((d, i) => {
    const lowerOk = d.implicitLower || d.min === 0 || d.min === -Infinity;
    const upperOk = d.implicitUpper || d.max === meta.shape[i]! - 1;
    if (!lowerOk || !upperOk)
      throw new SpecUnsupportedError(
        `the transform's domain ${formatDomain(t)} is not the array's [0, ${meta.shape[i]}) in dimension ${i}: views of part of an array are not supported`,
        { member: "transform" },
      );
  });
}

/** What opening found or chose. */
export interface OpenedV3 {
  /** The metadata as z holds it. */
  readonly metadata: ArrayMetadataV3;
  /** Writes the `zarr.json` of a new array: called once the array is opened from `metadata` (its codecs compiled). */
  readonly commit?: () => Promise<void>;
}

/**
 * The metadata of `spec`'s array under `prefix` of `base`, read through `metaStore`, or chosen for a
 * new one (written by `commit`).
 */
export async function openMetadataV3(
  spec: ParsedSpec,
  base: Store,
  metaStore: Store,
  path: string,
  prefix: string,
  signal: AbortSignal | undefined,
): Promise<OpenedV3> {
  const key = `${prefix}zarr.json`;
  // Before anything is written: the document is one z reads too.
  const held = (text: string): ArrayMetadataV3 => parseArrayMetadataV3(text, key);
  if (spec.assumeMetadata || spec.assumeCachedMetadata) {
    const meta = newMetadataV3For(spec);
    checkTransformV3(spec, meta);
    return { metadata: held(encodeMetadataV3(meta)) };
  }
  const bytes = spec.create && spec.deleteExisting ? undefined : await metaStore.get(key, { signal });
  if (bytes !== undefined) {
    if (!spec.open) throw new NodeExistsError("array", path, { key });
    const meta = parseMetadataV3(parseJson(bytes, key, { keepFloats: true }), key);
    validateCreatedV3(meta, spec);
    checkTransformV3(spec, meta);
    return { metadata: parseArrayMetadataV3(bytes, key) };
  }
  if (!spec.create) throw new NodeNotFoundError("array", path, { key });
  const meta = newMetadataV3For(spec);
  checkTransformV3(spec, meta);
  const text = encodeMetadataV3(meta);
  const metadata = held(text);
  if (!isWritable(base)) throw new SpecError(`${describeKvStore(spec.kvstore)} is read-only`, { member: "kvstore" });
  return { metadata, commit: () => metaStore.set!(key, encoder.encode(text), { signal }) };
}
