import type { CodecConfig, JsonValue } from "@z/meta";
import { invalidField, onlyMembers, type CodecPlace } from "./errors.js";

type Configuration = { readonly [k: string]: JsonValue };

const BLOSC_CNAMES = ["lz4", "lz4hc", "blosclz", "zstd", "snappy", "zlib"] as const;
const BLOSC_SHUFFLES = ["noshuffle", "shuffle", "bitshuffle"] as const;
type BloscShuffle = (typeof BLOSC_SHUFFLES)[number];

function integerMember(
  place: CodecPlace,
  configuration: Configuration,
  member: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const value = configuration[member];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer from ${min}` : `an integer from ${min} to ${max}`;
    throw invalidField(place, `configuration.${member}`, range, value);
  }
  return value;
}

function choiceMember<T extends string>(
  place: CodecPlace,
  configuration: Configuration,
  member: string,
  choices: readonly T[],
  fallback: T,
): T {
  const value = configuration[member];
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !(choices as readonly string[]).includes(value)) {
    throw invalidField(
      place,
      `configuration.${member}`,
      `one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`,
      value,
    );
  }
  return value as T;
}

/**
 * The v2 (numcodecs) config of a v3 core `bytes → bytes` codec, which does the same job with the
 * same bytes: `blosc` (shuffle by name instead of number; `typesize` given to numcodecs' `Blosc` as
 * zarr-python 3 gives it, so encoding shuffles by it), `gzip`, `zstd` and `crc32c`. Members left out
 * take zarr-python 3's defaults (blosc: zstd, level 5, `typesize` the item size of what the chain's
 * array → bytes codec receives, `shuffle` then bit shuffle for 1-byte items and byte shuffle
 * otherwise, `blocksize` 0; gzip level 5; zstd level 0, no checksum). `itemsize` is that item size
 * (1 for object dtypes, as zarr-python 3 takes it).
 */
export function coreCodecConfig(
  place: CodecPlace,
  name: "blosc" | "gzip" | "zstd" | "crc32c",
  configuration: Configuration | undefined,
  itemsize: number,
): CodecConfig {
  const config = configuration ?? {};
  switch (name) {
    case "blosc": {
      onlyMembers(place, config, ["cname", "clevel", "shuffle", "typesize", "blocksize"]);
      const typesize = integerMember(place, config, "typesize", 1, Number.MAX_SAFE_INTEGER, itemsize);
      const shuffle = choiceMember<BloscShuffle>(
        place,
        config,
        "shuffle",
        BLOSC_SHUFFLES,
        typesize === 1 ? "bitshuffle" : "shuffle",
      );
      return {
        id: "blosc",
        cname: choiceMember(place, config, "cname", BLOSC_CNAMES, "zstd"),
        clevel: integerMember(place, config, "clevel", 0, 9, 5),
        shuffle: BLOSC_SHUFFLES.indexOf(shuffle),
        blocksize: integerMember(place, config, "blocksize", 0, Number.MAX_SAFE_INTEGER, 0),
        typesize,
      };
    }
    case "gzip":
      onlyMembers(place, config, ["level"]);
      return { id: "gzip", level: integerMember(place, config, "level", 0, 9, 5) };
    case "zstd": {
      onlyMembers(place, config, ["level", "checksum"]);
      const checksum = config.checksum ?? false;
      if (typeof checksum !== "boolean") throw invalidField(place, "configuration.checksum", "true or false", checksum);
      return { id: "zstd", level: integerMember(place, config, "level", -131072, 22, 0), checksum };
    }
    case "crc32c":
      onlyMembers(place, config, []);
      return { id: "crc32c" };
  }
}

/** The blosc shuffle names of numcodecs' numbers (AUTOSHUFFLE, -1, as numcodecs resolves it when encoding). */
export function bloscShuffleName(shuffle: number, itemsize: number): BloscShuffle | undefined {
  if (shuffle === -1) return itemsize === 1 ? "bitshuffle" : "shuffle";
  return BLOSC_SHUFFLES[shuffle];
}
