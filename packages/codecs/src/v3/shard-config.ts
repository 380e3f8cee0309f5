/*
 * The `sharding_indexed` codec's configuration (docs/v3/codecs/sharding-indexed of zarr-specs):
 * `chunk_shape` (the inner chunks, each dividing the shard shape), `codecs` (the inner chunks'
 * chain, compiled like an array's, another `sharding_indexed` included), `index_codecs` (a
 * fixed-size chain for the index) and `index_location`. Members left out take zarr-python 3's
 * defaults: `codecs` `[bytes]`, `index_codecs` `[bytes little, crc32c]`, `index_location` `end`.
 */
import { fillValueBytes, parseDataType, type FillValue, type JsonValue } from "@z/meta";
import { readNamedConfig } from "@z/meta/v3";
import type { BuiltStage, ChainEnv } from "./chain-types.js";
import { invalidField, onlyMembers, type CodecPlace } from "./errors.js";
import type { IndexLocation } from "./shard-index.js";
import { ShardingCodec } from "./shard-codec.js";
import type { StageChunk } from "./types.js";

type Configuration = { readonly [k: string]: JsonValue };

const LE_BYTES: JsonValue = { name: "bytes", configuration: { endian: "little" } };
const DEFAULT_CODECS: readonly JsonValue[] = [LE_BYTES];
const DEFAULT_INDEX_CODECS: readonly JsonValue[] = [LE_BYTES, { name: "crc32c" }];

/**
 * The bytes → bytes codecs an index may use: checksums of 4 bytes, whose output's size its input's
 * fixes (the spec refuses compressors there; TensorStore checks the same).
 */
const CHECKSUMS = new Set(["crc32c", "crc32", "adler32", "fletcher32", "jenkins_lookup3"]);

/**
 * A list of codecs inside the configuration, each read as `zarr.json`'s `codecs` are (a name, or
 * `{name, configuration?, must_understand?}`), with the JSON it was given (for `toJSON`).
 */
function namedList(place: CodecPlace, configuration: Configuration, member: string, fallback: readonly JsonValue[]) {
  const value = configuration[member] ?? fallback;
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidField(place, `configuration.${member}`, "a non-empty list of codecs", value);
  }
  const json = value as readonly JsonValue[];
  const field = `${place.member}.configuration.${member}`;
  return { named: json.map((item, i) => readNamedConfig(item, place.key, `${field}[${i}]`)), json };
}

function parseChunkShape(place: CodecPlace, configuration: Configuration, shard: readonly number[]): number[] {
  const value = configuration.chunk_shape;
  const rank = shard.length;
  const expected = `${rank} positive integer${rank === 1 ? "" : "s"}, each dividing the shard's [${shard.join(", ")}]`;
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

/**
 * One element of `fillValue` as the shard's elements hold it; none for an object dtype (its values
 * are compared themselves); zeros when the fill is not one of the type the shard receives (an
 * array → array codec before the shards changed it).
 */
function fillPattern(fillValue: FillValue, input: StageChunk): Uint8Array {
  if (input.dtype.kind === "O") return new Uint8Array(0);
  try {
    return fillValueBytes(fillValue, input.dtype);
  } catch {
    return new Uint8Array(input.itemsize);
  }
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
  const innerShape = parseChunkShape(place, configuration, input.shape);
  const grid = input.shape.map((n, d) => n / innerShape[d]!);
  const codecs = namedList(place, configuration, "codecs", DEFAULT_CODECS);
  const indexCodecs = namedList(place, configuration, "index_codecs", DEFAULT_INDEX_CODECS);
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
  // The index's size: its bytes as the `bytes` codec receives them, 4 more for each checksum.
  let size = index.output.elements * index.output.itemsize;
  for (const stage of index.stages) {
    if (stage.kind === "bytes-bytes") size += 4;
    if (stage.kind === "bytes-bytes" && !CHECKSUMS.has(stage.codec.id)) {
      throw invalidField(
        place,
        "configuration.index_codecs",
        "codecs of a fixed size (bytes, transpose, a checksum such as crc32c)",
        indexCodecs.named.map((c) => c.name),
      );
    }
  }

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
      pattern: fillPattern(env.fillValue, input),
      fillValue: env.fillValue,
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
    registryConfigs: [...inner.registryConfigs, ...index.registryConfigs],
  };
}
