import { numpyName, type CodecConfig, type DataType, type JsonValue, type Store } from "@z/meta";

/** numcodecs' class names, so `info` reads as zarr-python's does. */
const CODEC_CLASS: Record<string, string> = {
  blosc: "Blosc",
  zlib: "Zlib",
  gzip: "GZip",
  bz2: "BZ2",
  lzma: "LZMA",
  zstd: "Zstd",
  lz4: "LZ4",
  delta: "Delta",
  fixedscaleoffset: "FixedScaleOffset",
  quantize: "Quantize",
  packbits: "PackBits",
  categorize: "Categorize",
  astype: "AsType",
  shuffle: "Shuffle",
  bitround: "BitRound",
  crc32: "CRC32",
  crc32c: "CRC32C",
  adler32: "Adler32",
  fletcher32: "Fletcher32",
  jenkins_lookup3: "JenkinsLookup3",
  "vlen-utf8": "VLenUTF8",
  "vlen-bytes": "VLenBytes",
  "vlen-array": "VLenArray",
  json2: "JSON",
  msgpack2: "MsgPack",
  base64: "Base64",
};
const BLOSC_SHUFFLE: Record<string, string> = {
  "-1": "AUTOSHUFFLE",
  "0": "NOSHUFFLE",
  "1": "SHUFFLE",
  "2": "BITSHUFFLE",
};

/** A codec config written like numcodecs' repr, e.g. `Zlib(level=1)`. */
export function codecRepr(config: CodecConfig | null): string {
  if (config === null) return "None";
  const name = CODEC_CLASS[config.id] ?? config.id;
  const params = Object.keys(config)
    .filter((k) => k !== "id")
    .sort()
    .map(
      (k) =>
        `${k}=${config.id === "blosc" && k === "shuffle" ? (BLOSC_SHUFFLE[String(config[k])] ?? String(config[k])) : pyRepr(config[k]!)}`,
    );
  return `${name}(${params.join(", ")})`;
}

function pyRepr(value: JsonValue): string {
  if (typeof value === "string") return `'${value}'`;
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object" && "value" in value) return String(value.value);
  return String(value);
}

/** Python's tuple repr: `(3,)`, `(2, 3)`, `()`. */
export const tupleRepr = (values: readonly number[]): string =>
  values.length === 1 ? `(${values[0]},)` : `(${values.join(", ")})`;

/** zarr-python's `human_readable_size`. */
export function humanSize(n: number): string {
  const units = ["", "K", "M", "G", "T", "P"];
  let i = 0;
  while (i < units.length - 1 && n >= 2 ** (10 * (i + 1))) i++;
  return i === 0 ? String(n) : `${fixed1(n / 2 ** (10 * i))}${units[i]}`;
}

/** Python's `'%.1f'`: correctly rounded, ties to even (JS `toFixed` rounds ties up). */
export function fixed1(x: number): string {
  const scaled = x * 10;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5) return ((floor % 2 === 0 ? floor : floor + 1) / 10).toFixed(1);
  return x.toFixed(1);
}

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
}

/** The lines of zarr-python's `Array.info`, in its order and layout. */
export function arrayInfo(array: ArrayInfoSource, stored: number | undefined, initialized: number | undefined): string {
  const items: [string, string][] = [];
  if (array.name !== null) items.push(["Name", array.name]);
  items.push(
    ["Type", "ZarrArray"],
    ["Data type", numpyName(array.dtype)],
    ["Shape", tupleRepr(array.shape)],
    ["Chunk shape", tupleRepr(array.chunks)],
    ["Order", array.order],
    ["Read-only", array.readOnly ? "True" : "False"],
  );
  // not in zarr-python's: chunks found under "/" keys although .zarray names no separator
  if (array.dimensionSeparatorFound) items.push(["Dimension separator", NESTED_FOUND]);
  (array.filters ?? []).forEach((f, i) => items.push([`Filter [${i}]`, codecRepr(f)]));
  items.push(["Compressor", codecRepr(array.compressor)]);
  items.push(["Store type", array.store.constructor.name]);
  items.push(["No. bytes", bytesRepr(array.nbytes)]);
  if (stored !== undefined && stored > 0) {
    items.push(["No. bytes stored", bytesRepr(stored)]);
    items.push(["Storage ratio", fixed1(array.nbytes / stored)]);
  }
  items.push(["Chunks initialized", `${initialized ?? "?"}/${array.nchunks}`]);
  const width = Math.max(...items.map(([k]) => k.length));
  return `${items.map(([k, v]) => `${k.padEnd(width)} : ${v}`).join("\n")}\n`;
}
