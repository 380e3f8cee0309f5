// `zarr info` for Zarr v3 nodes, in the layout of zarr-python 3's `ArrayInfo` and `GroupInfo`
// (zarr/core/_info.py): codecs split into Filters, Serializer and Compressors as its `Array.filters`,
// `.serializer` and `.compressors` split them (the inner codecs of a sharded array), a shard shape
// and the inner chunk shape for sharded arrays. Codecs are shown as zarr-python 3's codec classes
// print themselves.

import { fixed1, humanSize } from "@z/core";
import { formatPythonFloat, JsonFloat, type ArrayMetadataV3, type JsonValue, type NamedConfig } from "@z/meta";
import { pyTupleRepr } from "./python-repr.js";

/** The array→bytes codecs z or zarr-python 3 know: every other codec sits before (array→array) or after (bytes→bytes) one. */
const ARRAY_TO_BYTES = new Set([
  "bytes",
  "vlen-utf8",
  "vlen-bytes",
  "sharding_indexed",
  "numcodecs.pcodec",
  "numcodecs.zfpy",
]);

export interface CodecsV3Split {
  readonly filters: readonly NamedConfig[];
  readonly serializer: NamedConfig | undefined;
  readonly compressors: readonly NamedConfig[];
}

/** A chain's codecs by kind: those before the array→bytes codec, it, those after it. */
export function splitCodecs(codecs: readonly NamedConfig[]): CodecsV3Split {
  const at = codecs.findIndex((c) => ARRAY_TO_BYTES.has(c.name));
  if (at === -1) return { filters: [], serializer: undefined, compressors: codecs };
  return { filters: codecs.slice(0, at), serializer: codecs[at], compressors: codecs.slice(at + 1) };
}

/** The `sharding_indexed` codec of a sharded array (its one codec), or undefined. */
export function shardingOf(meta: ArrayMetadataV3): NamedConfig | undefined {
  const [only, ...rest] = meta.codecs;
  return only?.name === "sharding_indexed" && rest.length === 0 ? only : undefined;
}

/** `chunk_shape` of a sharding codec: the inner chunks of each shard. */
export function innerChunkShape(sharding: NamedConfig): number[] | undefined {
  const shape = sharding.configuration?.chunk_shape;
  return Array.isArray(shape) && shape.every((n) => typeof n === "number") ? (shape as number[]) : undefined;
}

const namedList = (value: JsonValue | undefined): NamedConfig[] =>
  Array.isArray(value) ? value.map((c) => (typeof c === "string" ? { name: c } : (c as unknown as NamedConfig))) : [];

/** The codecs the chunks (inner chunks of a sharded array) go through. */
export function innerCodecs(meta: ArrayMetadataV3): readonly NamedConfig[] {
  const sharding = shardingOf(meta);
  return sharding === undefined ? meta.codecs : namedList(sharding.configuration?.codecs);
}

/** Python's repr of a JSON value as zarr-python's codec dataclasses hold it (lists as tuples where it makes them so). */
function pyValue(value: JsonValue, tuple = false): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (value instanceof JsonFloat) return Number.isInteger(value.value) ? `${value.value}.0` : String(value.value);
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) {
    const items = value.map((v) => pyValue(v));
    if (!tuple) return `[${items.join(", ")}]`;
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
  }
  return `{${Object.entries(value)
    .map(([k, v]) => `'${k}': ${pyValue(v)}`)
    .join(", ")}}`;
}

const config = (codec: NamedConfig, name: string): JsonValue | undefined => codec.configuration?.[name];

/** zarr-python 3's class names (and their fields, in order) of the codecs its `zarr.codecs` defines. */
const CLASSES: Readonly<Record<string, { readonly cls: string; readonly fields: readonly [string, JsonValue][] }>> = {
  bytes: { cls: "BytesCodec", fields: [["endian", null]] },
  transpose: { cls: "TransposeCodec", fields: [["order", []]] },
  blosc: {
    cls: "BloscCodec",
    fields: [
      ["typesize", null],
      ["cname", "zstd"],
      ["clevel", 5],
      ["shuffle", "noshuffle"],
      ["blocksize", 0],
    ],
  },
  gzip: { cls: "GzipCodec", fields: [["level", 5]] },
  zstd: {
    cls: "ZstdCodec",
    fields: [
      ["level", 0],
      ["checksum", false],
    ],
  },
  crc32c: { cls: "Crc32cCodec", fields: [] },
  "vlen-utf8": { cls: "VLenUTF8Codec", fields: [] },
  "vlen-bytes": { cls: "VLenBytesCodec", fields: [] },
};

/** A v3 codec as zarr-python 3 prints it: `ZstdCodec(level=0, checksum=False)`, `Zlib(codec_name='numcodecs.zlib', codec_config={...})`. */
export function codecReprV3(codec: NamedConfig): string {
  const known = CLASSES[codec.name];
  if (known !== undefined) {
    const fields = known.fields.map(([name, fallback]) => {
      const value = config(codec, name) ?? fallback;
      return `${name}=${pyValue(value, name === "order")}`;
    });
    return `${known.cls}(${fields.join(", ")})`;
  }
  if (codec.name === "sharding_indexed") {
    const shape = innerChunkShape(codec) ?? [];
    const inner = namedList(config(codec, "codecs")).map(codecReprV3);
    const index = namedList(config(codec, "index_codecs")).map(codecReprV3);
    const tuple = (items: string[]) => (items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`);
    const location = config(codec, "index_location") ?? "end";
    return `ShardingCodec(chunk_shape=${pyTupleRepr(shape)}, codecs=${tuple(inner)}, index_codecs=${tuple(index)}, index_location=${pyValue(location)})`;
  }
  if (codec.name.startsWith("numcodecs.")) {
    const id = codec.name.slice("numcodecs.".length);
    return `${NUMCODECS_CLASS[id] ?? id}(codec_name=${pyValue(codec.name)}, codec_config=${pyValue((codec.configuration ?? {}) as JsonValue)})`;
  }
  // a codec zarr-python 3 does not define: its name and configuration as in zarr.json
  return codec.configuration === undefined
    ? codec.name
    : `${codec.name}(${Object.entries(codec.configuration)
        .map(([k, v]) => `${k}=${pyValue(v)}`)
        .join(", ")})`;
}

const NUMCODECS_CLASS: Readonly<Record<string, string>> = {
  blosc: "Blosc",
  lz4: "LZ4",
  zstd: "Zstd",
  zlib: "Zlib",
  gzip: "GZip",
  bz2: "BZ2",
  lzma: "LZMA",
  shuffle: "Shuffle",
  delta: "Delta",
  bitround: "BitRound",
  fixedscaleoffset: "FixedScaleOffset",
  quantize: "Quantize",
  packbits: "PackBits",
  astype: "AsType",
  crc32: "CRC32",
  crc32c: "CRC32C",
  adler32: "Adler32",
  fletcher32: "Fletcher32",
  jenkins_lookup3: "JenkinsLookup3",
  pcodec: "PCodec",
  zfpy: "ZFPY",
};

const codecTuple = (codecs: readonly NamedConfig[]): string => {
  const items = codecs.map(codecReprV3);
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
};

/**
 * The fill value as `str()` of zarr-python 3's scalar shows it (`0`, `0.0` for a float type,
 * `nan`, `True`, `(1+2j)`, text as it is); other forms as the document writes them.
 */
export function fillValueText(json: JsonValue, float: boolean): string {
  const special: Record<string, string> = { NaN: "nan", Infinity: "inf", "-Infinity": "-inf" };
  const number = (v: JsonValue): string | undefined => {
    if (typeof v === "string" && v in special) return special[v];
    if (v instanceof JsonFloat) return formatPythonFloat(v.value);
    if (typeof v === "number") return float ? formatPythonFloat(v) : String(v);
    if (typeof v === "bigint") return String(v);
    return undefined;
  };
  if (typeof json === "boolean") return json ? "True" : "False";
  const plain = number(json);
  if (plain !== undefined) return plain;
  if (typeof json === "string") return json;
  if (Array.isArray(json) && json.length === 2) {
    // Python's complex repr: parts without a trailing ".0", no real part when it is 0
    const [re, im] = json.map((v) => number(v)?.replace(/\.0$/, ""));
    if (re !== undefined && im !== undefined) {
      const sign = im.startsWith("-") ? "" : "+";
      return re === "0" ? `${im}j` : `(${re}${sign}${im}j)`;
    }
  }
  return JSON.stringify(json);
}

const bytesRepr = (n: number): string => (n >= 1024 ? `${n} (${humanSize(n)})` : String(n));

export interface ArrayInfoV3 {
  readonly meta: ArrayMetadataV3;
  /** `fill_value` as the document writes it. */
  readonly fillValueJson: JsonValue;
  readonly storeType: string;
  readonly nbytes: number;
  readonly stored?: number;
  /** Chunks (shards) found in the store; unknown when the store cannot list. */
  readonly initialized?: number;
  /** The node has a `.zarray` too (a migrated array). */
  readonly v2Too: boolean;
}

/** The lines of zarr-python 3's `Array.info_complete()`, in its order and layout (keys padded to 18). */
export function arrayInfoTextV3(info: ArrayInfoV3): string {
  const { meta } = info;
  const sharding = shardingOf(meta);
  const { filters, serializer, compressors } = splitCodecs(innerCodecs(meta));
  const items: [string, string][] = [
    ["Type", "Array"],
    ["Zarr format", info.v2Too ? "3 (a .zarray is there too: a migrated array, read as v3)" : "3"],
    ["Data type", typeof meta.dataType === "string" ? meta.dataType : JSON.stringify(meta.dataType)],
    ["Fill value", fillValueText(info.fillValueJson, meta.dtype.kind === "f" || meta.dtype.kind === "c")],
    ["Shape", pyTupleRepr(meta.shape)],
  ];
  if (sharding !== undefined) items.push(["Shard shape", pyTupleRepr(meta.chunkShape)]);
  items.push(
    ["Chunk shape", pyTupleRepr(sharding === undefined ? meta.chunkShape : (innerChunkShape(sharding) ?? []))],
    ["Order", "C"],
    ["Read-only", "True"],
    ["Store type", info.storeType],
    ["Filters", codecTuple(filters)],
  );
  if (serializer !== undefined) items.push(["Serializer", codecReprV3(serializer)]);
  items.push(["Compressors", codecTuple(compressors)]);
  if (meta.dimensionNames !== undefined)
    items.push(["Dimension names", pyValue(meta.dimensionNames as JsonValue, true)]);
  items.push(["No. bytes", bytesRepr(info.nbytes)]);
  if (info.stored !== undefined) {
    items.push(["No. bytes stored", bytesRepr(info.stored)]);
    if (info.stored > 0) items.push(["Storage ratio", fixed1(info.nbytes / info.stored)]);
  }
  if (info.initialized !== undefined)
    items.push([sharding === undefined ? "Chunks Initialized" : "Shards Initialized", String(info.initialized)]);
  return layout(items, 18);
}

/** The lines of zarr-python 3's `Group.info_complete()`. */
export function groupInfoTextV3(info: {
  path: string;
  storeType: string;
  arrays: number;
  groups: number;
  v2Too: boolean;
}): string {
  return layout(
    [
      ["Name", info.path],
      ["Type", "Group"],
      ["Zarr format", info.v2Too ? "3 (a .zgroup is there too: a migrated group, read as v3)" : "3"],
      ["Read-only", "True"],
      ["Store type", info.storeType],
      ["No. members", String(info.arrays + info.groups)],
      ["No. arrays", String(info.arrays)],
      ["No. groups", String(info.groups)],
    ],
    11,
  );
}

function layout(items: readonly (readonly [string, string])[], width: number): string {
  const w = Math.max(width, ...items.map(([k]) => k.length));
  return `${items.map(([k, v]) => `${k.padEnd(w)} : ${v}`).join("\n")}\n`;
}
