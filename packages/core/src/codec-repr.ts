import type { CodecConfig, JsonValue } from "@z/meta";

// How zarr-python and numcodecs name codecs in reprs and messages (`info`, migration errors).

/** numcodecs' class names by codec id (what zarr-python's reprs and messages name a codec by). */
export const CODEC_CLASS: Readonly<Record<string, string>> = {
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
  pcodec: "PCodec",
  zfpy: "ZFPY",
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
