/*
 * What a `sharding_indexed` codec knows of its shards, shared by its decoding (shard-codec.ts) and
 * its encoder (shard-encode.ts, a module of its own that read-only pages never load).
 */
import type { CodecConfig, DataType, FillValue } from "@z/meta";
import type { Codec } from "../codec.js";
import type { IndexCodecs } from "./shard-index.js";
import type { BoxPlace } from "./shard-layout.js";
import type { ChainStage } from "./types.js";

/** What a sharding codec is built from (see shard-config.ts). */
export interface ShardLayout {
  readonly shardShape: readonly number[];
  readonly innerShape: readonly number[];
  /** Inner chunks per shard, per dimension. */
  readonly grid: readonly number[];
  readonly dtype: DataType;
  readonly itemsize: number;
  /** One element of the fill value as the chain holds it (none for an object dtype). */
  readonly pattern: Uint8Array;
  /** The fill value itself: what an object dtype's missing inner chunks hold. */
  readonly fillValue: FillValue;
  /** The inner chunks' chain (stages that change nothing left out). */
  readonly inner: readonly ChainStage[];
  readonly index: IndexCodecs;
  readonly config: CodecConfig;
}

/** A shard's layout and what follows from it. */
export class ShardGeometry {
  readonly layout: ShardLayout;
  /** Inner chunks in a shard. */
  readonly count: number;
  /** An object dtype's shards: arrays of JS values, one an element. */
  readonly values: boolean;
  /** Items of an element: its bytes, or 1 for an object dtype's values. */
  readonly unit: number;
  /** Items (bytes, or values) of an inner chunk and of a shard. */
  readonly innerBytes: number;
  readonly shardBytes: number;
  /** Inner chunks span every dimension but the first: each lies in one run of the shard. */
  readonly contiguous: boolean;
  /** The inner chain's one stage, when it reads regions itself (a nested shard). */
  readonly nested: Codec | undefined;
  /** The inner chain's one stage, when it decodes into a buffer it is given (`Codec.decodeInto`). */
  readonly decodesInto: Codec | undefined;
  /** An inner chunk's box within itself. */
  readonly innerPlace: BoxPlace;

  constructor(layout: ShardLayout) {
    this.layout = layout;
    this.count = layout.grid.reduce((a, b) => a * b, 1);
    this.values = layout.dtype.kind === "O";
    this.unit = this.values ? 1 : layout.itemsize;
    this.innerBytes = layout.innerShape.reduce((a, b) => a * b, 1) * this.unit;
    this.shardBytes = this.innerBytes * this.count;
    this.contiguous = layout.innerShape.every((n, d) => d === 0 || n === layout.shardShape[d]);
    const only = layout.inner.length === 1 ? layout.inner[0]!.codec : undefined;
    this.nested = only?.decodeRegion === undefined ? undefined : only;
    this.decodesInto = this.values || only?.decodeInto === undefined ? undefined : only;
    this.innerPlace = { shape: layout.innerShape, start: layout.innerShape.map(() => 0) };
  }

  /** The coordinates of inner chunk `i` (C order). */
  coords(i: number): number[] {
    const { grid } = this.layout;
    const coords = new Array<number>(grid.length);
    for (let d = grid.length - 1; d >= 0; d--) {
      coords[d] = i % grid[d]!;
      i = Math.floor(i / grid[d]!);
    }
    return coords;
  }

  /** Where inner chunk `coords` lies in the shard. */
  inShard(coords: readonly number[]): BoxPlace {
    return { shape: this.layout.shardShape, start: coords.map((c, d) => c * this.layout.innerShape[d]!) };
  }

  /** The key the inner chain is told: a nested shard's cache needs one of its own. */
  innerKey(key: string | undefined, coords: readonly number[]): string | undefined {
    return key === undefined || this.nested === undefined ? key : `${key}[${coords.join(",")}]`;
  }
}
