/*
 * The `sharding_indexed` codec (array → bytes), decoding: a whole shard (its index, then each
 * inner chunk it lists through the inner codecs, the fill value for those it marks missing), or a
 * box of one by ranges (`decodeRegion`): its index (one read: a suffix for `end`, a prefix for
 * `start`; then cached, see `IndexCache`), then only the inner chunks the box touches, neighbouring
 * ones merged into one request (`ShardingOptions`), nested shards by their own `decodeRegion` on
 * the part of this shard they are. Encoding is shard-encode.ts's, an encoder module of its own.
 */
import type { CodecConfig } from "@z/meta";
import type {
  ChunkContext,
  Codec,
  CodecData,
  RegionBounds,
  StoredPart,
  StoredPartReader,
  StoredRangeReader,
} from "../codec.js";
import { withEncoder } from "../define-codec.js";
import { andThen, decodeStages, guarded, isPromise, type Maybe } from "./run-stages.js";
import { IndexCache } from "./shard-cache.js";
import {
  SHARD_COALESCE_GAP_BYTES,
  SHARD_COALESCE_MAX_BYTES,
  SHARD_INDEX_CACHE_BYTES,
  type ShardingOptions,
} from "./shard-options.js";
import { innerChunkError, ShardError } from "./shard-errors.js";
import { ShardGeometry, type ShardLayout } from "./shard-geometry.js";
import { checkEntries, decodeIndex, type ShardIndex } from "./shard-index.js";
import { copyBox, fillBox, fillValues, runStart, type BoxPlace, type Elements } from "./shard-layout.js";
import { coalesce } from "./shard-reads.js";

export type { ShardLayout } from "./shard-geometry.js";

/** An inner chunk the region touches, and where its part of the region lies. */
interface Touched {
  /** Its index in the shard's inner chunk grid (C order). */
  readonly flat: number;
  readonly coords: number[];
  /** Its part's first corner in the inner chunk, and in the region. */
  readonly inInner: number[];
  readonly inRegion: number[];
  /** Its part's extent. */
  readonly extent: number[];
  readonly offset: number;
  readonly length: number;
}

export class ShardingCodec implements Codec {
  readonly id = "sharding_indexed";
  readonly #g: ShardGeometry;
  readonly #layout: ShardLayout;
  readonly #zeroFill: boolean;
  readonly #cache: IndexCache;
  readonly #gap: number;
  readonly #maxRead: number;

  constructor(layout: ShardLayout, options: ShardingOptions = {}) {
    this.#g = new ShardGeometry(layout);
    this.#layout = layout;
    this.#zeroFill = !this.#g.values && layout.pattern.every((b) => b === 0);
    this.#cache = new IndexCache(options.indexCacheBytes ?? SHARD_INDEX_CACHE_BYTES);
    this.#gap = options.coalesceGapBytes ?? SHARD_COALESCE_GAP_BYTES;
    this.#maxRead = options.coalesceMaxBytes ?? SHARD_COALESCE_MAX_BYTES;
  }

  toJSON(): CodecConfig {
    return this.#layout.config;
  }

  /** Bytes of decoded indexes this codec holds (for tests and `info`). */
  get cachedIndexBytes(): number {
    return this.#cache.bytes;
  }

  readonly #coordsOf = (i: number): number[] => this.#g.coords(i);

  forget(key: string): void {
    this.#cache.delete(key);
    for (const stage of this.#layout.inner) {
      const forget = stage.codec.forget;
      if (forget === undefined) continue;
      for (let i = 0; i < this.#g.count; i++) forget.call(stage.codec, this.#g.innerKey(key, this.#g.coords(i))!);
    }
  }

  encode(data: CodecData, chunk: ChunkContext): Maybe<Uint8Array> {
    if (chunk.key !== undefined) this.forget(chunk.key);
    // The encoder is a module of its own, registered by `enableEncoders` (see encoders.ts).
    return withEncoder("sharding_indexed", this.id, chunk, (m: typeof import("./shard-encode.js")) =>
      m.encodeShard(this.#g, data, chunk),
    );
  }

  // --- decode a whole shard -------------------------------------------------------------------

  decode(data: CodecData, chunk: ChunkContext): Maybe<Elements> {
    // An object dtype's shard starts as the fill value; one of bytes as zeros (most arrays' fill).
    const out: Elements = this.#g.values
      ? new Array<unknown>(this.#g.shardBytes).fill(this.#layout.fillValue)
      : new Uint8Array(this.#g.shardBytes);
    return andThen(this.#decodeWhole(data, out, this.#shardPlace, true, chunk), () => out);
  }

  decodeInto(data: Uint8Array, out: Uint8Array, chunk: ChunkContext): Maybe<number> {
    this.#checkBytes(chunk);
    if (out.length < this.#g.shardBytes) {
      throw new ShardError(`a buffer of ${out.length} bytes cannot hold the shard (${this.#g.shardBytes} bytes)`, {
        key: chunk.key,
      });
    }
    return andThen(
      this.#decodeWhole(data, out.subarray(0, this.#g.shardBytes), this.#shardPlace, false, chunk),
      () => this.#g.shardBytes,
    );
  }

  /**
   * A whole shard's inner chunks decoded straight into their places in `out` (a result), with no
   * shard-sized buffer between: one copy of each element, not two.
   */
  decodeIntoBox(data: Uint8Array, out: Uint8Array, place: BoxPlace, chunk: ChunkContext): Maybe<void> {
    this.#checkBytes(chunk);
    const { shardShape, innerShape } = this.#layout;
    const fits =
      place.shape.length === shardShape.length &&
      place.start.every((s, d) => s >= 0 && s + shardShape[d]! <= place.shape[d]!) &&
      out.length >= place.shape.reduce((a, b) => a * b, 1) * this.#g.unit;
    if (!fits) {
      throw new ShardError(
        `a buffer of ${out.length} bytes of shape [${place.shape.join(", ")}] cannot hold the shard at [${place.start.join(", ")}]`,
        { key: chunk.key },
      );
    }
    const placeOf = (coords: readonly number[]): BoxPlace => ({
      shape: place.shape,
      start: coords.map((c, d) => place.start[d]! + c * innerShape[d]!),
    });
    return this.#decodeWhole(data, out, placeOf, false, chunk);
  }

  #checkBytes(chunk: ChunkContext): void {
    if (this.#g.values) {
      throw new ShardError("a shard of an object dtype decodes to values, not into bytes", { key: chunk.key });
    }
  }

  /** Where inner chunk `coords` lies in a shard-shaped buffer. */
  readonly #shardPlace = (coords: readonly number[]): BoxPlace => this.#g.inShard(coords);

  #decodeWhole(
    data: CodecData,
    out: Elements,
    placeOf: (coords: readonly number[]) => BoxPlace,
    zeroed: boolean,
    chunk: ChunkContext,
  ): Maybe<void> {
    const key = chunk.key;
    chunk.signal?.throwIfAborted();
    if (!(data instanceof Uint8Array)) throw new ShardError("a shard is bytes, not an array of values", { key });
    return andThen(this.#wholeIndex(data, key), (index) => this.#placeAll(index, data, out, placeOf, zeroed, chunk));
  }

  /**
   * Decodes every inner chunk `index` lists into its place in `out` (`placeOf`), and fills the
   * others. An inner chunk whose place is one run of `out` is decoded straight into it when its
   * codec can (`Codec.decodeInto`); others into one reused buffer, then copied: no buffer per
   * inner chunk, whose first writes would each page-fault.
   */
  #placeAll(
    index: ShardIndex,
    data: Uint8Array,
    out: Elements,
    placeOf: (coords: readonly number[]) => BoxPlace,
    zeroed: boolean,
    chunk: ChunkContext,
  ): Maybe<void> {
    const { entries } = index;
    const { innerShape, pattern } = this.#layout;
    const unit = this.#g.unit;
    const size = this.#g.innerBytes;
    const into = out instanceof Uint8Array ? this.#g.decodesInto : undefined;
    const waits: Promise<void>[] = [];
    for (let i = 0; i < this.#g.count; i++) {
      const offset = entries[2 * i]!;
      const coords = this.#g.coords(i);
      const place = placeOf(coords);
      if (offset === -1) {
        if (out instanceof Uint8Array) {
          if (!(zeroed && this.#zeroFill)) fillBox(out, place, innerShape, pattern);
        } else if (!zeroed) {
          fillValues(out, place, innerShape, this.#layout.fillValue);
        }
        continue;
      }
      const stored = data.subarray(offset, offset + entries[2 * i + 1]!);
      const run = out instanceof Uint8Array ? runStart(place, innerShape) : undefined;
      const target = run === undefined ? undefined : (out as Uint8Array).subarray(run * unit, run * unit + size);
      if (into !== undefined) {
        const buffer = target ?? this.#takeScratch();
        const done = this.#decodeInnerInto(into, stored, buffer, coords, chunk);
        const place2 = (): void => {
          if (target === undefined) {
            copyBox(buffer, this.#g.innerPlace, out, place, innerShape, unit);
            this.#releaseScratch(buffer);
          }
        };
        if (isPromise(done))
          waits.push(
            done.then(place2, (error: unknown) => {
              if (target === undefined) this.#releaseScratch(buffer);
              throw error;
            }),
          );
        else place2();
        continue;
      }
      const decoded = this.#decodeInner(stored, coords, chunk);
      const put = (elements: Elements): void => {
        if (target !== undefined) target.set(elements as Uint8Array);
        else copyBox(elements, this.#g.innerPlace, out, place, innerShape, unit);
      };
      if (isPromise(decoded)) waits.push(decoded.then(put));
      else put(decoded);
    }
    if (waits.length > 0) return Promise.all(waits).then(() => undefined);
  }

  /** One inner chunk's worth of bytes, reused while decodes run one at a time (a fresh one while one waits). */
  #scratch: Uint8Array | undefined;
  #scratchBusy = false;

  #takeScratch(): Uint8Array {
    if (this.#scratchBusy) return new Uint8Array(this.#g.innerBytes);
    this.#scratchBusy = true;
    return (this.#scratch ??= new Uint8Array(this.#g.innerBytes));
  }

  #releaseScratch(buffer: Uint8Array): void {
    if (buffer === this.#scratch) this.#scratchBusy = false;
  }

  /** Decodes one stored inner chunk into `out` (exactly its bytes) through the inner chain's one stage. */
  #decodeInnerInto(
    codec: Codec,
    stored: Uint8Array,
    out: Uint8Array,
    coords: readonly number[],
    chunk: ChunkContext,
  ): Maybe<void> {
    const key = chunk.key;
    const size = this.#g.innerBytes;
    const stage = this.#layout.inner[0]!.chunk;
    const context: ChunkContext = {
      dtype: stage.dtype,
      itemsize: stage.itemsize,
      elements: stage.elements,
      shape: stage.shape,
      maxDecodedSize: size,
      key: this.#g.innerKey(key, coords),
      signal: chunk.signal,
    };
    return guarded(
      () =>
        andThen(codec.decodeInto!(stored, out, context), (n) => {
          if (n !== size) {
            throw new ShardError(
              `decoded to ${n} bytes, expected ${size} bytes (${size / this.#g.unit} elements of ${this.#g.unit} bytes)`,
            );
          }
        }),
      (error) => {
        throw innerChunkError(error, key, coords);
      },
    );
  }

  /** Decodes one stored inner chunk to its elements, checking it is exactly one inner chunk. */
  #decodeInner(stored: Uint8Array, coords: readonly number[], chunk: ChunkContext): Maybe<Elements> {
    const { inner } = this.#layout;
    const key = chunk.key;
    const innerKey = this.#g.innerKey(key, coords);
    const size = this.#g.innerBytes;
    const fail = (error: unknown): never => {
      throw innerChunkError(error, key, coords);
    };
    return guarded(
      () =>
        andThen(decodeStages(inner, stored, size, innerKey, chunk.signal), (decoded) => {
          if (decoded instanceof Uint8Array === this.#g.values || decoded.length !== size) {
            const got = decoded instanceof Uint8Array ? `${decoded.length} bytes` : `${decoded.length} values`;
            const want = this.#g.values
              ? `${size} values`
              : `${size} bytes (${size / this.#g.unit} elements of ${this.#g.unit} bytes)`;
            throw new ShardError(`decoded to ${got}, expected ${want}`);
          }
          return decoded as Elements;
        }),
      fail,
    );
  }

  // --- encode part of a shard again -----------------------------------------------------------

  /**
   * A write to part of a shard: decodes into `data` only the inner chunks `region` touches but
   * does not cover (the others it touches are all written by `change`), lets `change` write the
   * region, then encodes the touched inner chunks and keeps the others' stored bytes as they are
   * (shard-encode.ts's `encodeShardUpdate`). TensorStore rewrites a shard the same way.
   */
  async encodeRegion(
    previous: Uint8Array | undefined,
    data: Uint8Array,
    region: readonly RegionBounds[],
    covered: boolean,
    change: () => void,
    chunk: ChunkContext,
  ): Promise<Uint8Array | undefined> {
    const key = chunk.key;
    const { innerShape, pattern } = this.#layout;
    if (this.#g.values) throw new ShardError("a shard of an object dtype is not written by regions", { key });
    this.#checkRegion(region, key);
    if (data.length !== this.#g.shardBytes) {
      throw new ShardError(`a buffer of ${data.length} bytes is not a shard's (${this.#g.shardBytes} bytes)`, { key });
    }
    chunk.signal?.throwIfAborted();
    if (key !== undefined) this.forget(key);
    const index = previous === undefined ? undefined : await this.#wholeIndex(previous, key);
    const touched = new Uint8Array(this.#g.count);
    const decodes: Promise<void>[] = [];
    const boxes = region.some((r) => r.stop === r.start) ? [] : this.#touched(region, index);
    for (const t of boxes) {
      touched[t.flat] = 1;
      if (covered && t.extent.every((n, d) => n === innerShape[d])) continue;
      const place = this.#g.inShard(t.coords);
      if (t.offset === -1) {
        fillBox(data, place, innerShape, pattern);
        continue;
      }
      const decoded = this.#decodeInner(previous!.subarray(t.offset, t.offset + t.length), t.coords, chunk);
      const put = (elements: Elements): void =>
        copyBox(elements, this.#g.innerPlace, data, place, innerShape, this.#g.unit);
      if (isPromise(decoded)) decodes.push(decoded.then(put));
      else put(decoded);
    }
    await Promise.all(decodes);
    change();
    return withEncoder("sharding_indexed", this.id, chunk, (m: typeof import("./shard-encode.js")) =>
      m.encodeShardUpdate(this.#g, data, previous, index, touched, chunk),
    );
  }

  /** The index of the whole shard `data`, its entries checked against its size. */
  #wholeIndex(data: Uint8Array, key: string | undefined): Maybe<ShardIndex> {
    const codecs = this.#layout.index;
    if (data.length < codecs.size) {
      throw new ShardError(
        `its index takes ${codecs.size} bytes (${this.#g.count} inner chunks), but the shard has only ${data.length}`,
        { key },
      );
    }
    const indexBytes =
      codecs.location === "start" ? data.subarray(0, codecs.size) : data.subarray(data.length - codecs.size);
    return andThen(decodeIndex(indexBytes, codecs, this.#g.count, key, this.#coordsOf), (index) => {
      checkEntries(index, data.length, codecs, key, this.#coordsOf);
      return index;
    });
  }

  // --- decode a region by ranges --------------------------------------------------------------

  /** The index of the shard `read` reads: one ranged read, then cached by key. */
  #regionIndex(read: StoredPartReader, key: string | undefined): Promise<ShardIndex | undefined> {
    const codecs = this.#layout.index;
    const load = async (): Promise<ShardIndex | undefined> => {
      const part: StoredPart =
        codecs.location === "end" ? { suffixLength: codecs.size } : { offset: 0, length: codecs.size };
      const bytes = await read(part);
      if (bytes === undefined) return undefined;
      const index = await decodeIndex(bytes, codecs, this.#g.count, key, this.#coordsOf);
      checkEntries(index, undefined, codecs, key, this.#coordsOf);
      return index;
    };
    return key === undefined ? load() : this.#cache.get(key, load);
  }

  async decodeRegion(
    read: StoredPartReader,
    region: readonly RegionBounds[],
    chunk: ChunkContext,
  ): Promise<Uint8Array | undefined> {
    const key = chunk.key;
    const { innerShape, itemsize, pattern } = this.#layout;
    if (this.#g.values) throw new ShardError("a shard of an object dtype is not read by regions", { key });
    this.#checkRegion(region, key);
    chunk.signal?.throwIfAborted();
    const index = await this.#regionIndex(read, key);
    if (index === undefined) return undefined;
    const regionShape = region.map((r) => r.stop - r.start);
    const out = new Uint8Array(regionShape.reduce((a, b) => a * b, 1) * itemsize);
    if (out.length === 0) return out;
    const placeInRegion = (at: readonly number[]): BoxPlace => ({ shape: regionShape, start: at });

    const whole: Touched[] = [];
    const nested: Touched[] = [];
    // Where reads are cheap, an inner chunk of which a region needs a small part reads only that.
    const ranged: Touched[] = [];
    for (const t of this.#touched(region, index)) {
      if (t.offset === -1) {
        if (!this.#zeroFill) fillBox(out, placeInRegion(t.inRegion), t.extent, pattern);
      } else if (this.#g.nested !== undefined && t.extent.some((n, d) => n !== innerShape[d])) {
        nested.push(t);
      } else if (chunk.cheapReads === true && this.#partSpan(t) !== undefined) {
        ranged.push(t);
      } else {
        whole.push(t);
      }
    }
    // An index at the end must come after the inner chunks: as the shard's size is not known, a
    // read of inner chunks not yet known to end before it goes on for the index's size (see
    // `ShardIndex.checkedEnd`): a shard too short for that is corrupt, not read as values.
    const atEnd = this.#layout.index.location === "end" ? this.#layout.index.size : 0;
    const shortRead = (t: Touched, ends: number): ShardError => {
      if (key !== undefined) this.#cache.delete(key);
      const where = `its index places the inner chunk at bytes ${t.offset} to ${t.offset + t.length}`;
      const detail =
        t.offset + t.length <= ends
          ? `${where}, which overlap its index (the shard ends at byte ${ends}, its index is the last ${atEnd})`
          : `${where}, but the shard ends at byte ${ends}`;
      return new ShardError(detail, { key, innerChunk: [t.coords] });
    };
    const gone = (): ShardError => {
      if (key !== undefined) this.#cache.delete(key);
      return new ShardError("it was not found when its inner chunks were read (deleted since its index was read?)", {
        key,
      });
    };
    const groups = coalesce(whole, this.#gap, this.#maxRead);
    const reads = groups.map(async (group) => {
      const groupEnd = group.offset + group.length;
      const beyond = groupEnd > index.checkedEnd ? atEnd : 0;
      const bytes = await read({ offset: group.offset, length: group.length + beyond });
      if (bytes === undefined) throw gone();
      const ends = group.offset + bytes.length;
      if (bytes.length < group.length + beyond) {
        throw shortRead(group.members.find((t) => t.offset + t.length + beyond > ends)!, ends);
      }
      if (beyond > 0) index.checkedEnd = Math.max(index.checkedEnd, groupEnd);
      for (const t of group.members) {
        const from = t.offset - group.offset;
        const stored = bytes.subarray(from, from + t.length);
        const span = this.#partSpan(t);
        if (span !== undefined) {
          const inMemory = async (offset: number, length: number) => stored.subarray(offset, offset + length);
          placePart(t, await this.#decodePart(inMemory, t, span, chunk));
          continue;
        }
        const decoded = await this.#decodeInner(stored, t.coords, chunk);
        copyBox(decoded, { shape: innerShape, start: t.inInner }, out, placeInRegion(t.inRegion), t.extent, itemsize);
      }
    });
    const placePart = (t: Touched, part: { readonly bytes: Uint8Array; readonly start: number }): void =>
      copyBox(
        part.bytes,
        { shape: innerShape, start: t.inInner },
        out,
        placeInRegion(t.inRegion),
        t.extent,
        itemsize,
        part.start,
      );
    const partReads = ranged.map(async (t) => {
      const end = t.offset + t.length;
      if (atEnd > 0 && end > index.checkedEnd) {
        // As a whole read would (above): the index's size in bytes must follow the inner chunk.
        const after = await read({ offset: end, length: atEnd });
        if (after === undefined) throw gone();
        // A short read ends at the shard's end; an empty one says only that the end is not after `end`.
        if (after.length === 0) {
          if (key !== undefined) this.#cache.delete(key);
          const where = `its index places the inner chunk at bytes ${t.offset} to ${end}`;
          throw new ShardError(
            `${where}, but the shard ends at byte ${end} or before (its index is the last ${atEnd})`,
            {
              key,
              innerChunk: [t.coords],
            },
          );
        }
        if (after.length < atEnd) throw shortRead(t, end + after.length);
        index.checkedEnd = Math.max(index.checkedEnd, end);
      }
      const within = async (offset: number, length: number): Promise<Uint8Array | undefined> => {
        const bytes = await read({
          offset: t.offset + offset,
          length: Math.max(0, Math.min(length, t.length - offset)),
        });
        if (bytes === undefined) throw gone();
        return bytes;
      };
      placePart(t, await this.#decodePart(within, t, this.#partSpan(t)!, chunk));
    });
    const parts = nested.map(async (t) => {
      const inner = this.#g.nested!;
      const stage = this.#layout.inner[0]!;
      const { dtype, itemsize: size, elements, shape } = stage.chunk;
      const innerKey = this.#g.innerKey(key, t.coords);
      const context: ChunkContext = { dtype, itemsize: size, elements, shape, key: innerKey, signal: chunk.signal };
      const within = t.inInner.map((start, d) => ({ start, stop: start + t.extent[d]! }));
      let bytes: Uint8Array | undefined;
      try {
        bytes = await inner.decodeRegion!(this.#within(read, t), within, context);
      } catch (error) {
        throw innerChunkError(error, key, t.coords);
      }
      if (bytes === undefined) {
        if (key !== undefined) this.#cache.delete(key);
        throw new ShardError("it was not found when its inner chunks were read (deleted since its index was read?)", {
          key,
        });
      }
      copyBox(
        bytes,
        { shape: t.extent, start: t.extent.map(() => 0) },
        out,
        placeInRegion(t.inRegion),
        t.extent,
        itemsize,
      );
    });
    await Promise.all([...reads, ...partReads, ...parts]);
    return out;
  }

  /**
   * The decoded bytes of inner chunk `t` from the first element of its part of the region to the
   * last (C order), as bytes `start` to `end` of the inner chunk, when its chain is one codec
   * decoding byte ranges (blosc decodes only the blocks they lie in) and they are at most half of
   * it; `undefined` to decode it whole.
   */
  #partSpan(t: Touched): { readonly start: number; readonly end: number } | undefined {
    const { inner, innerShape, itemsize } = this.#layout;
    if (inner.length !== 1 || inner[0]!.codec.decodeRange === undefined) return undefined;
    let first = 0;
    let last = 0;
    for (let d = 0; d < innerShape.length; d++) {
      first = first * innerShape[d]! + t.inInner[d]!;
      last = last * innerShape[d]! + t.inInner[d]! + t.extent[d]! - 1;
    }
    const start = first * itemsize;
    const end = (last + 1) * itemsize;
    return end - start > this.#g.innerBytes / 2 ? undefined : { start, end };
  }

  /** Decodes `span` of inner chunk `t`, its stored bytes read through `read` (offsets in the inner chunk). */
  async #decodePart(
    read: StoredRangeReader,
    t: Touched,
    span: { readonly start: number; readonly end: number },
    chunk: ChunkContext,
  ): Promise<{ readonly bytes: Uint8Array; readonly start: number }> {
    const only = this.#layout.inner[0]!;
    const { dtype, elements, shape } = only.chunk;
    const key = chunk.key;
    const context: ChunkContext = {
      dtype,
      itemsize: only.chunk.itemsize,
      elements,
      shape,
      maxDecodedSize: this.#g.innerBytes,
      key,
      signal: chunk.signal,
    };
    const { start, end } = span;
    let decoded: Awaited<ReturnType<NonNullable<Codec["decodeRange"]>>>;
    try {
      decoded = await only.codec.decodeRange!(read, start, end, context);
    } catch (error) {
      throw innerChunkError(error, key, t.coords);
    }
    if (decoded === undefined || decoded.decodedSize !== this.#g.innerBytes || decoded.bytes.length !== end - start) {
      const size = decoded?.decodedSize ?? 0;
      throw new ShardError(`decoded to ${size} bytes, expected ${this.#g.innerBytes}`, { key, innerChunk: [t.coords] });
    }
    return { bytes: decoded.bytes, start };
  }

  /**
   * A reader of the bytes of inner chunk `t` (a nested shard), through `read`: nothing past them
   * (so a nested shard's entries past its end come back short, as they would in a shard of its own).
   */
  #within(read: StoredPartReader, t: Touched): StoredPartReader {
    return (part) => {
      if ("suffixLength" in part) {
        const n = Math.min(part.suffixLength, t.length);
        return read({ offset: t.offset + t.length - n, length: n });
      }
      const length = Math.max(0, Math.min(part.length, t.length - part.offset));
      return read({ offset: t.offset + part.offset, length });
    };
  }

  /** Refuses a region that is not a box of whole elements within the shard. */
  #checkRegion(region: readonly RegionBounds[], key: string | undefined): void {
    const { shardShape } = this.#layout;
    if (
      region.length !== shardShape.length ||
      region.some(
        (r, d) =>
          !(
            Number.isInteger(r.start) &&
            Number.isInteger(r.stop) &&
            0 <= r.start &&
            r.start <= r.stop &&
            r.stop <= shardShape[d]!
          ),
      )
    ) {
      throw new ShardError(
        `a region of [${region.map((r) => `${r.start}:${r.stop}`).join(", ")}] is not within a shard of [${shardShape.join(", ")}]`,
        { key },
      );
    }
  }

  /** The inner chunks `region` touches, in C order, with their entries (none stored without an index). */
  *#touched(region: readonly RegionBounds[], index: ShardIndex | undefined): Generator<Touched> {
    const { innerShape, grid } = this.#layout;
    const rank = region.length;
    const lo = region.map((r, d) => Math.floor(r.start / innerShape[d]!));
    const hi = region.map((r, d) => Math.floor((r.stop - 1) / innerShape[d]!));
    const coords = [...lo];
    for (;;) {
      let flat = 0;
      const inInner: number[] = [];
      const inRegion: number[] = [];
      const extent: number[] = [];
      for (let d = 0; d < rank; d++) {
        flat = flat * grid[d]! + coords[d]!;
        const base = coords[d]! * innerShape[d]!;
        const from = Math.max(region[d]!.start, base);
        const to = Math.min(region[d]!.stop, base + innerShape[d]!);
        inInner.push(from - base);
        inRegion.push(from - region[d]!.start);
        extent.push(to - from);
      }
      yield {
        flat,
        coords: [...coords],
        inInner,
        inRegion,
        extent,
        offset: index === undefined ? -1 : index.entries[2 * flat]!,
        length: index === undefined ? -1 : index.entries[2 * flat + 1]!,
      };
      let d = rank - 1;
      for (; d >= 0; d--) {
        if (++coords[d]! <= hi[d]!) break;
        coords[d] = lo[d]!;
      }
      if (d < 0) return;
    }
  }
}
