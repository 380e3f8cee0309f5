/*
 * `sharding_indexed`'s encoder, a module of its own (registered by `enableEncoders`, see
 * ../encoders.ts), so that a page that only reads shards carries none of it. A shard's inner chunks
 * are encoded with the inner codecs and written one after another in C order of the inner chunk
 * grid (as TensorStore writes them; zarr-python 3 writes Morton order, which readers cannot tell),
 * then the index (or the index first, `index_location: "start"`). Inner chunks equal to the fill
 * value everywhere are not stored (offset = length = 2^64 - 1) unless the encode is told
 * `writeEmptyChunks`, as zarr-python 3 and TensorStore do by default.
 *
 * A write to part of a shard (`encodeShardUpdate`, from the codec's `encodeRegion`) encodes again
 * only the inner chunks it touched and copies the others' stored bytes into the new shard.
 *
 * A shard whose inner chunks are all left out encodes to its index alone; @z/core never stores one
 * under `writeEmptyChunks: false` (the v3 default), as it deletes a chunk equal to the fill value
 * everywhere before encoding it, which is what zarr-python 3 does with such a shard.
 */
import type { ChunkContext, CodecData } from "../codec.js";
import { andThen, encodeStages, guarded, isPromise, type Maybe } from "./run-stages.js";
import { innerChunkError, ShardError } from "./shard-errors.js";
import type { ShardGeometry } from "./shard-geometry.js";
import type { IndexCodecs, ShardIndex } from "./shard-index.js";
import { copyBox, type Elements } from "./shard-layout.js";

/** Encodes the shard `data` (its elements in C order) of the codec whose shards `g` describes. */
export function encodeShard(g: ShardGeometry, data: CodecData, chunk: ChunkContext): Maybe<Uint8Array> {
  const key = chunk.key;
  chunk.signal?.throwIfAborted();
  if (data instanceof Uint8Array === g.values || data.length !== g.shardBytes) {
    const got = data instanceof Uint8Array ? `${data.length} bytes` : `${data.length} values`;
    throw new ShardError(`expected ${g.shardBytes} ${g.values ? "values" : "bytes"} to encode, got ${got}`, { key });
  }
  const keepEmpty = chunk.writeEmptyChunks === true;
  const pieces: Maybe<Uint8Array | undefined>[] = new Array(g.count);
  let waiting = false;
  for (let i = 0; i < g.count; i++) {
    const piece = encodeInner(g, data as Elements, i, keepEmpty, chunk);
    if (isPromise(piece)) waiting = true;
    pieces[i] = piece;
  }
  if (!waiting) return assemble(g, pieces as (Uint8Array | undefined)[], key);
  return Promise.all(pieces).then((done) => assemble(g, done, key));
}

/**
 * Encodes the shard `data` after a change to the inner chunks `touched` flags (1: touched) alone:
 * those are encoded again (and left out when equal to the fill value, unless the encode is told
 * `writeEmptyChunks`); the others keep their stored bytes in `previous`, where `index` places them.
 * `undefined` when no inner chunk is left to store: the shard is then deleted, not stored.
 */
export function encodeShardUpdate(
  g: ShardGeometry,
  data: Uint8Array,
  previous: Uint8Array | undefined,
  index: ShardIndex | undefined,
  touched: Uint8Array,
  chunk: ChunkContext,
): Maybe<Uint8Array | undefined> {
  const key = chunk.key;
  const keepEmpty = chunk.writeEmptyChunks === true;
  const pieces: Maybe<Uint8Array | undefined>[] = new Array(g.count);
  let waiting = false;
  for (let i = 0; i < g.count; i++) {
    if (touched[i] === 1) {
      const piece = encodeInner(g, data, i, keepEmpty, chunk);
      if (isPromise(piece)) waiting = true;
      pieces[i] = piece;
    } else if (index !== undefined && previous !== undefined && index.entries[2 * i] !== -1) {
      const offset = index.entries[2 * i]!;
      pieces[i] = previous.subarray(offset, offset + index.entries[2 * i + 1]!);
    }
  }
  const finish = (done: readonly (Uint8Array | undefined)[]) =>
    done.every((piece) => piece === undefined) ? undefined : assemble(g, done, key);
  if (!waiting) return finish(pieces as (Uint8Array | undefined)[]);
  return Promise.all(pieces).then(finish);
}

/** Inner chunk `i` of the shard `data`, encoded; `undefined` when it is all fill value and not kept. */
function encodeInner(
  g: ShardGeometry,
  data: Elements,
  i: number,
  keepEmpty: boolean,
  chunk: ChunkContext,
): Maybe<Uint8Array | undefined> {
  const { pattern, inner, fillValue } = g.layout;
  const key = chunk.key;
  const coords = g.coords(i);
  const elements = extract(g, data, coords, i);
  const fill =
    elements instanceof Uint8Array ? isAllPattern(elements, pattern) : elements.every((v) => v === fillValue);
  if (!keepEmpty && fill) return undefined;
  return guarded(
    () => encodeStages(inner, elements, g.innerKey(key, coords), chunk.signal, keepEmpty) as Maybe<Uint8Array>,
    (error) => {
      throw innerChunkError(error, key, coords);
    },
  );
}

/** Inner chunk `coords`' elements: a view of the shard where they lie in one run, else a copy. */
function extract(g: ShardGeometry, data: Elements, coords: readonly number[], i: number): Elements {
  const from = i * g.innerBytes;
  const to = from + g.innerBytes;
  if (g.contiguous) return data instanceof Uint8Array ? data.subarray(from, to) : data.slice(from, to);
  const out: Elements = data instanceof Uint8Array ? new Uint8Array(g.innerBytes) : new Array<unknown>(g.innerBytes);
  copyBox(data, g.inShard(coords), out, g.innerPlace, g.layout.innerShape, g.unit);
  return out;
}

/** Whether every element of `bytes` has exactly the bytes of `pattern` (NaN payloads included). */
function isAllPattern(bytes: Uint8Array, pattern: Uint8Array): boolean {
  const n = pattern.length;
  if (pattern.every((b) => b === pattern[0])) {
    const b0 = pattern[0];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== b0) return false;
    return true;
  }
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== pattern[i % n]) return false;
  return true;
}

/** The shard: the encoded inner chunks (`undefined`: not stored) after or before their index. */
function assemble(g: ShardGeometry, pieces: readonly (Uint8Array | undefined)[], key: string | undefined) {
  const codecs = g.layout.index;
  const entries = new Float64Array(g.count * 2).fill(-1);
  let offset = codecs.location === "start" ? codecs.size : 0;
  let data = 0;
  pieces.forEach((piece, i) => {
    if (piece === undefined) return;
    if (!(piece instanceof Uint8Array)) {
      throw new ShardError("the inner codecs did not encode to bytes", { key, innerChunk: [g.coords(i)] });
    }
    entries[2 * i] = offset;
    entries[2 * i + 1] = piece.length;
    offset += piece.length;
    data += piece.length;
  });
  return andThen(encodeIndex({ entries } as ShardIndex, codecs, key), (indexBytes) => {
    const out = new Uint8Array(indexBytes.length + data);
    let at = codecs.location === "start" ? indexBytes.length : 0;
    out.set(indexBytes, codecs.location === "start" ? 0 : data);
    for (const piece of pieces) {
      if (piece === undefined) continue;
      out.set(piece, at);
      at += piece.length;
    }
    return out;
  });
}

/** Encodes `index` with the index codecs: exactly `codecs.size` bytes. */
function encodeIndex(index: ShardIndex, codecs: IndexCodecs, key: string | undefined): Maybe<Uint8Array> {
  const { entries } = index;
  const raw = new Uint8Array(entries.length * 8);
  const view = new DataView(raw.buffer);
  for (let i = 0; i < entries.length; i++) {
    const value = entries[i]!;
    // 2^64 - 1 for a missing inner chunk; a JS number holds an offset below 2^53 exactly.
    view.setUint32(i * 8, value === -1 ? 0xffffffff : value % 2 ** 32, true);
    view.setUint32(i * 8 + 4, value === -1 ? 0xffffffff : Math.floor(value / 2 ** 32), true);
  }
  return andThen(encodeStages(codecs.stages, raw, key) as Maybe<Uint8Array>, (bytes) => {
    if (bytes.length !== codecs.size) {
      throw new ShardError(`the index codecs encoded ${bytes.length} bytes, not the ${codecs.size} they promise`, {
        key,
      });
    }
    return bytes;
  });
}
