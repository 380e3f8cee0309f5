/*
 * The text of `ZarrArray.info` (zarr-python's `Array.info`), loaded by the first `info()` call.
 */
import {
  numpyName,
  type ArrayMetadata,
  type ArrayMetadataV3,
  type CodecConfig,
  type DataType,
  type JsonValue,
  type NamedConfig,
  type Store,
} from "@z/meta";
import { codecRepr } from "./codec-repr.js";
import { fixed1, humanSize, pythonTupleRepr as tupleRepr } from "@z/meta";

const bytesRepr = (n: number): string => (n > 1024 ? `${n} (${humanSize(n)})` : String(n));

/** The `info` line of an array whose chunks were found nested (`ZarrArray.dimensionSeparatorFound`). */
export const NESTED_FOUND = "/ (found nested in the store; .zarray names none)";

/** What `arrayInfo` shows of an array (a `ZarrArray` has all of it). */
export interface ArrayInfoSource {
  readonly name: string | null;
  readonly dtype: DataType;
  readonly shape: readonly number[];
  readonly chunks: readonly number[];
  readonly order: "C" | "F";
  readonly readOnly: boolean;
  readonly dimensionSeparatorFound: boolean;
  readonly filters: readonly CodecConfig[] | null;
  readonly compressor: CodecConfig | null;
  readonly store: Store;
  readonly nbytes: number;
  readonly nchunks: number;
  readonly zarrFormat: 1 | 2 | 3;
  readonly metadata: ArrayMetadata | ArrayMetadataV3;
}

/** A v3 codec as zarr-python 3's info names it: `name(key=value, ...)`, configuration as JSON. */
const namedRepr = (codec: NamedConfig): string =>
  `${codec.name}(${Object.entries(codec.configuration ?? {})
    .map(([k, v]) => `${k}=${JSON.stringify(v as JsonValue)}`)
    .join(", ")})`;

/** The lines of zarr-python's `Array.info`, in its order and layout. */
export function arrayInfo(
  array: ArrayInfoSource,
  stored: number | undefined,
  initialized: number | undefined,
  /** Whether a v3 array's store has v2 metadata for it too (read as v3, as zarr-python 3 reads it). */
  alsoV2 = false,
): string {
  const items: [string, string][] = [];
  if (array.name !== null) items.push(["Name", array.name]);
  const meta = array.metadata;
  // As zarr-python 3 shows a sharded array: the grid's shape is the shard's; chunks are inside.
  const sharding = meta.zarrFormat === 3 && meta.codecs.length === 1 && meta.codecs[0]!.name === "sharding_indexed";
  const inner = sharding ? (meta.codecs[0]!.configuration?.chunk_shape as number[] | undefined) : undefined;
  items.push(["Type", "ZarrArray"]);
  if (meta.zarrFormat === 3) items.push(["Zarr format", alsoV2 ? "3 (read as v3; .zarray beside it too)" : "3"]);
  items.push(["Data type", numpyName(array.dtype)], ["Shape", tupleRepr(array.shape)]);
  if (inner !== undefined) items.push(["Shard shape", tupleRepr(array.chunks)], ["Chunk shape", tupleRepr(inner)]);
  else items.push(["Chunk shape", tupleRepr(array.chunks)]);
  items.push(["Order", array.order], ["Read-only", array.readOnly ? "True" : "False"]);
  // not in zarr-python's: chunks found under "/" keys although .zarray names no separator
  if (array.dimensionSeparatorFound) items.push(["Dimension separator", NESTED_FOUND]);
  if (meta.zarrFormat === 3) {
    items.push(["Codecs", meta.codecs.map(namedRepr).join(", ")]);
  } else {
    for (const [i, f] of (array.filters ?? []).entries()) items.push([`Filter [${i}]`, codecRepr(f)]);
    items.push(["Compressor", codecRepr(array.compressor)]);
  }
  items.push(["Store type", array.store.constructor.name]);
  items.push(["No. bytes", bytesRepr(array.nbytes)]);
  if (stored !== undefined && stored > 0) {
    items.push(["No. bytes stored", bytesRepr(stored)]);
    items.push(["Storage ratio", fixed1(array.nbytes / stored)]);
  }
  // As zarr-python 3's nchunks_initialized: a sharded array's chunks are its inner chunks, each
  // stored shard counted as all of its own (what is stored is the shard).
  const perShard = inner === undefined ? 1 : array.chunks.reduce((n, s, i) => n * Math.ceil(s / inner[i]!), 1);
  const counted = initialized === undefined ? "?" : String(initialized * perShard);
  items.push(["Chunks initialized", `${counted}/${array.nchunks * perShard}`]);
  const width = Math.max(...items.map(([k]) => k.length));
  return `${items.map(([k, v]) => `${k.padEnd(width)} : ${v}`).join("\n")}\n`;
}
