import type { CodecConfig, DataType, FillValue, JsonValue, NamedConfig } from "@z/meta";
import type { Codec } from "../codec.js";
import type { CodecRegistry } from "../codec-registry.js";
import { CodecConfigError, UnknownCodecError } from "../errors.js";
import { bytesCodec, parseBytesEndian } from "./bytes.js";
import { coreCodecConfig } from "./core-codecs.js";
import { invalidChain, invalidField, onlyMembers, unsupportedCodec, type CodecPlace } from "./errors.js";
import { arrayOutput, evolvedConfig, NUMCODECS_KINDS } from "./numcodecs.js";
import { permuteShape } from "./permute.js";
import type { ShardingOptions } from "./shard-options.js";
import { isIdentity, parseTransposeOrder, transposeCodec } from "./transpose.js";
import type { BuiltStage, ChainEnv, CompiledChain } from "./chain-types.js";
import type { ChainStage, CodecChainV3, CodecKindV3, StageChunk } from "./types.js";

export type { BuiltStage } from "./chain-types.js";

type Configuration = { readonly [k: string]: JsonValue };

/** A codec of a chain whose kind is known, to be built once its place in the chain is checked. */
interface Resolved {
  readonly kind: CodecKindV3;
  build(input: StageChunk): Promise<BuiltStage>;
}

/** The v3 codecs this entry implements, by name, and their kinds (`endian` is the `bytes` codec's first name, zarr-python 3 reads it). */
const NATIVE: Readonly<Record<string, CodecKindV3>> = {
  transpose: "array-array",
  bytes: "array-bytes",
  endian: "array-bytes",
  "vlen-utf8": "array-bytes",
  "vlen-bytes": "array-bytes",
  sharding_indexed: "array-bytes",
  blosc: "bytes-bytes",
  gzip: "bytes-bytes",
  zstd: "bytes-bytes",
  crc32c: "bytes-bytes",
};

/**
 * Codecs of the spec and of zarr-extensions z does not implement: refused by name
 * (`UnsupportedExtensionError`) rather than as unknown. `packbits` here is zarr-extensions'
 * array → bytes codec, not numcodecs' (`numcodecs.packbits`, which z has).
 */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  packbits: 'zarr-extensions\' array -> bytes "packbits" is not implemented (numcodecs\' is, as "numcodecs.packbits")',
  cast_value: "not implemented",
  scale_offset: "not implemented",
  reshape: "not implemented",
  zfp: "not implemented",
  n5_default: "not implemented",
  conditional: "not implemented",
};

const KIND_TEXT: Readonly<Record<CodecKindV3, string>> = {
  "array-array": "an array -> array codec",
  "array-bytes": "an array -> bytes codec",
  "bytes-bytes": "a bytes -> bytes codec",
};

/** The item size a bytes → bytes codec takes for its array: 1 for object dtypes (zarr-python 3: no item size). */
const itemsizeOf = (chunk: StageChunk): number => (chunk.dtype.kind === "O" ? 1 : chunk.itemsize);

async function viaRegistry(
  place: CodecPlace,
  registry: CodecRegistry,
  config: CodecConfig,
  kind: CodecKindV3,
  input: StageChunk,
): Promise<BuiltStage> {
  let codec: Codec;
  try {
    codec = await registry.create(config, { key: place.keyGiven ? place.key : undefined });
  } catch (error) {
    if (error instanceof CodecConfigError) {
      throw new CodecConfigError(
        `"${place.key}" has an invalid "${place.member}" (codec ${JSON.stringify(place.name)}): ${error.message}`,
        {
          codecId: error.codecId,
          field: error.field,
          expected: error.expected,
          key: error.key,
          cause: error,
        },
      );
    }
    throw error;
  }
  const registryConfig = codec.toJSON();
  const output = kind === "array-array" ? arrayOutput(registryConfig, input) : input;
  return { codec, kind, chunk: input, output, identity: false, registryConfigs: [registryConfig] };
}

/** `UnknownCodecError` for a name no codec answers to, naming it, the key and the member. */
function unknownCodec(place: CodecPlace, registry: CodecRegistry, id: string = place.name): UnknownCodecError {
  const known = [...new Set([...Object.keys(NATIVE), ...registry.ids()])].sort();
  const error = new UnknownCodecError(place.name, known, { key: place.keyGiven ? place.key : undefined });
  const what =
    id === place.name
      ? `the codec ${JSON.stringify(place.name)}`
      : `the codec ${JSON.stringify(place.name)} (the v2 codec ${JSON.stringify(id)})`;
  error.message =
    `"${place.key}" names an unknown codec at "${place.member}": ${what} is not a Zarr v3 codec z implements ` +
    `nor a codec id registered here (known: ${known.join(", ")}); register it with registerCodec(${JSON.stringify(id)}, loader)`;
  return error;
}

/**
 * The codec `named` stands for; `undefined` for one z does not implement that is marked
 * `must_understand: false`, which the spec lets readers ignore ("implementations can ignore its presence").
 */
async function resolve(place: CodecPlace, named: NamedConfig, env: ChainEnv): Promise<Resolved | undefined> {
  const { name, configuration } = named;
  const { registry } = env;
  const native = NATIVE[name];
  if (native !== undefined)
    return { kind: native, build: (input) => buildNative(place, name, configuration, input, env) };
  if (Object.hasOwn(UNSUPPORTED, name)) {
    if (named.must_understand === false) return undefined;
    throw unsupportedCodec(place, UNSUPPORTED[name]!);
  }
  const prefixed = name.startsWith("numcodecs.");
  const id = prefixed ? name.slice("numcodecs.".length) : name;
  if (!registry.has(id)) {
    if (named.must_understand === false) return undefined;
    throw unknownCodec(place, registry, id);
  }
  const factory = await registry.factory(id, { key: place.keyGiven ? place.key : undefined });
  const kind = factory.v3?.kind ?? NUMCODECS_KINDS[id] ?? "bytes-bytes";
  const given = configuration ?? {};
  // zarr-python 3 puts the name's id first and lets a configuration's "id" only repeat it.
  if (given.id !== undefined && given.id !== id) {
    throw invalidField(place, "configuration.id", `nothing or ${JSON.stringify(id)}`, given.id);
  }
  return {
    kind,
    build: (input) => viaRegistry(place, registry, { ...evolvedConfig(id, given, input), id }, kind, input),
  };
}

async function buildNative(
  place: CodecPlace,
  name: string,
  configuration: Configuration | undefined,
  input: StageChunk,
  env: ChainEnv,
): Promise<BuiltStage> {
  const kind = NATIVE[name]!;
  const { registry } = env;
  switch (name) {
    case "sharding_indexed":
      // Loaded with the first sharded array: a page reading others carries none of it.
      return (await import("./shard-config.js")).buildSharding(place, configuration, input, env);
    case "transpose": {
      const order = parseTransposeOrder(place, configuration, input.shape.length);
      const output = { ...input, shape: permuteShape(input.shape, order) };
      const identity = isIdentity(order);
      return { codec: transposeCodec(order, input), kind, chunk: input, output, identity, registryConfigs: [] };
    }
    case "bytes":
    case "endian": {
      if (input.dtype.kind === "O") {
        throw invalidChain(
          place,
          place.member,
          `the codec ${JSON.stringify(name)} stores fixed-size elements and cannot store a variable-length data type; use "vlen-utf8" (strings) or "vlen-bytes"`,
        );
      }
      const { codec, identity } = bytesCodec(parseBytesEndian(place, configuration, input.dtype), input);
      return { codec, kind, chunk: input, output: input, identity, registryConfigs: [] };
    }
    case "vlen-utf8":
    case "vlen-bytes": {
      if (input.dtype.kind !== "O") {
        throw invalidChain(
          place,
          place.member,
          `the codec ${JSON.stringify(name)} stores variable-length ${name === "vlen-utf8" ? "strings" : "byte strings"}, not fixed-size elements of ${input.itemsize} bytes; use "bytes"`,
        );
      }
      onlyMembers(place, configuration ?? {}, []);
      return viaRegistry(place, registry, needRegistered(place, registry, { id: name }), kind, input);
    }
    default: {
      const config = coreCodecConfig(place, name as "blosc", configuration, itemsizeOf(input));
      return viaRegistry(place, registry, needRegistered(place, registry, config), kind, input);
    }
  }
}

/** `config`, when `registry` has its codec; else the `UnknownCodecError` naming the v3 codec that needs it. */
function needRegistered(place: CodecPlace, registry: CodecRegistry, config: CodecConfig): CodecConfig {
  if (registry.has(config.id)) return config;
  const error = new UnknownCodecError(config.id, registry.ids(), { key: place.keyGiven ? place.key : undefined });
  const wasm = ["blosc", "zstd"].includes(config.id)
    ? " (@z/codecs-wasm has it: registerWasmCodecs(registry); @z/core's default registry has it registered)"
    : "";
  error.message =
    `"${place.key}" uses the codec ${JSON.stringify(place.name)} at "${place.member}", which z builds from the v2 codec ` +
    `${JSON.stringify(config.id)}, not registered here${wasm}; register it with registerCodec(${JSON.stringify(config.id)}, loader)`;
  throw error;
}

/** Where a codec stands, for errors. */
function placeOf(key: string | undefined, member: string, index: number, named: NamedConfig): CodecPlace {
  return {
    key: key ?? "zarr.json",
    keyGiven: key !== undefined,
    member: `${member}[${index}]`,
    name: String(named?.name),
  };
}

/** The environment of a chain compiled for an array at `key`. */
function chainEnv(
  registry: CodecRegistry,
  fillValue: FillValue,
  key: string | undefined,
  sharding: ShardingOptions = {},
): ChainEnv {
  const env: ChainEnv = {
    registry,
    fillValue,
    sharding,
    compile: (codecs, input, member) => compileChain(codecs, input, env, key, member),
  };
  return env;
}

/**
 * Builds one codec of a v3 chain for the chunk it receives (`input`; for a bytes → bytes codec, the
 * array the chain's array → bytes codec received), whatever its place: what `compileCodecsV3` does
 * for each codec, for tools that test or inspect a single codec (`@z/codecs/testing`'s `checkCodecV3`).
 * `undefined` for an unknown codec marked `must_understand: false`. `fillValue` is the array's
 * (`sharding_indexed` fills missing inner chunks with it; default `null`, zeros).
 */
export async function buildCodecV3(
  codec: NamedConfig,
  input: StageChunk,
  registry: CodecRegistry,
  context: { readonly key?: string; readonly index?: number; readonly fillValue?: FillValue } = {},
): Promise<BuiltStage | undefined> {
  const place = placeOf(context.key, "codecs", context.index ?? 0, codec);
  const resolved = await resolve(place, codec, chainEnv(registry, context.fillValue ?? null, context.key));
  return resolved?.build(input);
}

/** What `compileCodecsV3` takes besides the chain, the chunk and the registry. */
export interface CompileContextV3 {
  /** The store key of the `zarr.json`, for errors. */
  readonly key?: string;
  /** How `sharding_indexed` codecs of the chain read and cache (see `ShardingOptions`). */
  readonly sharding?: ShardingOptions;
}

/**
 * Compiles an array's v3 `codecs` (as `ArrayMetadataV3` holds them) for chunks of `chunk.shape` and
 * `chunk.dtype` (the `ArrayMetadataV3`'s dtype), building codecs through `registry` where a v2 codec
 * does the same job. See `CodecChainV3`. A `sharding_indexed` codec compiles its inner `codecs` and
 * `index_codecs` the same way (see `shardingCodec`).
 *
 * Errors: `MetadataError` (naming the key and the member `codecs[i]`, or
 * `codecs[i].configuration.codecs[j]` in a shard's chain) for a chain that is not
 * `[array -> array*, one array -> bytes, bytes -> bytes*]`, a codec in the wrong place or for the wrong
 * data, or a bad configuration of a v3 codec; `CodecConfigError` for a bad configuration of a codec
 * built by the registry (naming the member and the field); `UnknownCodecError` for a name that is
 * neither a v3 codec z implements nor a registered codec id (bare or as `numcodecs.<id>`), unless it
 * is marked `must_understand: false`, when it is left out as the spec allows;
 * `UnsupportedExtensionError` for a codec z knows but does not implement (`cast_value`, ...).
 */
export async function compileCodecsV3(
  codecs: readonly NamedConfig[],
  chunk: { readonly shape: readonly number[]; readonly dtype: DataType; readonly fillValue: FillValue },
  registry: CodecRegistry,
  context: CompileContextV3 = {},
): Promise<CodecChainV3> {
  const shape = [...chunk.shape];
  const input: StageChunk = {
    dtype: chunk.dtype,
    itemsize: chunk.dtype.itemsize,
    elements: shape.reduce((a, b) => a * b, 1),
    shape,
  };
  const env = chainEnv(registry, chunk.fillValue, context.key, context.sharding);
  const { stages, registryConfigs } = await compileChain(codecs, input, env, context.key, "codecs");
  return { stages, registryConfigs };
}

/** `compileCodecsV3` for the chain at `member` of the document at `key`, receiving `input`. */
async function compileChain(
  codecs: readonly NamedConfig[],
  input: StageChunk,
  env: ChainEnv,
  key: string | undefined,
  member: string,
): Promise<CompiledChain> {
  const chainPlace = { key: key ?? "zarr.json", keyGiven: key !== undefined };
  if (!Array.isArray(codecs) || codecs.length === 0) {
    throw invalidChain(chainPlace, member, "expected a list of codecs with one array -> bytes codec, found none");
  }
  let current = input;
  let serializer: { readonly place: CodecPlace } | undefined;
  const stages: ChainStage[] = [];
  const registryConfigs: CodecConfig[] = [];
  for (const [index, named] of codecs.entries()) {
    const place = placeOf(key, member, index, named);
    const resolved = await resolve(place, named, env);
    if (resolved === undefined) continue;
    const { kind } = resolved;
    if (kind === "bytes-bytes" && serializer === undefined) {
      throw invalidChain(
        chainPlace,
        place.member,
        `the codec ${JSON.stringify(place.name)} is ${KIND_TEXT[kind]} and comes before any array -> bytes codec ` +
          '(a chain is array -> array codecs, then one array -> bytes codec such as "bytes", then bytes -> bytes codecs)',
      );
    }
    if (kind !== "bytes-bytes" && serializer !== undefined) {
      const first = `${JSON.stringify(serializer.place.name)} at "${serializer.place.member}"`;
      throw invalidChain(
        chainPlace,
        place.member,
        kind === "array-bytes"
          ? `the codec ${JSON.stringify(place.name)} is a second array -> bytes codec (the first is ${first}); a chain has exactly one`
          : `the codec ${JSON.stringify(place.name)} is ${KIND_TEXT[kind]} and comes after the array -> bytes codec ${first}; array -> array codecs come first`,
      );
    }
    const built = await resolved.build(current);
    if (kind === "array-bytes") serializer = { place };
    current = built.output;
    registryConfigs.push(...built.registryConfigs);
    if (built.identity) continue;
    stages.push({ codec: built.codec, kind, chunk: built.chunk });
  }
  if (serializer === undefined) {
    throw invalidChain(
      chainPlace,
      member,
      'expected exactly one array -> bytes codec (such as "bytes", "vlen-utf8" or "vlen-bytes"), found none',
    );
  }
  return { stages, registryConfigs, output: current };
}
