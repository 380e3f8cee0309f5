/*
 * The `sharding_indexed` codec's configuration (docs/v3/codecs/sharding-indexed of zarr-specs):
 * `chunk_shape` (the inner chunks, each dividing the shard shape), `codecs` (the inner chunks'
 * chain, compiled like an array's, another `sharding_indexed` included), `index_codecs` (a
 * fixed-size chain for the index) and `index_location`. Members left out take zarr-python 3's
 * defaults: `codecs` `[bytes]`, `index_codecs` `[bytes little, crc32c]`, `index_location` `end`.
 */
import { fillValueBytes, parseDataType, type JsonValue, type NamedConfig } from "@z/meta";
import type { BuiltStage, ChainEnv } from "./chain-types.js";
import { invalidField, onlyMembers, unsupportedCodec, type CodecPlace } from "./errors.js";
import { encodeIndex, ShardIndex, type IndexCodecs, type IndexLocation } from "./shard-index.js";
import { ShardingCodec } from "./shard-codec.js";
import type { StageChunk } from "./types.js";

type Configuration = { readonly [k: string]: JsonValue };

const LE_BYTES: JsonValue = { name: "bytes", configuration: { endian: "little" } };
const DEFAULT_CODECS: readonly JsonValue[] = [LE_BYTES];
const DEFAULT_INDEX_CODECS: readonly JsonValue[] = [LE_BYTES, { name: "crc32c" }];

/** The codecs an index may use: those whose output size the input's size fixes (the spec; TensorStore checks the same). */
const FIXED_SIZE = new Set(["bytes", "endian", "transpose", "crc32c"]);

/** A list of codecs of the configuration, as `NamedConfig`s (the short-hand bare name included). */
function namedList(place: CodecPlace, configuration: Configuration, member: string, fallback: readonly JsonValue[]) {
  const value = configuration[member] ?? fallback;
  const expected = 'a list of codecs (each a name or an object with a string "name")';
  if (!Array.isArray(value) || value.length === 0)
    throw invalidField(place, `configuration.${member}`, expected, value);
  const items = value as readonly JsonValue[];
  const named = items.map((item, i): NamedConfig => {
    if (typeof item === "string") return { name: item };
    const obj = item as { name?: unknown; configuration?: unknown; must_understand?: unknown } | null;
    const ok =
      typeof obj === "object" &&
      obj !== null &&
      !Array.isArray(obj) &&
      typeof obj.name === "string" &&
      (obj.configuration === undefined ||
        (typeof obj.configuration === "object" && obj.configuration !== null && !Array.isArray(obj.configuration))) &&
      (obj.must_understand === undefined || typeof obj.must_understand === "boolean");
    if (!ok)
      throw invalidField(place, `configuration.${member}[${i}]`, 'a name or an object with a string "name"', item);
    return item as unknown as NamedConfig;
  });
  return { named, json: items };
}

function parseChunkShape(place: CodecPlace, configuration: Configuration, shard: readonly number[]): number[] {
  const value = configuration.chunk_shape;
  const rank = shard.length;
  const expected = `${rank} positive integer${rank === 1 ? "" : "s"}, each dividing the shard shape [${shard.join(", ")}]`;
  if (!Array.isArray(value) || value.length !== rank)
    throw invalidField(place, "configuration.chunk_shape", expected, value);
  const shape = value as readonly JsonValue[];
  shape.forEach((n, d) => {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1 || shard[d]! % n !== 0) {
      throw invalidField(place, "configuration.chunk_shape", expected, value);
    }
  });
  return shape as number[];
}

function parseLocation(place: CodecPlace, configuration: Configuration): IndexLocation {
  const value = configuration.index_location ?? "end";
  if (value !== "start" && value !== "end") {
    throw invalidField(place, "configuration.index_location", '"start" or "end"', value);
  }
  return value;
}

/** The `sharding_indexed` codec of `configuration`, for shards as `input` describes them. */
export async function buildSharding(
  place: CodecPlace,
  configuration: Configuration | undefined,
  input: StageChunk,
  env: ChainEnv,
): Promise<BuiltStage> {
  if (configuration === undefined) {
    throw invalidField(place, "configuration", 'an object with "chunk_shape"', undefined);
  }
  onlyMembers(place, configuration, ["chunk_shape", "codecs", "index_codecs", "index_location"]);
  if (input.dtype.kind === "O") {
    throw unsupportedCodec(place, "shards of variable-length data types (strings, bytes) are not implemented yet");
  }
  const innerShape = parseChunkShape(place, configuration, input.shape);
  const grid = input.shape.map((n, d) => n / innerShape[d]!);
  const codecs = namedList(place, configuration, "codecs", DEFAULT_CODECS);
  const indexCodecs = namedList(place, configuration, "index_codecs", DEFAULT_INDEX_CODECS);
  indexCodecs.named.forEach((codec, i) => {
    if (!FIXED_SIZE.has(codec.name)) {
      throw invalidField(
        { ...place, member: `${place.member}.configuration.index_codecs[${i}]`, name: codec.name },
        "",
        'a codec of fixed-size output ("bytes", "crc32c", "transpose"): a shard\'s index is read by its size',
        codec as unknown as JsonValue,
      );
    }
  });
  const location = parseLocation(place, configuration);

  const inner = await env.compile(
    codecs.named,
    {
      dtype: input.dtype,
      itemsize: input.itemsize,
      elements: innerShape.reduce((a, b) => a * b, 1),
      shape: innerShape,
    },
    `${place.member}.configuration.codecs`,
  );
  const count = grid.reduce((a, b) => a * b, 1);
  const uint64 = parseDataType("<u8");
  const index = await env.compile(
    indexCodecs.named,
    { dtype: uint64, itemsize: 8, elements: count * 2, shape: [...grid, 2] },
    `${place.member}.configuration.index_codecs`,
  );
  // The index codecs encode to a fixed size: that of an index of missing inner chunks.
  const probe: IndexCodecs = { stages: index.stages, size: -1, location };
  const size = (await encodeIndex(ShardIndex.empty(count), probe, undefined)).length;

  const config = {
    id: "sharding_indexed",
    chunk_shape: innerShape,
    codecs: codecs.json as JsonValue[],
    index_codecs: indexCodecs.json as JsonValue[],
    index_location: location,
  };
  const codec = new ShardingCodec(
    {
      shardShape: input.shape,
      innerShape,
      grid,
      dtype: input.dtype,
      itemsize: input.itemsize,
      pattern: fillValueBytes(env.fillValue, input.dtype),
      inner: inner.stages,
      index: { stages: index.stages, size, location },
      config,
    },
    env.sharding,
  );
  return {
    codec,
    kind: "array-bytes",
    chunk: input,
    output: input,
    identity: false,
    innerConfigs: [...inner.registryConfigs, ...index.registryConfigs],
  };
}
