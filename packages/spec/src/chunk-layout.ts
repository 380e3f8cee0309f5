/*
 * TensorStore's ChunkLayout (tensorstore/chunk_layout.cc), ported: constraints on a grid origin,
 * an inner order, and per usage (write, read, codec) a chunk shape, aspect ratio and element count,
 * each a hard constraint (must hold) or a soft one (a preference later constraints override); their
 * JSON form; how constraints merge; and how a chunk shape is chosen from them for a domain
 * (`ChooseReadWriteChunkGrid`), which is how TensorStore picks the `chunks` of a new zarr array.
 */
import type { JsonValue } from "@z/meta";
import { SpecError } from "./errors.js";
import { type Domain, isFiniteInterval, K_INF_INDEX, sizeOf } from "./domain.js";
import {
  dumpJson,
  isIntegerToken,
  isNumber,
  memberPath,
  Members,
  numberOf,
  requireArray,
  requireInteger,
} from "./json.js";

export const USAGES = ["write", "read", "codec"] as const;
export type Usage = 0 | 1 | 2;
const WRITE: Usage = 0;
const READ: Usage = 1;
const CODEC: Usage = 2;

/** TensorStore's default chunk size when `elements` is not constrained: 1024 * 1024. */
export const DEFAULT_CHUNK_ELEMENTS = 1024 * 1024;

const MAX_RANK = 32;

/** One per-dimension constraint vector with its hard bits (TensorStore's `MaybeHardConstraintSpan`). */
interface Vec {
  readonly values: readonly number[];
  readonly hard: readonly boolean[];
}

/** What a value is when it says nothing, and which values are valid, per kind of vector. */
interface Traits {
  readonly none: number;
  readonly valid: (x: number) => boolean;
  readonly soft: (x: number) => boolean;
}

/** `NaN` stands for TensorStore's kImplicit (no origin constraint). */
const ORIGIN: Traits = {
  none: Number.NaN,
  valid: (x) => Number.isNaN(x) || Math.abs(x) < Number(K_INF_INDEX),
  soft: () => false,
};
const SHAPE: Traits = { none: 0, valid: (x) => x === -1 || x >= 0, soft: (x) => x === -1 };
const ASPECT: Traits = { none: 0, valid: (x) => x >= 0, soft: () => false };

const same = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));
const fmt = (x: number): string => (Number.isNaN(x) ? "-9223372036854775808" : String(x));
export const formatVector = (v: readonly number[]): string => `{${v.map(fmt).join(", ")}}`;

/** Per-rank storage (allocated once the rank is known). */
interface Vectors {
  gridOrigin: number[];
  gridOriginHard: boolean[];
  shape: [number[], number[], number[]];
  shapeHard: [boolean[], boolean[], boolean[]];
  aspect: [number[], number[], number[]];
  aspectHard: [boolean[], boolean[], boolean[]];
  /** Empty while unset. */
  innerOrder: number[];
}

/** Chunk layout constraints, as TensorStore's `ChunkLayout`. */
export class ChunkLayout {
  /** Undefined while no constraint at all was set (TensorStore's null storage). */
  #allocated = false;
  #rank: number | undefined;
  #v: Vectors | undefined;
  #innerOrderHard = false;
  readonly #elements: (number | undefined)[] = [undefined, undefined, undefined];
  readonly #elementsHard = [false, false, false];

  get rank(): number | undefined {
    return this.#rank;
  }

  clone(): ChunkLayout {
    const c = new ChunkLayout();
    c.#allocated = this.#allocated;
    c.#rank = this.#rank;
    c.#innerOrderHard = this.#innerOrderHard;
    c.#elements.splice(0, 3, ...this.#elements);
    c.#elementsHard.splice(0, 3, ...this.#elementsHard);
    if (this.#v !== undefined) {
      const v = this.#v;
      c.#v = {
        gridOrigin: [...v.gridOrigin],
        gridOriginHard: [...v.gridOriginHard],
        shape: [[...v.shape[0]], [...v.shape[1]], [...v.shape[2]]],
        shapeHard: [[...v.shapeHard[0]], [...v.shapeHard[1]], [...v.shapeHard[2]]],
        aspect: [[...v.aspect[0]], [...v.aspect[1]], [...v.aspect[2]]],
        aspectHard: [[...v.aspectHard[0]], [...v.aspectHard[1]], [...v.aspectHard[2]]],
        innerOrder: [...v.innerOrder],
      };
    }
    return c;
  }

  /** TensorStore's `EnsureRank`. */
  setRank(rank: number): void {
    if (rank < 0 || rank > MAX_RANK) throw new SpecError(`Rank ${rank} is outside valid range [0, ${MAX_RANK}]`);
    if (this.#rank === rank) return;
    if (this.#rank !== undefined) throw new SpecError(`Rank ${rank} does not match existing rank ${this.#rank}`);
    this.#allocated = true;
    this.#rank = rank;
    const fill = <T>(x: T): T[] => new Array<T>(rank).fill(x);
    this.#v = {
      gridOrigin: fill(Number.NaN),
      gridOriginHard: fill(false),
      shape: [fill(0), fill(0), fill(0)],
      shapeHard: [fill(false), fill(false), fill(false)],
      aspect: [fill(0), fill(0), fill(0)],
      aspectHard: [fill(false), fill(false), fill(false)],
      innerOrder: [],
    };
  }

  // --- reading constraints --------------------------------------------------------------------------

  /** The inner order, when constrained. */
  innerOrder(): { values: readonly number[]; hard: boolean } | undefined {
    const v = this.#v;
    if (v === undefined || this.#rank === 0 || v.innerOrder.length === 0) return undefined;
    return { values: v.innerOrder, hard: this.#innerOrderHard };
  }

  /** The grid origin vector (valid only for a known rank > 0). */
  gridOrigin(): Vec | undefined {
    const v = this.#v;
    if (v === undefined || this.#rank === 0) return undefined;
    return { values: v.gridOrigin, hard: v.gridOriginHard };
  }

  shape(usage: Usage): Vec | undefined {
    const v = this.#v;
    if (v === undefined || this.#rank === 0) return undefined;
    return { values: v.shape[usage], hard: v.shapeHard[usage] };
  }

  aspectRatio(usage: Usage): Vec | undefined {
    const v = this.#v;
    if (v === undefined || this.#rank === 0) return undefined;
    return { values: v.aspect[usage], hard: v.aspectHard[usage] };
  }

  elements(usage: Usage): { value: number; hard: boolean } | undefined {
    const e = this.#elements[usage];
    return !this.#allocated || e === undefined ? undefined : { value: e, hard: this.#elementsHard[usage]! };
  }

  /** Whether a codec chunk shape is a hard constraint anywhere (the zarr2 driver refuses that). */
  hasHardCodecChunkShape(): boolean {
    return this.#v?.shapeHard[CODEC].some((h) => h) ?? false;
  }

  // --- setting constraints --------------------------------------------------------------------------

  /** TensorStore's `SetInnerOrderInternal`. */
  setInnerOrder(values: readonly number[], hard: boolean): void {
    const rank = values.length;
    const seen = new Set(values);
    if (seen.size !== rank || values.some((x) => !Number.isInteger(x) || x < 0 || x >= rank))
      throw new SpecError(`Invalid permutation: ${formatVector(values)}`);
    this.setRank(rank);
    const v = this.#v!;
    if (v.innerOrder.length > 0) {
      if (!hard) return;
      if (this.#innerOrderHard) {
        if (values.some((x, i) => x !== v.innerOrder[i]))
          throw new SpecError(
            `New hard constraint (${formatVector(values)}) does not match existing hard constraint (${formatVector(v.innerOrder)})`,
          );
        return;
      }
    }
    v.innerOrder = [...values];
    if (hard) this.#innerOrderHard = true;
  }

  setGridOrigin(vec: Vec): void {
    this.setRank(vec.values.length);
    const v = this.#v!;
    mergeVector(ORIGIN, vec, v.gridOrigin, v.gridOriginHard);
  }

  setShape(usage: Usage, vec: Vec): void {
    this.setRank(vec.values.length);
    const v = this.#v!;
    mergeVector(SHAPE, vec, v.shape[usage], v.shapeHard[usage]);
  }

  setAspectRatio(usage: Usage, vec: Vec): void {
    this.setRank(vec.values.length);
    const v = this.#v!;
    mergeVector(ASPECT, vec, v.aspect[usage], v.aspectHard[usage]);
  }

  /** TensorStore's `SetChunkElementsInternal`. */
  setElements(usage: Usage, value: number, hard: boolean): void {
    if (value < 0) throw new SpecError(`Invalid value: ${value}`);
    this.#allocated = true;
    const existing = this.#elements[usage];
    if (existing !== undefined) {
      if (!hard) return;
      if (this.#elementsHard[usage] && existing !== value)
        throw new SpecError(`New hard constraint (${value}) does not match existing hard constraint (${existing})`);
    }
    this.#elements[usage] = value;
    if (hard) this.#elementsHard[usage] = true;
  }

  /** `Set(GridViewFor<usage>)` with TensorStore's "Error setting <usage>_chunk ..." context. */
  setGrid(usage: Usage, grid: { shape?: Vec; aspect?: Vec; elements?: { value: number; hard: boolean } }): void {
    const name = USAGES[usage];
    if (grid.shape !== undefined)
      withContext(`Error setting ${name}_chunk shape`, () => this.setShape(usage, grid.shape!));
    if (grid.aspect !== undefined)
      withContext(`Error setting ${name}_chunk aspect_ratio`, () => this.setAspectRatio(usage, grid.aspect!));
    if (grid.elements !== undefined)
      withContext(`Error setting ${name}_chunk elements`, () =>
        this.setElements(usage, grid.elements!.value, grid.elements!.hard),
      );
  }

  /** `Set(ChunkLayout::ChunkShape(shape))` (no usage): the write and read chunk shape, hard. */
  setChunkShape(values: readonly number[]): void {
    const vec = { values, hard: values.map(() => true) };
    this.setGrid(WRITE, { shape: vec });
    this.setGrid(READ, { shape: vec });
  }

  // --- JSON ------------------------------------------------------------------------------------------

  /** A `chunk_layout` member, merged into these constraints as TensorStore's JSON binder does. */
  static parse(j: JsonValue, member: string, into = new ChunkLayout()): ChunkLayout {
    const m = new Members(j, member);
    const at = (name: string): string => m.at(name);
    const wrap = (name: string, f: () => void): void => withMember(at(name), f);
    const rank = m.take("rank");
    if (rank !== undefined) {
      const r = requireInteger(rank, at("rank"), -1, MAX_RANK);
      if (r >= 0) wrap("rank", () => into.setRank(r));
    }
    for (const [name, hard] of [
      ["inner_order", true],
      ["inner_order_soft_constraint", false],
    ] as const) {
      const value = m.take(name);
      if (value === undefined || value === null) continue;
      const items = readVector(value, at(name), (x, where) => requireInteger(x, where, 0, MAX_RANK - 1));
      wrap(name, () => into.setInnerOrder(items, hard));
    }
    for (const [name, hard] of [
      ["grid_origin", true],
      ["grid_origin_soft_constraint", false],
    ] as const) {
      const value = m.take(name);
      if (value === undefined) continue;
      const items = readVector(value, at(name), (x, where) => (x === null ? Number.NaN : readIndex(x, where)));
      wrap(name, () => into.setGridOrigin({ values: items, hard: items.map(() => hard) }));
    }
    const grids: [string, Usage[], Usage[], Usage[]][] = [
      // name, usages of shape, of aspect_ratio, of elements
      ["chunk", [WRITE, READ], [WRITE, READ, CODEC], [WRITE, READ]],
      ["write_chunk", [WRITE], [WRITE], [WRITE]],
      ["read_chunk", [READ], [READ], [READ]],
      ["codec_chunk", [CODEC], [CODEC], [CODEC]],
    ];
    for (const [name, shapeUsages, aspectUsages, elementUsages] of grids) {
      const value = m.take(name);
      if (value === undefined) continue;
      parseGrid(value, at(name), into, shapeUsages, aspectUsages, elementUsages);
    }
    m.done();
    return into;
  }
}

/** A grid's members (`shape`, `aspect_ratio`, `elements` and their soft forms). */
function parseGrid(
  j: JsonValue,
  member: string,
  into: ChunkLayout,
  shapeUsages: Usage[],
  aspectUsages: Usage[],
  elementUsages: Usage[],
): void {
  const m = new Members(j, member);
  for (const [name, hard] of [
    ["shape", true],
    ["shape_soft_constraint", false],
  ] as const) {
    const value = m.take(name);
    if (value === undefined) continue;
    const items = readVector(value, m.at(name), (x, where) => (x === null ? 0 : readIndex(x, where)));
    const vec = { values: items, hard: items.map((x) => hard && x !== -1) };
    validate(SHAPE, vec, m.at(name));
    withMember(m.at(name), () => {
      for (const u of shapeUsages) into.setShape(u, vec);
    });
  }
  for (const [name, hard] of [
    ["aspect_ratio", true],
    ["aspect_ratio_soft_constraint", false],
  ] as const) {
    const value = m.take(name);
    if (value === undefined) continue;
    const items = readVector(value, m.at(name), (x, where) => {
      if (x === null) return 0;
      if (!isNumber(x))
        throw new SpecError(`Expected 64-bit floating-point number, but received: ${dumpJson(x)}`, { member: where });
      return Number(numberOf(x));
    });
    const vec = { values: items, hard: items.map(() => hard) };
    validate(ASPECT, vec, m.at(name));
    withMember(m.at(name), () => {
      for (const u of aspectUsages) into.setAspectRatio(u, vec);
    });
  }
  for (const [name, hard] of [
    ["elements", true],
    ["elements_soft_constraint", false],
  ] as const) {
    const value = m.take(name);
    if (value === undefined || value === null) continue;
    const n = readIndex(value, m.at(name));
    withMember(m.at(name), () => {
      for (const u of elementUsages) into.setElements(u, n, hard);
    });
  }
  m.done();
}

/** A JSON integer index (TensorStore's `Index` binder: strict integers). */
function readIndex(x: JsonValue, member: string): number {
  if (!isIntegerToken(x) && !isNumber(x))
    throw new SpecError(`Expected 64-bit signed integer, but received: ${dumpJson(x)}`, { member });
  return requireInteger(x, member, -(2n ** 63n), 2n ** 63n - 1n);
}

/** A `DimensionIndexedVector`: an array of at most 32 elements. */
function readVector(j: JsonValue, member: string, element: (x: JsonValue, member: string) => number): number[] {
  const items = requireArray(j, member);
  if (items.length > MAX_RANK)
    throw new SpecError(`Rank ${items.length} is outside valid range [0, ${MAX_RANK}]`, { member });
  return items.map((x, i) => element(x, `${member}[${i}]`));
}

function validate(traits: Traits, vec: Vec, member: string): void {
  if (vec.values.some((x) => !traits.valid(x)))
    throw new SpecError(
      `Invalid value for dimension ${vec.values.findIndex((x) => !traits.valid(x))}: ${formatVector(vec.values)}`,
      { member },
    );
}

/** TensorStore's `ValidateAndMergeVectorInto`. */
function mergeVector(traits: Traits, vec: Vec, out: number[], outHard: boolean[]): void {
  if (vec.values.length === 0) return;
  validate(traits, vec, "");
  const hard = vec.values.map((x, i) => vec.hard[i]! && !traits.soft(x));
  for (let i = 0; i < vec.values.length; i++) {
    const x = vec.values[i]!;
    if (hard[i] && outHard[i] && !same(x, traits.none) && !same(out[i]!, x))
      throw new SpecError(
        `New hard constraint (${fmt(x)}) for dimension ${i} does not match existing hard constraint (${fmt(out[i]!)})`,
      );
  }
  for (let i = 0; i < vec.values.length; i++) {
    const x = vec.values[i]!;
    if (same(x, traits.none)) continue;
    if (hard[i] || same(out[i]!, traits.none)) {
      out[i] = x;
      outHard[i] = outHard[i]! || hard[i]!;
    }
  }
}

/** Runs `f`, prefixing a SpecError's message with `context` (TensorStore's `.Format(...)`). */
export function withContext<T>(context: string, f: () => T, member?: string): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof SpecError) {
      const inner = error.member === undefined ? error.message : error.message.slice(error.message.indexOf(": ") + 2);
      throw new SpecError(`${context}: ${inner}`, { member: member ?? error.member });
    }
    throw error;
  }
}

/** Runs `f`, attributing a SpecError without a member to `member`. */
export function withMember<T>(member: string, f: () => T): T {
  try {
    return f();
  } catch (error) {
    if (error instanceof SpecError && error.member === undefined) throw new SpecError(error.message, { member });
    throw error;
  }
}

// --- choosing a chunk shape ----------------------------------------------------------------------

/** A domain's dimension bounds for chunk selection: its size when finite. */
type Bounds = readonly { finite: boolean; size: number; min: number }[];

const boundsOf = (domain: Domain | undefined, rank: number): Bounds =>
  domain === undefined
    ? new Array(rank).fill({ finite: false, size: Infinity, min: -Infinity })
    : domain.dims.map((d) => ({ finite: isFiniteInterval(d), size: sizeOf(d), min: d.min }));

/**
 * TensorStore's `ChooseReadWriteChunkGrid`: the write chunk constraints merged into the read chunk
 * ones, then a chunk shape chosen for `domain` (returned; the zarr driver ignores the origin).
 */
export function chooseReadWriteChunkShape(layout: ChunkLayout, domain: Domain | undefined, rank: number): number[] {
  const combined = layout.clone();
  withContext("write_chunk constraints not compatible with existing read_chunk constraints", () =>
    combined.setGrid(READ, {
      shape: layout.shape(WRITE),
      aspect: layout.aspectRatio(WRITE),
      elements: layout.elements(WRITE),
    }),
  );
  const bounds = boundsOf(domain, rank);
  const shape = chooseChunkShape(combined, bounds, rank);
  chooseGridOrigin(combined.gridOrigin(), bounds, shape);
  return shape;
}

function chooseChunkShape(layout: ChunkLayout, bounds: Bounds, rank: number): number[] {
  const constraint = layout.shape(READ);
  let chunk: number[];
  if (constraint !== undefined) {
    if (constraint.values.length !== rank)
      throw new SpecError(`Rank of constraints (${constraint.values.length}) does not match rank of domain (${rank})`);
    chunk = [...constraint.values];
  } else {
    chunk = new Array<number>(rank).fill(0);
  }
  for (let i = 0; i < rank; i++) {
    if (chunk[i] === -1) {
      const b = bounds[i]!;
      if (!b.finite) throw new SpecError(`Cannot match chunk size for dimension ${i} to unbounded domain (-inf, +inf)`);
      chunk[i] = Math.max(1, b.size);
    }
  }
  if (chunk.some((x) => x === 0)) {
    const aspect = layout.aspectRatio(READ);
    let ratio: number[];
    if (aspect !== undefined) {
      if (aspect.values.length !== rank)
        throw new SpecError(`Rank of constraints (${aspect.values.length}) does not match rank of domain (${rank})`);
      ratio = aspect.values.map((x) => (x === 0 ? 1 : x));
    } else {
      ratio = new Array<number>(rank).fill(1);
    }
    const target = layout.elements(READ)?.value ?? DEFAULT_CHUNK_ELEMENTS;
    chooseFromAspectRatio(ratio, chunk, target, bounds);
  }
  return chunk;
}

const INT64_MAX = 2n ** 63n - 1n;

/** TensorStore's `ChooseChunkSizeFromAspectRatio`: a binary search over a scale factor. */
function chooseFromAspectRatio(
  ratio: readonly number[],
  chunk: number[],
  target: number,
  bounds: Bounds,
  mapSize: (i: number, size: number) => number = (_, size) => size,
): void {
  const rank = chunk.length;
  const maxShape = bounds.map((b) => {
    let max = target;
    if (b.finite) max = Math.min(max, Math.max(1, b.size));
    return Math.min(max, 2 ** 62);
  });
  const sizeAt = (i: number, factor: number): number => {
    if (chunk[i] !== 0) return chunk[i]!;
    return mapSize(i, Math.max(1, Math.trunc(Math.min(ratio[i]! * factor, maxShape[i]!))));
  };
  const totalAt = (factor: number): bigint => {
    let total = 1n;
    for (let i = 0; i < rank; i++) {
      total *= BigInt(sizeAt(i, factor));
      if (total > INT64_MAX) return INT64_MAX;
    }
    return total;
  };
  let minIncrement = Infinity;
  let maxFactor = 0;
  for (let i = 0; i < rank; i++) {
    if (chunk[i] !== 0) continue;
    minIncrement = Math.min(minIncrement, 1 / ratio[i]!);
    maxFactor = Math.max(maxFactor, maxShape[i]! / ratio[i]!);
  }
  minIncrement /= 2;
  maxFactor *= 2;
  let minFactor = minIncrement;
  const goal = BigInt(target);
  let maxElements = totalAt(maxFactor);
  while (minFactor + minIncrement < maxFactor) {
    const mid = minFactor + (maxFactor - minFactor) / 2;
    const midElements = totalAt(mid);
    if (midElements >= goal) {
      maxFactor = mid;
      maxElements = midElements;
    }
    if (midElements <= goal) minFactor = mid;
  }
  const factor = maxElements === goal ? maxFactor : minFactor;
  for (let i = 0; i < rank; i++) chunk[i] = sizeAt(i, factor);
}

// --- separate read and write chunk shapes (the zarr3 driver's sharded chunks) ---------------------

/** TensorStore's `InitializeChunkShape`: the shape constraints of one usage, and which are hard. */
function initialChunkShape(vec: Vec | undefined, bounds: Bounds, rank: number): { chunk: number[]; hard: boolean[] } {
  if (vec !== undefined && vec.values.length !== rank)
    throw new SpecError(`Rank of constraints (${vec.values.length}) does not match rank of domain (${rank})`);
  const chunk = vec === undefined ? new Array<number>(rank).fill(0) : [...vec.values];
  const hard = vec === undefined ? new Array<boolean>(rank).fill(false) : [...vec.hard];
  for (let i = 0; i < rank; i++) {
    if (chunk[i] === 0) hard[i] = false;
    else if (chunk[i] === -1) {
      const b = bounds[i]!;
      if (!b.finite) throw new SpecError(`Cannot match chunk size for dimension ${i} to unbounded domain (-inf, +inf)`);
      chunk[i] = Math.max(1, b.size);
    }
  }
  return { chunk, hard };
}

/** TensorStore's `CompleteChunkShapeFromAspectRatio`. */
function completeChunkShape(
  layout: ChunkLayout,
  usage: Usage,
  chunk: number[],
  bounds: Bounds,
  mapSize: (i: number, size: number) => number,
): void {
  if (!chunk.some((x) => x === 0)) return;
  const rank = chunk.length;
  const aspect = layout.aspectRatio(usage);
  if (aspect !== undefined && aspect.values.length !== rank)
    throw new SpecError(`Rank of constraints (${aspect.values.length}) does not match rank of domain (${rank})`);
  const ratio = aspect === undefined ? new Array<number>(rank).fill(1) : aspect.values.map((x) => (x === 0 ? 1 : x));
  chooseFromAspectRatio(ratio, chunk, layout.elements(usage)?.value ?? DEFAULT_CHUNK_ELEMENTS, bounds, mapSize);
}

/** TensorStore's `FindNearestDivisor`: the divisor of `dividend` closest to `target` (below first). */
function nearestDivisor(dividend: number, target: number): number {
  if (target >= dividend) return dividend;
  if (dividend % target === 0) return target;
  for (let offset = 1; offset < 1000000; offset++) {
    if (target > offset && dividend % (target - offset) === 0) return target - offset;
    if (dividend % (target + offset) === 0) return target + offset;
  }
  return dividend;
}

/** TensorStore's `FindNearestMultiple`: the multiple of `divisor` closest to `target` (below on ties). */
function nearestMultiple(divisor: number, target: number): number {
  if (target < divisor) return divisor;
  const lower = Math.trunc(target / divisor) * divisor;
  const upper = lower + divisor;
  return target - lower <= upper - target ? lower : upper;
}

/**
 * TensorStore's `ChooseReadWriteChunkShapes`: a read chunk shape and a write chunk shape for
 * `domain`, each from its own constraints, every write chunk a whole number of read chunks (the
 * zarr3 driver shards when they differ).
 */
export function chooseReadWriteChunkShapes(
  layout: ChunkLayout,
  domain: Domain | undefined,
  rank: number,
): { read: number[]; write: number[] } {
  const bounds = boundsOf(domain, rank);
  const w = initialChunkShape(layout.shape(WRITE), bounds, rank);
  const r = initialChunkShape(layout.shape(READ), bounds, rank);
  const write = w.chunk;
  const read = r.chunk;
  for (let i = 0; i < rank; i++) {
    if (read[i] === 0 || write[i] === 0 || write[i]! % read[i]! === 0) continue;
    if (r.hard[i] && w.hard[i])
      throw new SpecError(
        `Incompatible chunk size constraints for dimension ${i}: read size of ${read[i]}, write size of ${write[i]}`,
      );
    if (r.hard[i]) write[i] = nearestMultiple(read[i]!, write[i]!);
    else read[i] = nearestDivisor(write[i]!, read[i]!);
  }
  completeChunkShape(layout, READ, read, bounds, (i, size) =>
    write[i] !== 0 ? nearestDivisor(write[i]!, size) : size,
  );
  completeChunkShape(layout, WRITE, write, bounds, (i, size) => nearestMultiple(read[i]!, size));
  return { read, write };
}

/** TensorStore's `ChooseChunkGridOrigin`, for its errors (the zarr driver does not keep the origin). */
function chooseGridOrigin(constraint: Vec | undefined, bounds: Bounds, chunk: readonly number[]): void {
  const rank = chunk.length;
  if (constraint !== undefined && constraint.values.length !== rank)
    throw new SpecError(`Rank of constraints (${constraint.values.length}) does not match rank of domain (${rank})`);
  for (let i = 0; i < rank; i++) {
    let origin = constraint?.values[i] ?? Number.NaN;
    if (Number.isNaN(origin)) {
      const lo = bounds[i]!.min;
      origin = lo === -Infinity ? 0 : ((lo % chunk[i]!) + chunk[i]!) % chunk[i]!;
    }
    if (origin + chunk[i]! - 1 > Number(K_INF_INDEX) || chunk[i]! > Number(K_INF_INDEX))
      throw new SpecError(`Invalid chunk constraints for dimension ${i}`);
  }
}

/** The chunk layout member path of a usage's grid, for messages. */
export const gridMember = (parent: string, usage: Usage): string => memberPath(parent, `${USAGES[usage]}_chunk`);
