/*
 * What a zarr3 codec chain implies and how TensorStore completes it
 * (tensorstore/driver/zarr3/codec/codec_chain_spec.cc `GetDecodedChunkLayout`, `Resolve`, and each
 * codec's): the chunk layout a chain implies (inner order, read chunk shape of a sharded array);
 * the chain TensorStore writes for constraints (the `bytes` codec it adds, its `endian`, the
 * `transpose` it inserts for an inner order, blosc's `typesize` and `shuffle` from the element
 * size, the defaults of gzip, zstd and sharding); and the checks of a chain against a chunk shape.
 */
import { dumpJson } from "./json.js";
import type { TsDataType } from "./dtype.js";
import { SpecError } from "./errors.js";
import { chainJsonV3, codecJsonV3, type ChainV3, type CodecV3, EMPTY_CHAIN, type ShardingV3 } from "./v3-codecs.js";
import { zarr3ItemSize } from "./v3-dtype.js";

/** What a codec sees of the chunks it encodes. */
export interface ArrayInfoV3 {
  readonly dtype: TsDataType | undefined;
  readonly rank: number;
  readonly shape?: readonly number[];
}

/** The chunk layout a chain implies for the array it decodes to. */
export interface LayoutInfoV3 {
  innerOrder?: number[];
  readChunkShape?: number[];
  codecChunkShape?: number[];
}

/** What resolving a codec is told of the decoded array. */
export interface ResolveParamsV3 {
  readonly dtype: TsDataType;
  readonly rank: number;
  readonly readChunkShape?: readonly number[];
  readonly codecChunkShape?: readonly number[];
  readonly innerOrder?: readonly number[];
}

/** TensorStore's element types whose bytes do not depend on byte order (one byte or less). */
const endianInvariant = (dtype: TsDataType): boolean => zarr3ItemSize(dtype) === 1;

const vec = (v: readonly number[]): string => `{${v.join(", ")}}`;

/** "Error <what> through codec <codec>: ..." */
function through<T>(codec: CodecV3, what: string, f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof SpecError)
      throw new SpecError(`Error ${what} through codec ${dumpJson(codecJsonV3(codec, true))}: ${error.message}`);
    throw error;
  }
}

/** A transpose codec's order as a permutation of `rank` dimensions. */
function resolveOrder(order: readonly number[] | "C" | "F", rank: number): number[] {
  if (order === "C") return Array.from({ length: rank }, (_, i) => i);
  if (order === "F") return Array.from({ length: rank }, (_, i) => rank - 1 - i);
  if (order.length !== rank)
    throw new SpecError(`${vec(order)} is not a valid dimension permutation for a rank ${rank} array`);
  return [...order];
}

const invert = (p: readonly number[]): number[] => {
  const out = new Array<number>(p.length);
  p.forEach((x, i) => {
    out[x] = i;
  });
  return out;
};

/** `out[order[i]] = v[i]`: an encoded shape's lengths in the decoded dimensions' places. */
const toDecoded = (order: readonly number[], v: readonly number[] | undefined): number[] | undefined => {
  if (v === undefined) return undefined;
  const out = new Array<number>(order.length);
  order.forEach((d, i) => {
    out[d] = v[i]!;
  });
  return out;
};

const subRankMismatch = (shape: readonly number[], rank: number): SpecError =>
  new SpecError(`sharding_indexed sub-chunk shape of ${vec(shape)} is not compatible with array of rank ${rank}`);

// --- the layout a chain implies --------------------------------------------------------------------

function a2bLayout(codec: CodecV3, info: ArrayInfoV3): LayoutInfoV3 {
  if (codec.name === "bytes") {
    const out: LayoutInfoV3 = { innerOrder: Array.from({ length: info.rank }, (_, i) => i) };
    if (info.shape !== undefined) out.readChunkShape = [...info.shape];
    return out;
  }
  const s = codec as ShardingV3;
  if (s.chunkShape !== undefined && s.chunkShape.length !== info.rank) throw subRankMismatch(s.chunkShape, info.rank);
  const sub: ArrayInfoV3 = {
    dtype: info.dtype,
    rank: info.rank,
    ...(s.chunkShape === undefined ? {} : { shape: s.chunkShape }),
  };
  return s.codecs === undefined ? {} : chainLayout(s.codecs, sub);
}

/** TensorStore's `ZarrCodecChainSpec::GetDecodedChunkLayout`. */
export function chainLayout(chain: ChainV3, info: ArrayInfoV3): LayoutInfoV3 {
  const infos: ArrayInfoV3[] = [];
  let decoded = info;
  const orders: number[][] = [];
  for (const codec of chain.arrayToArray) {
    const order = through(codec, "propagating data type and shape", () =>
      resolveOrder((codec as Extract<CodecV3, { name: "transpose" }>).order, decoded.rank),
    );
    orders.push(order);
    const encoded: ArrayInfoV3 = {
      dtype: decoded.dtype,
      rank: order.length,
      ...(decoded.shape === undefined ? {} : { shape: order.map((d) => decoded.shape![d]!) }),
    };
    infos.push(encoded);
    decoded = encoded;
  }
  let layout: LayoutInfoV3 = {};
  if (chain.arrayToBytes !== undefined) {
    const a2b = chain.arrayToBytes;
    layout = through(a2b, "propagating chunk layout", () => a2bLayout(a2b, decoded));
  }
  for (let i = chain.arrayToArray.length - 1; i >= 0; i--) {
    const order = orders[i]!;
    layout = {
      ...(layout.innerOrder === undefined ? {} : { innerOrder: layout.innerOrder.map((x) => order[x]!) }),
      ...(layout.readChunkShape === undefined ? {} : { readChunkShape: toDecoded(order, layout.readChunkShape) }),
      ...(layout.codecChunkShape === undefined ? {} : { codecChunkShape: toDecoded(order, layout.codecChunkShape) }),
    };
  }
  return layout;
}

// --- resolving ------------------------------------------------------------------------------------

/** A resolved chain, and the element size in bits of the bytes it ends with (-1: unknown). */
interface Resolved {
  readonly chain: ChainV3;
  readonly itemBits: number;
}

/** A transpose resolved: its order as a permutation, and the parameters the next codec sees. */
function resolveTranspose(
  order: readonly number[] | "C" | "F",
  decoded: ResolveParamsV3,
): { codec: CodecV3; encoded: ResolveParamsV3 } {
  const perm = resolveOrder(order, decoded.rank);
  const inverse = invert(perm);
  const encoded: ResolveParamsV3 = {
    dtype: decoded.dtype,
    rank: decoded.rank,
    ...(decoded.innerOrder === undefined ? {} : { innerOrder: decoded.innerOrder.map((x) => inverse[x]!) }),
    ...(decoded.readChunkShape === undefined ? {} : { readChunkShape: toDecoded(inverse, decoded.readChunkShape) }),
    ...(decoded.codecChunkShape === undefined ? {} : { codecChunkShape: toDecoded(inverse, decoded.codecChunkShape) }),
  };
  return { codec: { name: "transpose", order: perm }, encoded };
}

function resolveBytes(codec: Extract<CodecV3, { name: "bytes" }>, decoded: ResolveParamsV3): Resolved {
  const invariant = endianInvariant(decoded.dtype);
  if (!codec.constraints && !invariant && codec.endian === undefined)
    throw new SpecError(`"bytes" codec requires that "endian" option is specified for data type ${decoded.dtype}`);
  if (decoded.codecChunkShape !== undefined)
    throw new SpecError(
      `"bytes" codec does not support codec_chunk_shape (${vec(decoded.codecChunkShape)} was specified)`,
    );
  if (decoded.innerOrder?.some((x, i) => x !== i))
    throw new SpecError(`"bytes" codec does not support inner_order of ${vec(decoded.innerOrder)}`);
  const endian = invariant ? undefined : (codec.endian ?? "little");
  return {
    chain: {
      arrayToArray: [],
      arrayToBytes: { name: "bytes", ...(endian === undefined ? {} : { endian }), constraints: false },
      bytesToBytes: [],
    },
    itemBits: zarr3ItemSize(decoded.dtype) * 8,
  };
}

/** The index codecs TensorStore gives a shard when none are given: `bytes` (little-endian), `crc32c`. */
const DEFAULT_INDEX_CODECS: ChainV3 = {
  arrayToArray: [],
  arrayToBytes: { name: "bytes", endian: "little", constraints: false },
  bytesToBytes: [{ name: "crc32c" }],
};

function resolveSharding(codec: ShardingV3, decoded: ResolveParamsV3): Resolved {
  const subShape = codec.chunkShape ?? decoded.readChunkShape;
  if (subShape === undefined) throw new SpecError('"chunk_shape" must be specified');
  if (subShape.length !== decoded.rank) throw subRankMismatch(subShape, decoded.rank);
  let sub: Resolved;
  try {
    sub = resolveChainV3(codec.codecs ?? EMPTY_CHAIN, decoded);
  } catch (error) {
    if (error instanceof SpecError) throw new SpecError(`Error resolving sub-chunk codecs: ${error.message}`);
    throw error;
  }
  let index: Resolved;
  try {
    index = resolveChainV3(codec.indexCodecs ?? DEFAULT_INDEX_CODECS, { dtype: "uint64", rank: subShape.length + 1 });
  } catch (error) {
    if (error instanceof SpecError) throw new SpecError(`Error resolving index_codecs: ${error.message}`);
    throw error;
  }
  return {
    chain: {
      arrayToArray: [],
      arrayToBytes: {
        name: "sharding_indexed",
        chunkShape: [...subShape],
        indexCodecs: index.chain,
        codecs: sub.chain,
        indexLocation: codec.indexLocation ?? "end",
      },
      bytesToBytes: [],
    },
    itemBits: sub.itemBits,
  };
}

function resolveBlosc(codec: Extract<CodecV3, { name: "blosc" }>, itemBits: number): CodecV3 {
  let shuffle = codec.shuffle;
  let typesize = codec.typesize;
  if (shuffle !== "noshuffle" && typesize === undefined) {
    if (itemBits === -1 || itemBits % 8 !== 0 || itemBits / 8 > 255) {
      if (shuffle !== undefined)
        throw new SpecError(
          `typesize must be specified explicitly because inferred itemsize ${itemBits}/8 is not supported by Blosc`,
        );
      // Bytes of unknown element size (after another bytes -> bytes codec) are not shuffled.
      shuffle = "noshuffle";
      typesize = 1;
    } else {
      typesize = itemBits / 8;
    }
  }
  const size = typesize ?? 1;
  const chosen = shuffle ?? (size === 1 ? "bitshuffle" : "shuffle");
  return {
    name: "blosc",
    cname: codec.cname ?? "lz4",
    clevel: codec.clevel ?? 5,
    shuffle: chosen,
    ...(chosen === "noshuffle" ? {} : { typesize: size }),
    blocksize: codec.blocksize ?? 0,
  };
}

function resolveBytesToBytes(codec: CodecV3, itemBits: number): CodecV3 {
  switch (codec.name) {
    case "blosc":
      return resolveBlosc(codec, itemBits);
    case "gzip":
      return { name: "gzip", level: codec.level ?? 6 };
    case "zstd":
      // riegeli's default zstd level.
      return { name: "zstd", level: codec.level ?? 3, checksum: codec.checksum ?? false };
    default:
      return codec;
  }
}

/**
 * TensorStore's `ZarrCodecChainSpec::Resolve`: the chain written for these constraints. A chain
 * without an array -> bytes codec gets `bytes`; an inner order `bytes` cannot keep gets a
 * `transpose` before it.
 */
export function resolveChainV3(chain: ChainV3, decoded: ResolveParamsV3): Resolved {
  const arrayToArray: CodecV3[] = [];
  let params = decoded;
  const transpose = (order: readonly number[] | "C" | "F", codec: CodecV3): void => {
    const r = through(codec, "resolving codec spec", () => resolveTranspose(order, params));
    arrayToArray.push(r.codec);
    params = r.encoded;
  };
  for (const codec of chain.arrayToArray) transpose((codec as Extract<CodecV3, { name: "transpose" }>).order, codec);
  const a2b: CodecV3 = chain.arrayToBytes ?? { name: "bytes", endian: "little", constraints: false };
  // The bytes codec keeps C order only: an other inner order is a transpose's to make.
  if (a2b.name === "bytes" && params.innerOrder !== undefined && params.innerOrder.some((x, i) => x !== i)) {
    const order = [...params.innerOrder];
    transpose(order, { name: "transpose", order });
  }
  const last = params;
  const resolved = through(a2b, "resolving codec spec", () =>
    a2b.name === "bytes" ? resolveBytes(a2b, last) : resolveSharding(a2b as ShardingV3, last),
  );
  if (a2b.name === "sharding_indexed" && chain.bytesToBytes.length > 0)
    throw new SpecError(
      `Sharding codec ${dumpJson(codecJsonV3(a2b, true))} is not compatible with subsequent bytes -> bytes codecs ${dumpJson(chain.bytesToBytes.map((c) => codecJsonV3(c, true)))} that apply to the entire shard.  Instead, bytes -> bytes codecs may be specified as inner codecs that apply to each sub-chunk individually.`,
    );
  let itemBits = resolved.itemBits;
  const bytesToBytes: CodecV3[] = [];
  for (const codec of chain.bytesToBytes) {
    const bits = itemBits;
    bytesToBytes.push(through(codec, "resolving codec spec", () => resolveBytesToBytes(codec, bits)));
    // No bytes -> bytes codec tells the next one the size of its elements.
    itemBits = -1;
  }
  return { chain: { arrayToArray, arrayToBytes: resolved.chain.arrayToBytes, bytesToBytes }, itemBits };
}

// --- checks against a chunk shape -----------------------------------------------------------------

/** Whether a chain encodes a chunk into a number of bytes known before encoding (a shard index must). */
function fixedSize(chain: ChainV3): boolean {
  return chain.arrayToBytes?.name === "bytes" && chain.bytesToBytes.every((c) => c.name === "crc32c");
}

/**
 * TensorStore's `ZarrCodecChain::Prepare` for a chunk of `shape`: each sharding level's sub-chunk
 * shape must divide the shape it splits, and a shard index must encode to a fixed size.
 */
export function prepareChainV3(chain: ChainV3, shape: readonly number[]): void {
  let current = [...shape];
  for (const codec of chain.arrayToArray) {
    const order = resolveOrder((codec as Extract<CodecV3, { name: "transpose" }>).order, current.length);
    if (order.length !== current.length)
      throw new SpecError(`${vec(order)} is not a valid dimension permutation for a rank ${current.length} array`);
    current = order.map((d) => current[d]!);
  }
  const a2b = chain.arrayToBytes;
  if (a2b?.name === "sharding_indexed") {
    const sub = a2b.chunkShape!;
    if (sub.length !== current.length) throw subRankMismatch(sub, current.length);
    if (current.some((s, i) => s % sub[i]! !== 0))
      throw new SpecError(
        `sharding_indexed sub-chunk shape of ${vec(sub)} does not evenly divide chunk shape of ${vec(current)}`,
      );
    prepareChainV3(a2b.codecs!, sub);
    if (!fixedSize(a2b.indexCodecs!))
      throw new SpecError("Invalid index_codecs specified: only fixed-size encodings are supported");
  }
}

/** The `codecs` list of a resolved chain as TensorStore writes it into `zarr.json`. */
export const resolvedChainJson = (chain: ChainV3) => chainJsonV3(chain, false);
