import { fillValueBytes, ZarrError, type CodecConfig, type FillValue, type JsonValue, type NamedConfig } from "@z/meta";
import type { ChunkContext, Codec, CodecData } from "../codec.js";
import { CodecError, inChunk } from "../errors.js";
import { invalidField, onlyMembers, type CodecPlace } from "./errors.js";
import type { ChainStage, CodecChainV3, StageChunk } from "./types.js";

type Configuration = { readonly [k: string]: JsonValue };

/** How `compileCodecsV3` compiles a nested chain (passed in, so this module does not import it). */
export type CompileChain = (
  codecs: readonly NamedConfig[],
  chunk: StageChunk,
  fillValue: FillValue,
  member: string,
) => Promise<CodecChainV3>;

/** zarr-python 3's default when `index_codecs` is left out: little-endian, then a CRC-32C. */
const DEFAULT_INDEX_CODECS: readonly NamedConfig[] = [
  { name: "bytes", configuration: { endian: "little" } },
  { name: "crc32c" },
];

/** Checksums of 4 bytes, the only bytes → bytes codecs whose output has a fixed size. */
const CHECKSUMS = new Set(["crc32c", "crc32", "adler32", "fletcher32", "jenkins_lookup3"]);

/** `2^64 - 1`, offset and length of an inner chunk that is not stored. */
const MISSING = 0xffffffffffffffffn;

/** A list of codecs inside a configuration, each a name or `{name, configuration?, must_understand?}` (as `zarr.json`'s `codecs`). */
function codecList(place: CodecPlace, configuration: Configuration, member: string): NamedConfig[] | undefined {
  const value = configuration[member];
  if (value === undefined) return undefined;
  const expected = "a non-empty list of codecs";
  if (!Array.isArray(value) || value.length === 0)
    throw invalidField(place, `configuration.${member}`, expected, value);
  return (value as readonly JsonValue[]).map((item, i) => {
    const field = `configuration.${member}[${i}]`;
    if (typeof item === "string") return { name: item };
    const object = item as { readonly [k: string]: JsonValue } | null;
    if (typeof object !== "object" || object === null || Array.isArray(object) || typeof object.name !== "string") {
      throw invalidField(place, field, 'a name or an object with a string "name"', item);
    }
    const { name, configuration: inner, must_understand: must } = object;
    if (inner !== undefined && (typeof inner !== "object" || inner === null || Array.isArray(inner))) {
      throw invalidField(place, `${field}.configuration`, "an object", inner);
    }
    if (must !== undefined && typeof must !== "boolean") {
      throw invalidField(place, `${field}.must_understand`, "true or false", must);
    }
    const extra = Object.keys(object).find((k) => !["name", "configuration", "must_understand"].includes(k));
    if (extra !== undefined)
      throw invalidField(place, field, `only "name", "configuration" and "must_understand"`, item);
    return {
      name,
      ...(inner !== undefined && { configuration: inner as Configuration }),
      ...(must !== undefined && { must_understand: must }),
    };
  });
}

/** The C-order strides of `shape`, in elements. */
function strides(shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  let stride = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = stride;
    stride *= shape[d]!;
  }
  return out;
}

/**
 * Copies the block of `block` shape at `origin` between a C-order array of `shape` (`whole`) and a
 * C-order block (`part`), one contiguous row of the block's last dimension at a time: into the
 * whole (`toWhole`) or out of it. `unit` elements of `whole`/`part` make one element (bytes per
 * element for byte arrays, 1 for value arrays).
 */
function copyBlock<T extends Uint8Array | unknown[]>(
  whole: T,
  part: T,
  shape: readonly number[],
  block: readonly number[],
  origin: readonly number[],
  unit: number,
  toWhole: boolean,
): void {
  const rank = shape.length;
  const wholeStrides = strides(shape);
  const rowLength = (rank === 0 ? 1 : block[rank - 1]!) * unit;
  const rows = block.slice(0, -1).reduce((a, b) => a * b, 1);
  const index = new Array<number>(Math.max(rank - 1, 0)).fill(0);
  for (let row = 0; row < rows; row++) {
    let at = 0;
    for (let d = 0; d < rank; d++) at += (origin[d]! + (d < rank - 1 ? index[d]! : 0)) * wholeStrides[d]!;
    at *= unit;
    const from = row * rowLength;
    if (whole instanceof Uint8Array) {
      if (toWhole) whole.set((part as Uint8Array).subarray(from, from + rowLength), at);
      else (part as Uint8Array).set(whole.subarray(at, at + rowLength), from);
    } else {
      for (let j = 0; j < rowLength; j++) {
        if (toWhole) whole[at + j] = part[from + j];
        else part[from + j] = whole[at + j];
      }
    }
    for (let d = rank - 2; d >= 0; d--) {
      if (++index[d]! < block[d]!) break;
      index[d] = 0;
    }
  }
}

/** Runs `stages` (encode order) backwards over `data`, bounding what each decodes to as an engine does. */
async function decodeStages(
  stages: readonly ChainStage[],
  data: CodecData,
  chunk: Pick<ChunkContext, "key" | "signal">,
): Promise<CodecData> {
  for (let i = stages.length - 1; i >= 0; i--) {
    const stage = stages[i]!;
    // Next to the array → bytes codec a stage decodes to a fixed size its context gives; before
    // another bytes → bytes stage, to that stage's encoding, bounded as @z/core bounds v2 filters.
    const inner = stage.kind === "bytes-bytes" && stages[i - 1]?.kind === "bytes-bytes";
    const size = stage.chunk.elements * stage.chunk.itemsize;
    data = await stage.codec.decode(data, {
      ...stage.chunk,
      ...chunk,
      ...(inner && { maxDecodedSize: stage.chunk.dtype.kind === "O" ? Infinity : size * 8 + 4096 }),
    });
  }
  return data;
}

async function encodeStages(
  stages: readonly ChainStage[],
  data: CodecData,
  chunk: Pick<ChunkContext, "key" | "signal">,
): Promise<Uint8Array> {
  for (const stage of stages) data = await stage.codec.encode(data, { ...stage.chunk, ...chunk });
  if (!(data instanceof Uint8Array)) throw new Error("the inner codecs did not encode to bytes");
  return data;
}

/**
 * The `sharding_indexed` codec (array → bytes) for shards as `input` describes them: each shard
 * holds inner chunks of `chunk_shape`, each encoded with `codecs` (missing when it is all fill
 * value), and an index of their offsets and lengths (`2^64 - 1` for a missing one) encoded with
 * `index_codecs` (fixed-size: `bytes`, `transpose`, 4-byte checksums), at the shard's `start` or
 * `end` (the default). zarr-python 3's default `index_codecs` stand in when they are left out.
 * Decoding reads the whole shard; inner chunks are written in C order, the index after them
 * (`end`) or before (`start`).
 */
export async function shardingCodec(
  place: CodecPlace,
  configuration: Configuration | undefined,
  input: StageChunk,
  fillValue: FillValue,
  compile: CompileChain,
): Promise<{ readonly codec: Codec; readonly registryConfigs: readonly CodecConfig[] }> {
  if (configuration === undefined) {
    throw invalidField(place, "configuration", 'an object with "chunk_shape", "codecs" and "index_codecs"', undefined);
  }
  onlyMembers(place, configuration, ["chunk_shape", "codecs", "index_codecs", "index_location"]);
  const shape = input.shape;
  const rank = shape.length;
  const given = configuration.chunk_shape;
  const expected = `${rank} positive integers, each dividing the shard's [${shape.join(", ")}]`;
  if (
    !Array.isArray(given) ||
    given.length !== rank ||
    !(given as readonly JsonValue[]).every(
      (n, d) => typeof n === "number" && Number.isInteger(n) && n > 0 && shape[d]! % n === 0,
    )
  ) {
    throw invalidField(place, "configuration.chunk_shape", expected, given);
  }
  const block = given as readonly number[];
  const codecs = codecList(place, configuration, "codecs");
  if (codecs === undefined) throw invalidField(place, "configuration.codecs", "a non-empty list of codecs", undefined);
  const indexCodecs = codecList(place, configuration, "index_codecs") ?? DEFAULT_INDEX_CODECS;
  const location = configuration.index_location ?? "end";
  if (location !== "start" && location !== "end") {
    throw invalidField(place, "configuration.index_location", '"start" or "end"', location);
  }

  const grid = shape.map((n, d) => n / block[d]!);
  const count = grid.reduce((a, b) => a * b, 1);
  const innerElements = block.reduce((a, b) => a * b, 1);
  const { dtype, itemsize } = input;
  const values = dtype.kind === "O";
  const inner = await compile(
    codecs,
    { dtype, itemsize, elements: innerElements, shape: [...block] },
    fillValue,
    `${place.member}.configuration.codecs`,
  );
  const u8: StageChunk = {
    dtype: { kind: "u", byteOrder: "<", itemsize: 8 },
    itemsize: 8,
    elements: count * 2,
    shape: [...grid, 2],
  };
  const index = await compile(indexCodecs, u8, 0, `${place.member}.configuration.index_codecs`);
  let indexSize = count * 16;
  for (const stage of index.stages) {
    if (stage.kind === "bytes-bytes" && !CHECKSUMS.has(stage.codec.id)) {
      throw invalidField(
        place,
        "configuration.index_codecs",
        "codecs of a fixed size (bytes, transpose, a checksum such as crc32c)",
        indexCodecs.map((c) => c.name),
      );
    }
    if (stage.kind === "bytes-bytes") indexSize += 4;
  }

  // One element of fill value, and whether an inner chunk is all fill (then it is not stored).
  let fill: Uint8Array | undefined;
  if (!values) {
    try {
      fill = fillValueBytes(fillValue, dtype);
    } catch {
      fill = new Uint8Array(itemsize);
    }
  }
  const isFill = (part: CodecData): boolean => {
    if (part instanceof Uint8Array) {
      for (let i = 0; i < part.length; i++) if (part[i] !== fill![i % itemsize]) return false;
      return true;
    }
    return part.every((v) => v === fillValue);
  };
  const shardSize = count * innerElements * (values ? 1 : itemsize);
  const unit = values ? 1 : itemsize;
  const origin = (j: number): number[] => {
    const out = new Array<number>(rank);
    for (let d = rank - 1; d >= 0; d--) {
      out[d] = (j % grid[d]!) * block[d]!;
      j = Math.floor(j / grid[d]!);
    }
    return out;
  };
  const fail = (chunk: ChunkContext, detail: string): never => {
    throw new CodecError(`corrupt shard${inChunk(chunk.key)}: ${detail}`, {
      codecId: "sharding_indexed",
      key: chunk.key,
    });
  };

  const decode = async (data: CodecData, chunk: ChunkContext): Promise<CodecData> => {
    if (!(data instanceof Uint8Array)) return fail(chunk, "expected bytes");
    if (data.length < indexSize) return fail(chunk, `${data.length} bytes, fewer than its index's ${indexSize}`);
    const stored = location === "end" ? data.subarray(data.length - indexSize) : data.subarray(0, indexSize);
    const table = await decodeStages(index.stages, stored.slice(), { key: chunk.key, signal: chunk.signal });
    if (!(table instanceof Uint8Array) || table.length !== count * 16)
      return fail(chunk, "its index did not decode to its offsets and lengths");
    const view = new DataView(table.buffer, table.byteOffset, table.length);
    const out: Uint8Array | unknown[] = values
      ? new Array<unknown>(shardSize).fill(fillValue)
      : new Uint8Array(shardSize);
    if (!values) {
      for (let i = 0; i < shardSize; i += itemsize) (out as Uint8Array).set(fill!, i);
    }
    for (let j = 0; j < count; j++) {
      const offset = view.getBigUint64(16 * j, true);
      const length = view.getBigUint64(16 * j + 8, true);
      if (offset === MISSING && length === MISSING) continue;
      if (offset + length > BigInt(data.length)) {
        return fail(chunk, `inner chunk ${j} at ${offset} of ${length} bytes is past the shard's ${data.length} bytes`);
      }
      chunk.signal?.throwIfAborted();
      const at = Number(offset);
      const part = await decodeStages(inner.stages, data.subarray(at, at + Number(length)), {
        key: chunk.key === undefined ? undefined : `${chunk.key} (inner chunk ${j})`,
        signal: chunk.signal,
      });
      const size = values ? innerElements : innerElements * itemsize;
      if (part.length !== size || (values ? part instanceof Uint8Array : !(part instanceof Uint8Array))) {
        return fail(chunk, `inner chunk ${j} decoded to ${part.length} ${values ? "values" : "bytes"}, not ${size}`);
      }
      copyBlock(out, part as typeof out, shape, block, origin(j), unit, true);
    }
    return out;
  };

  const encode = async (data: CodecData, chunk: ChunkContext): Promise<CodecData> => {
    if (data.length !== shardSize) {
      throw new CodecError(
        `codec sharding_indexed cannot encode${inChunk(chunk.key)}: expected a shard of ${shardSize} ${values ? "values" : "bytes"}, got ${data.length}`,
        { codecId: "sharding_indexed", key: chunk.key },
      );
    }
    const parts: Uint8Array[] = [];
    const table = new Uint8Array(count * 16);
    const view = new DataView(table.buffer);
    let offset = location === "start" ? indexSize : 0;
    for (let j = 0; j < count; j++) {
      const part: Uint8Array | unknown[] = values
        ? new Array<unknown>(innerElements)
        : new Uint8Array(innerElements * itemsize);
      copyBlock(data as typeof part, part, shape, block, origin(j), unit, false);
      if (isFill(part)) {
        view.setBigUint64(16 * j, MISSING, true);
        view.setBigUint64(16 * j + 8, MISSING, true);
        continue;
      }
      const encoded = await encodeStages(inner.stages, part, {
        key: chunk.key === undefined ? undefined : `${chunk.key} (inner chunk ${j})`,
        signal: chunk.signal,
      });
      view.setBigUint64(16 * j, BigInt(offset), true);
      view.setBigUint64(16 * j + 8, BigInt(encoded.length), true);
      parts.push(encoded);
      offset += encoded.length;
    }
    const encodedIndex = await encodeStages(index.stages, table, { key: chunk.key, signal: chunk.signal });
    const all = location === "start" ? [encodedIndex, ...parts] : [...parts, encodedIndex];
    const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of all) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };

  const config = {
    id: "sharding_indexed",
    chunk_shape: [...block],
    codecs: codecs as unknown as JsonValue,
    index_codecs: indexCodecs as unknown as JsonValue,
    index_location: location,
  };
  const guard =
    (name: string, step: (data: CodecData, chunk: ChunkContext) => Promise<CodecData>) =>
    async (data: CodecData, chunk: ChunkContext): Promise<CodecData> => {
      chunk.signal?.throwIfAborted();
      try {
        return await step(data, chunk);
      } catch (error) {
        if (error instanceof ZarrError || (chunk.signal?.aborted && error === chunk.signal.reason)) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new CodecError(`codec sharding_indexed failed to ${name}${inChunk(chunk.key)}: ${message}`, {
          codecId: "sharding_indexed",
          key: chunk.key,
          cause: error,
        });
      }
    };
  const codec: Codec = Object.freeze({
    id: "sharding_indexed",
    encode: guard("encode", encode),
    decode: guard("decode", decode),
    toJSON: () => config,
  });
  return { codec, registryConfigs: [...inner.registryConfigs, ...index.registryConfigs] };
}
