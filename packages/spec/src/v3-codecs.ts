/*
 * zarr3 codec chains as TensorStore's zarr3 driver reads, writes and merges them
 * (tensorstore/driver/zarr3/codec/*.cc, codec_chain_spec.cc). A chain is zero or more
 * array -> array codecs (`transpose`), one array -> bytes codec (`bytes`, `sharding_indexed`) and
 * zero or more bytes -> bytes codecs (`blosc`, `gzip`, `zstd`, `crc32c`). Read as constraints (a
 * spec's `metadata.codecs` or `schema.codec`), members may be left out, a codec may be given by
 * its name alone and the array -> bytes codec may be missing: TensorStore chooses the rest when it
 * creates an array. Read as stored metadata, every member TensorStore needs must be there.
 */
import type { JsonValue } from "@z/meta";
import { SpecError } from "./errors.js";
import { dumpJson, isObject, Members, requireArray, requireBoolean, requireInteger, requireString } from "./json.js";

export type Endian = "little" | "big";
export type Shuffle = "noshuffle" | "shuffle" | "bitshuffle";
export type IndexLocation = "start" | "end";

/** One codec (its options; undefined ones unconstrained). */
export type CodecV3 =
  | { readonly name: "transpose"; readonly order: readonly number[] | "C" | "F" }
  | {
      readonly name: "bytes";
      readonly endian?: Endian;
      /** Read as a constraint: resolving it picks an `endian` where it matters, rather than refusing. */
      readonly constraints: boolean;
    }
  | {
      readonly name: "sharding_indexed";
      readonly chunkShape?: readonly number[];
      readonly indexCodecs?: ChainV3;
      readonly codecs?: ChainV3;
      readonly indexLocation?: IndexLocation;
    }
  | {
      readonly name: "blosc";
      readonly cname?: string;
      readonly clevel?: number;
      readonly shuffle?: Shuffle;
      readonly typesize?: number;
      readonly blocksize?: number;
    }
  | { readonly name: "gzip"; readonly level?: number }
  | { readonly name: "zstd"; readonly level?: number; readonly checksum?: boolean }
  | { readonly name: "crc32c" };

export type ShardingV3 = Extract<CodecV3, { name: "sharding_indexed" }>;

/** A codec chain (`arrayToBytes` undefined: unconstrained, in constraints only). */
export interface ChainV3 {
  readonly arrayToArray: readonly CodecV3[];
  readonly arrayToBytes?: CodecV3;
  readonly bytesToBytes: readonly CodecV3[];
}

export const EMPTY_CHAIN: ChainV3 = { arrayToArray: [], bytesToBytes: [] };

const KINDS: Record<CodecV3["name"], "a2a" | "a2b" | "b2b"> = {
  transpose: "a2a",
  bytes: "a2b",
  sharding_indexed: "a2b",
  blosc: "b2b",
  gzip: "b2b",
  zstd: "b2b",
  crc32c: "b2b",
};

/** The compressors blosc has a code for (TensorStore checks the name, not that its build has it). */
const BLOSC_CNAMES = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"];
const BLOSC_MAX_TYPESIZE = 255;
const BLOSC_MAX_BLOCKSIZE = 2 ** 31 - 1 - BLOSC_MAX_TYPESIZE * 4;

function oneOf<T extends string>(j: JsonValue, values: readonly T[], member: string): T {
  if (typeof j === "string" && (values as readonly string[]).includes(j)) return j as T;
  throw new SpecError(
    `Expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}, but received: ${dumpJson(j)}`,
    {
      member,
    },
  );
}

/** One codec of a chain: `{"name", "configuration"}`, or (constraints only) its name. */
export function parseCodecV3(input: JsonValue, member: string, constraints: boolean): CodecV3 {
  const j = constraints && typeof input === "string" ? { name: input } : input;
  const m = new Members(j, member);
  const nameJson = m.take("name");
  if (nameJson === undefined) throw new SpecError("Expected string, but member is missing", { member: m.at("name") });
  const name = requireString(nameJson, m.at("name"));
  if (!Object.hasOwn(KINDS, name))
    throw new SpecError(`${JSON.stringify(name)} is not registered`, { member: m.at("name") });
  const configuration = m.take("configuration");
  m.done();
  const at = m.at("configuration");
  if (configuration !== undefined && !isObject(configuration))
    throw new SpecError(`Expected object, but received: ${dumpJson(configuration)}`, { member: at });
  const c = new Members(configuration ?? {}, at);
  /** A member required in stored metadata, optional in constraints. */
  const needed = (key: string): JsonValue | undefined => {
    const v = c.take(key);
    if (v === undefined && !constraints)
      throw new SpecError("Expected value, but member is missing", { member: c.at(key) });
    return v;
  };
  const int = (key: string, min: number, max: number): number | undefined => {
    const v = needed(key);
    return v === undefined ? undefined : requireInteger(v, c.at(key), min, max);
  };
  let codec: CodecV3;
  switch (name as CodecV3["name"]) {
    case "transpose": {
      const order = c.take("order");
      if (order === undefined)
        throw new SpecError('Expected array, but member is missing; Expected one of "C", "F", but member is missing', {
          member: c.at("order"),
        });
      codec = { name: "transpose", order: parseOrder(order, c.at("order")) };
      break;
    }
    case "bytes": {
      const endian = c.take("endian");
      codec = {
        name: "bytes",
        ...(endian === undefined ? {} : { endian: oneOf(endian, ["little", "big"] as const, c.at("endian")) }),
        constraints,
      };
      break;
    }
    case "sharding_indexed": {
      const shape = needed("chunk_shape");
      const index = needed("index_codecs");
      const inner = needed("codecs");
      const location = c.take("index_location");
      codec = {
        name: "sharding_indexed",
        ...(shape === undefined
          ? {}
          : {
              chunkShape: requireArray(shape, c.at("chunk_shape")).map((x, i) =>
                requireInteger(x, `${c.at("chunk_shape")}[${i}]`, 1, 2n ** 63n - 1n),
              ),
            }),
        ...(index === undefined ? {} : { indexCodecs: parseChainV3(index, c.at("index_codecs"), constraints) }),
        ...(inner === undefined ? {} : { codecs: parseChainV3(inner, c.at("codecs"), constraints) }),
        ...(location === undefined
          ? constraints
            ? {}
            : { indexLocation: "end" as const }
          : { indexLocation: oneOf(location, ["start", "end"] as const, c.at("index_location")) }),
      };
      break;
    }
    case "blosc": {
      const cname = needed("cname");
      if (cname !== undefined && !BLOSC_CNAMES.includes(requireString(cname, c.at("cname"))))
        throw new SpecError(`Expected one of ${BLOSC_CNAMES.join(",")} but received: ${dumpJson(cname)}`, {
          member: c.at("cname"),
        });
      const clevel = int("clevel", 0, 9);
      const shuffleJson = needed("shuffle");
      const shuffle =
        shuffleJson === undefined
          ? undefined
          : oneOf(shuffleJson, ["noshuffle", "shuffle", "bitshuffle"] as const, c.at("shuffle"));
      // Without shuffling the typesize does not matter, and stored metadata may leave it out.
      const typesizeJson = shuffle === "noshuffle" ? c.take("typesize") : needed("typesize");
      const typesize =
        typesizeJson === undefined ? undefined : requireInteger(typesizeJson, c.at("typesize"), 1, BLOSC_MAX_TYPESIZE);
      const blocksize = int("blocksize", 0, BLOSC_MAX_BLOCKSIZE);
      codec = {
        name: "blosc",
        ...(cname === undefined ? {} : { cname: cname as string }),
        ...(clevel === undefined ? {} : { clevel }),
        ...(shuffle === undefined ? {} : { shuffle }),
        ...(typesize === undefined ? {} : { typesize }),
        ...(blocksize === undefined ? {} : { blocksize }),
      };
      break;
    }
    case "gzip": {
      const level = int("level", 0, 9);
      codec = { name: "gzip", ...(level === undefined ? {} : { level }) };
      break;
    }
    case "zstd": {
      const level = int("level", -131072, 22);
      const checksumJson = c.take("checksum");
      const checksum =
        checksumJson === undefined ? (constraints ? undefined : false) : requireBoolean(checksumJson, c.at("checksum"));
      codec = {
        name: "zstd",
        ...(level === undefined ? {} : { level }),
        ...(checksum === undefined ? {} : { checksum }),
      };
      break;
    }
    case "crc32c":
      codec = { name: "crc32c" };
      break;
  }
  c.done();
  return codec;
}

/** A transpose `order`: a permutation, or `"C"`/`"F"`. */
function parseOrder(j: JsonValue, member: string): readonly number[] | "C" | "F" {
  if (j === "C" || j === "F") return j;
  if (!Array.isArray(j))
    throw new SpecError(
      `No matching value binder: Expected array, but received: ${dumpJson(j)}; Expected one of "C", "F", but received: ${dumpJson(j)}`,
      { member },
    );
  if (j.length > 32) throw new SpecError(`Rank ${j.length} is outside valid range [0, 32]`, { member });
  const order = j.map((x, i) => requireInteger(x, `${member}[${i}]`, 0, 31));
  if (new Set(order).size !== order.length || order.some((x) => x >= order.length))
    throw new SpecError(`{${order.join(", ")}} is not a valid permutation`, { member });
  return order;
}

/** A `codecs` list: the array -> array codecs, then one array -> bytes codec, then bytes -> bytes codecs. */
export function parseChainV3(j: JsonValue, member: string, constraints: boolean): ChainV3 {
  const codecs = requireArray(j, member).map((c, i) => parseCodecV3(c, `${member}[${i}]`, constraints));
  let i = 0;
  const arrayToArray: CodecV3[] = [];
  for (; i < codecs.length && KINDS[codecs[i]!.name] === "a2a"; i++) arrayToArray.push(codecs[i]!);
  let arrayToBytes: CodecV3 | undefined;
  if (i < codecs.length && KINDS[codecs[i]!.name] === "a2b") arrayToBytes = codecs[i++];
  else if (!constraints) throw new SpecError("array -> bytes codec must be specified", { member });
  const bytesToBytes: CodecV3[] = [];
  for (; i < codecs.length; i++) {
    if (KINDS[codecs[i]!.name] !== "b2b")
      throw new SpecError(
        `Expected bytes -> bytes codec, but received: ${dumpJson(codecJsonV3(codecs[i]!, constraints))}`,
        {
          member: `${member}[${i}]`,
        },
      );
    bytesToBytes.push(codecs[i]!);
  }
  return { arrayToArray, ...(arrayToBytes === undefined ? {} : { arrayToBytes }), bytesToBytes };
}

// --- JSON -----------------------------------------------------------------------------------------

/** A codec as TensorStore writes it: `{"configuration": {...}, "name": ...}`, the configuration left out when empty. */
export function codecJsonV3(codec: CodecV3, constraints = false): JsonValue {
  const config: Record<string, JsonValue> = {};
  const set = (key: string, value: JsonValue | undefined): void => {
    if (value !== undefined) config[key] = value;
  };
  switch (codec.name) {
    case "transpose":
      set("order", typeof codec.order === "string" ? codec.order : [...codec.order]);
      break;
    case "bytes":
      set("endian", codec.endian);
      break;
    case "sharding_indexed":
      set("chunk_shape", codec.chunkShape === undefined ? undefined : [...codec.chunkShape]);
      set("index_codecs", codec.indexCodecs === undefined ? undefined : chainJsonV3(codec.indexCodecs, constraints));
      set("codecs", codec.codecs === undefined ? undefined : chainJsonV3(codec.codecs, constraints));
      // Stored metadata leaves out the default "end", for readers that do not know the member.
      if (constraints || codec.indexLocation !== "end") set("index_location", codec.indexLocation);
      break;
    case "blosc":
      set("cname", codec.cname);
      set("clevel", codec.clevel);
      set("shuffle", codec.shuffle);
      if (codec.shuffle !== "noshuffle") set("typesize", codec.typesize);
      set("blocksize", codec.blocksize);
      break;
    case "gzip":
      set("level", codec.level);
      break;
    case "zstd":
      set("level", codec.level);
      set("checksum", codec.checksum);
      break;
    case "crc32c":
      break;
  }
  return Object.keys(config).length === 0 ? { name: codec.name } : { name: codec.name, configuration: config };
}

/** A chain as the `codecs` list TensorStore writes. */
export function chainJsonV3(chain: ChainV3, constraints = false): JsonValue {
  return [
    ...chain.arrayToArray,
    ...(chain.arrayToBytes === undefined ? [] : [chain.arrayToBytes]),
    ...chain.bytesToBytes,
  ].map((c) => codecJsonV3(c, constraints));
}

// --- merging --------------------------------------------------------------------------------------

/** The number of nested `sharding_indexed` levels of a chain. */
export function shardingHeight(chain: ChainV3): number {
  const a2b = chain.arrayToBytes;
  if (a2b?.name !== "sharding_indexed") return 0;
  return 1 + (a2b.codecs === undefined ? 0 : shardingHeight(a2b.codecs));
}

const cannotMerge = (a: CodecV3, b: CodecV3, why: string): SpecError =>
  new SpecError(
    `Cannot merge zarr codec constraints ${dumpJson(codecJsonV3(a, true))} and ${dumpJson(codecJsonV3(b, true))}${why}`,
  );

/** TensorStore's `MergeConstraint`: a member given on both sides must be the same. */
function mergeMember<T>(
  a: CodecV3,
  b: CodecV3,
  key: string,
  x: T | undefined,
  y: T | undefined,
  same: (x: T, y: T) => boolean = (p, q) => dumpJson(p as JsonValue) === dumpJson(q as JsonValue),
): T | undefined {
  if (x === undefined) return y;
  if (y !== undefined && !same(x, y))
    throw cannotMerge(
      a,
      b,
      `: Incompatible ${JSON.stringify(key)}: ${dumpJson(x as JsonValue)} vs ${dumpJson(y as JsonValue)}`,
    );
  return x;
}

const isCOrder = (p: readonly number[]): boolean => p.every((x, i) => x === i);
const isFOrder = (p: readonly number[]): boolean => p.every((x, i) => x === p.length - 1 - i);

/** TensorStore's `TryMergeOrder`: a permutation merges with the `"C"`/`"F"` it is. */
function mergeOrder(a: CodecV3, b: CodecV3, x: readonly number[] | "C" | "F", y: readonly number[] | "C" | "F") {
  const fail = (): SpecError =>
    cannotMerge(a, b, `: Incompatible "order": ${dumpJson(x as JsonValue)} vs ${dumpJson(y as JsonValue)}`);
  const matches = (p: readonly number[], o: "C" | "F"): boolean => (o === "C" ? isCOrder(p) : isFOrder(p));
  if (typeof x !== "string" && typeof y === "string") {
    if (!matches(x, y)) throw fail();
    return x;
  }
  if (typeof x === "string" && typeof y !== "string") {
    if (!matches(y, x)) throw fail();
    return y;
  }
  if (dumpJson(x as JsonValue) !== dumpJson(y as JsonValue)) throw fail();
  return x;
}

/** TensorStore's `MergeZarrCodecSpecs` for two codecs (the same codec, their members merged). */
function mergeCodec(a: CodecV3 | undefined, b: CodecV3 | undefined, strict: boolean): CodecV3 | undefined {
  if (b === undefined) return a;
  if (a === undefined) return b;
  if (a.name !== b.name) throw cannotMerge(a, b, "");
  const withContext = <T>(what: string, f: () => T): T => {
    try {
      return f();
    } catch (error) {
      if (error instanceof SpecError) throw cannotMerge(a, b, `: ${what}: ${error.message}`);
      throw error;
    }
  };
  switch (a.name) {
    case "transpose":
      return { name: "transpose", order: mergeOrder(a, b, a.order, (b as typeof a).order) };
    case "bytes": {
      const endian = mergeMember(a, b, "endian", a.endian, (b as typeof a).endian);
      return { name: "bytes", ...(endian === undefined ? {} : { endian }), constraints: a.constraints };
    }
    case "sharding_indexed": {
      const o = b as typeof a;
      const chunkShape = mergeMember(a, b, "chunk_shape", a.chunkShape, o.chunkShape);
      const indexCodecs = withContext('Incompatible "index_codecs"', () =>
        mergeOptionalChains(a.indexCodecs, o.indexCodecs, strict),
      );
      const codecs = withContext('Incompatible sub-chunk "codecs"', () =>
        mergeOptionalChains(a.codecs, o.codecs, strict),
      );
      const indexLocation = mergeMember(a, b, "index_location", a.indexLocation, o.indexLocation);
      return {
        name: "sharding_indexed",
        ...(chunkShape === undefined ? {} : { chunkShape }),
        ...(indexCodecs === undefined ? {} : { indexCodecs }),
        ...(codecs === undefined ? {} : { codecs }),
        ...(indexLocation === undefined ? {} : { indexLocation }),
      };
    }
    case "blosc": {
      const o = b as typeof a;
      const out: Record<string, unknown> = { name: "blosc" };
      for (const [key, x, y] of [
        ["cname", a.cname, o.cname],
        ["clevel", a.clevel, o.clevel],
        ["shuffle", a.shuffle, o.shuffle],
        ["typesize", a.typesize, o.typesize],
        ["blocksize", a.blocksize, o.blocksize],
      ] as const) {
        const v = mergeMember<string | number>(a, b, key, x, y);
        if (v !== undefined) out[key] = v;
      }
      return out as CodecV3;
    }
    case "gzip": {
      const level = mergeMember(a, b, "level", a.level, (b as typeof a).level);
      return { name: "gzip", ...(level === undefined ? {} : { level }) };
    }
    case "zstd": {
      const o = b as typeof a;
      const level = mergeMember(a, b, "level", a.level, o.level);
      const checksum = mergeMember(a, b, "checksum", a.checksum, o.checksum);
      return {
        name: "zstd",
        ...(level === undefined ? {} : { level }),
        ...(checksum === undefined ? {} : { checksum }),
      };
    }
    case "crc32c":
      return a;
  }
}

function mergeList(
  targets: readonly CodecV3[],
  sources: readonly CodecV3[],
  strict: boolean,
  kind: "array -> array" | "bytes -> bytes",
): CodecV3[] {
  let out = [...targets];
  let count = out.length;
  let mismatch = targets.length !== sources.length;
  if (kind === "array -> array" && !strict) {
    // A transpose TensorStore inserted for an inner order may be on one side only.
    if (sources.length === targets.length + 1 && sources[sources.length - 1]!.name === "transpose") {
      out = [...out, sources[sources.length - 1]!];
      mismatch = false;
    } else if (sources.length + 1 === targets.length && targets[targets.length - 1]!.name === "transpose") {
      count--;
      mismatch = false;
    }
  }
  if (mismatch)
    throw new SpecError(
      `Cannot merge zarr codec constraints ${dumpJson(targets.map((c) => codecJsonV3(c, true)))} and ${dumpJson(sources.map((c) => codecJsonV3(c, true)))}: Mismatch in number of ${kind} codecs (${targets.length} vs ${sources.length})`,
    );
  for (let i = 0; i < count; i++) out[i] = mergeCodec(out[i], sources[i], strict)!;
  return out;
}

/** A sharding codec with `other` merged into its sub-chunk codecs. */
function mergeIntoSubChunks(sharding: ShardingV3, other: ChainV3, strict: boolean): ShardingV3 {
  return {
    ...sharding,
    codecs: sharding.codecs === undefined ? other : mergeChains(sharding.codecs, other, strict),
  };
}

/**
 * TensorStore's `ZarrCodecChainSpec::MergeFrom`. Not strict (constraints merged with constraints),
 * a chain of codecs merges into the sub-chunk codecs of a sharding codec standing alone on the
 * other side; strict (stored metadata checked against constraints), chains merge codec by codec.
 */
export function mergeChains(a: ChainV3, b: ChainV3, strict: boolean): ChainV3 {
  if (!strict) {
    const ha = shardingHeight(a);
    const hb = shardingHeight(b);
    if (ha > hb && a.arrayToArray.length === 0 && a.bytesToBytes.length === 0)
      return { ...a, arrayToBytes: mergeIntoSubChunks(a.arrayToBytes as ShardingV3, b, strict) };
    if (ha < hb && b.arrayToArray.length === 0 && b.bytesToBytes.length === 0)
      return {
        arrayToArray: [],
        arrayToBytes: mergeIntoSubChunks(b.arrayToBytes as ShardingV3, a, strict),
        bytesToBytes: [],
      };
  }
  const arrayToArray = mergeList(a.arrayToArray, b.arrayToArray, strict, "array -> array");
  const arrayToBytes = mergeCodec(a.arrayToBytes, b.arrayToBytes, strict);
  const bytesToBytes = mergeList(a.bytesToBytes, b.bytesToBytes, strict, "bytes -> bytes");
  return { arrayToArray, ...(arrayToBytes === undefined ? {} : { arrayToBytes }), bytesToBytes };
}

export function mergeOptionalChains(
  a: ChainV3 | undefined,
  b: ChainV3 | undefined,
  strict: boolean,
): ChainV3 | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return mergeChains(a, b, strict);
}
