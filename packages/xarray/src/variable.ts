import type { RunOptions, ZarrArray } from "@z/core";
import type { JsonValue } from "@z/meta";
import { type Plan, runSteps } from "./cf/decode.js";
import { DatasetError } from "./errors.js";
import {
  coreSelection,
  type DimView,
  fullView,
  type PositionIndexer,
  refine,
  selectValues,
  viewLength,
} from "./view.js";
import { ByteString, finish, type Held, heldFromRead, latin1Bytes, type ValueData, type Values } from "./values.js";
import { selectByLabel, type LabelIndexers, type SelOptions } from "./labels.js";

/** Where a variable's values come from: a Zarr array decoded as planned, or values in memory. */
type VariableSource =
  | { readonly kind: "zarr"; readonly array: ZarrArray; readonly plan: Plan }
  | { readonly kind: "memory"; readonly values: Values };

/** What a variable is made of (see {@link Variable}). */
interface VariableInit {
  readonly name: string;
  /** The decoded dimensions, in order. */
  readonly dims: readonly string[];
  readonly dtype: string;
  readonly attrs: Record<string, JsonValue>;
  readonly rawAttrs?: Record<string, JsonValue>;
  readonly encoding?: Record<string, unknown>;
  readonly source: VariableSource;
}

// Set by Variable's static blocks: how this package makes variables (its constructor is private).
let construct: (init: VariableInit, views?: readonly DimView[], indexes?: ReadonlyMap<string, Variable>) => Variable;
let attach: (variable: Variable, indexes: ReadonlyMap<string, Variable>) => Variable;

/**
 * One variable of a dataset, as xarray shows it: its dimensions, shape, dtype (after decoding),
 * attributes (decoded: the CF attributes xarray uses moved to `encoding`; and raw: `.zattrs` as
 * stored) and encoding. Its values are read on demand (`values()`), only the chunks a selection
 * touches; `isel` and `sel` give new variables without reading anything but label coordinates.
 */
export class Variable {
  readonly name: string;
  /** The dimensions the values have, in order. */
  readonly dims: readonly string[];
  readonly shape: readonly number[];
  /** NumPy's name of the decoded values' dtype (see `Values`). */
  readonly dtype: string;
  /** The attributes xarray shows (`var.attrs`). */
  readonly attrs: Readonly<Record<string, JsonValue>>;
  /** The attributes as stored in `.zattrs` (with `_ARRAY_DIMENSIONS` and every CF attribute). */
  readonly rawAttrs: Readonly<Record<string, JsonValue>>;
  /**
   * What xarray keeps in `var.encoding`: the stored `dtype`, `chunks`, `compressor`, `filters`,
   * and the CF attributes decoding used (`_FillValue`, `missing_value`, `scale_factor`,
   * `add_offset`, `units`, `calendar`, `coordinates`, ...). `toZarr` writes by it.
   */
  readonly encoding: Readonly<Record<string, unknown>>;
  readonly #source: VariableSource;
  /** How each stored dimension is selected. */
  readonly #views: readonly DimView[];
  /** The 1-D coordinates named as dimensions, by dimension, for `sel` (set by the dataset). */
  #indexes: ReadonlyMap<string, Variable> | undefined;
  #cached: Promise<Values> | undefined;

  static {
    construct = (init, views, indexes) => new Variable(init, views, indexes);
  }

  private constructor(init: VariableInit, views?: readonly DimView[], indexes?: ReadonlyMap<string, Variable>) {
    this.name = init.name;
    this.dtype = init.dtype;
    this.attrs = init.attrs;
    this.rawAttrs = init.rawAttrs ?? init.attrs;
    this.encoding = init.encoding ?? {};
    this.#source = init.source;
    const storedShape = storedShapeOf(init.source);
    const storedDims = storedDimsOf(init);
    if (storedDims.length !== storedShape.length)
      throw new DatasetError(
        `${init.name}: ${storedDims.length} dimension names (${storedDims.join(", ")}) for ${storedShape.length} dimensions`,
        { variable: init.name },
      );
    this.#views = views ?? fullView(storedShape);
    const dims: string[] = [];
    const shape: number[] = [];
    this.#views.forEach((view, d) => {
      const length = viewLength(view);
      if (length !== undefined && d < init.dims.length) {
        dims.push(init.dims[d]!);
        shape.push(length);
      }
    });
    this.dims = dims;
    this.shape = shape;
    this.#indexes = indexes;
    // Kept for isel.
    this.#init = init;
  }

  readonly #init: VariableInit;

  get ndim(): number {
    return this.dims.length;
  }

  /** The number of values. */
  get size(): number {
    return this.shape.reduce((a, b) => a * b, 1);
  }

  /** Each dimension's length, by name. */
  get sizes(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.dims.map((d, i) => [d, this.shape[i]!]));
  }

  /** Whether the values come from a Zarr array (rather than from memory). */
  get stored(): boolean {
    return this.#source.kind === "zarr";
  }

  /** The Zarr array the values are read from, if any. */
  get array(): ZarrArray | undefined {
    return this.#source.kind === "zarr" ? this.#source.array : undefined;
  }

  /**
   * The decoded values of this variable (of this selection of it), as xarray's `.values` gives
   * them. Reads only the chunks the selection touches; each call reads afresh.
   */
  async values<T extends ValueData = ValueData>(options: RunOptions = {}): Promise<Values<T>> {
    const source = this.#source;
    if (source.kind === "memory") return selectValues(source.values, this.#views) as Values<T>;
    const held = heldFromRead(await this.#read(options), this.name);
    if (source.plan.steps.length === 0) return finish(scalarObject(held)) as Values<T>;
    return finish(runSteps(source.plan, held)) as Values<T>;
  }

  /** The stored values of this selection, undecoded (as `decodeCF: false` reads them, bytes as Latin-1). */
  async rawValues<T extends ValueData = ValueData>(options: RunOptions = {}): Promise<Values<T>> {
    const source = this.#source;
    if (source.kind === "memory") return selectValues(source.values, this.#views) as Values<T>;
    return finish(heldFromRead(await this.#read(options), this.name)) as Values<T>;
  }

  /** The values, read once and kept (for coordinates searched by label). */
  cachedValues(): Promise<Values> {
    this.#cached ??= this.values();
    return this.#cached;
  }

  async #read(options: RunOptions) {
    const source = this.#source as Extract<VariableSource, { kind: "zarr" }>;
    const { kind, selection } = coreSelection(this.#views);
    const opts = { signal: options.signal, concurrency: options.concurrency, progress: options.progress };
    // biome-ignore lint/suspicious/noExplicitAny: core's selection types are structural here
    const items = selection as any;
    return kind === "basic"
      ? source.array.getBasicSelection<ValueData>(items, opts)
      : source.array.getOrthogonalSelection<ValueData>(items, opts);
  }

  /**
   * A selection by position, as xarray's `isel`: an integer drops its dimension, a slice (see
   * `slice`) or a list of positions keeps it. Nothing is read.
   */
  isel(indexers: Readonly<Record<string, PositionIndexer>>): Variable {
    const views = [...this.#views];
    for (const [dim, indexer] of Object.entries(indexers)) {
      const d = this.#storedDim(dim);
      if (d === undefined)
        throw new DatasetError(
          `${this.name}: isel: no dimension ${JSON.stringify(dim)} (dimensions: ${this.dims.join(", ") || "none"})`,
          {
            variable: this.name,
          },
        );
      views[d] = refine(views[d]!, indexer, dim);
    }
    const indexes = this.#indexes === undefined ? undefined : indexesAfter(this.#indexes, indexers);
    return construct(this.#init, views, indexes);
  }

  /**
   * A selection by coordinate label, as xarray's `sel` (needs the variable to come from a dataset,
   * whose 1-D coordinates named as dimensions give the labels). See `Dataset.sel`.
   */
  async sel(indexers: LabelIndexers, options: SelOptions = {}): Promise<Variable> {
    const positions = await selectByLabel(this.#indexes ?? new Map(), indexers, options, this.dims);
    return this.isel(positions);
  }

  /** The position in the stored dimensions of a kept dimension named `dim`. */
  #storedDim(dim: string): number | undefined {
    for (let d = 0; d < this.#views.length; d++) {
      if (this.#init.dims[d] === dim && viewLength(this.#views[d]!) !== undefined) return d;
    }
    return undefined;
  }

  /** This variable with the dataset's index coordinates attached (for `sel`). */
  static #withIndexes(variable: Variable, indexes: ReadonlyMap<string, Variable>): Variable {
    return new Variable(variable.#init, variable.#views, indexes);
  }

  static {
    attach = (variable, indexes) => Variable.#withIndexes(variable, indexes);
  }
}

/** A variable from what it is made of (this package's own; users build them with `createVariable`). */
export function newVariable(init: VariableInit): Variable {
  return construct(init);
}

/** The variable with a dataset's 1-D index coordinates attached, so that `sel` finds labels. */
export function withIndexes(variable: Variable, indexes: ReadonlyMap<string, Variable>): Variable {
  return attach(variable, indexes);
}

/** The index coordinates after the same isel (a coordinate indexed away is no index any more). */
function indexesAfter(
  indexes: ReadonlyMap<string, Variable>,
  indexers: Readonly<Record<string, PositionIndexer>>,
): ReadonlyMap<string, Variable> {
  const out = new Map<string, Variable>();
  for (const [dim, index] of indexes) {
    const indexer = indexers[dim];
    if (indexer === undefined) out.set(dim, index);
    else if (typeof indexer !== "number") out.set(dim, index.isel({ [dim]: indexer }));
  }
  return out;
}

/**
 * One element of an object array, undecoded, is what zarr-python gives for it (a `str` or `bytes`),
 * which NumPy then holds as `<U<n>` or `|S<n>`: so xarray's `.values` of a 0-d selection of vlen
 * strings has that dtype, not `object`.
 */
function scalarObject(held: Held): Held {
  if (held.shape.length !== 0 || held.dtype !== "object") return held;
  const value = (held.data as unknown[])[0];
  if (typeof value === "string") return { ...held, dtype: `<U${Math.max(1, [...value].length)}` };
  if (value instanceof ByteString) {
    const bytes = latin1Bytes(value.text)!;
    return { dtype: `|S${Math.max(1, bytes.length)}`, shape: [], data: bytes.length === 0 ? new Uint8Array(1) : bytes };
  }
  return held;
}

function storedShapeOf(source: VariableSource): readonly number[] {
  return source.kind === "zarr" ? source.array.shape : source.values.shape;
}

/** The stored dimensions: the decoded ones, plus the joined character dimension. */
function storedDimsOf(init: VariableInit): readonly string[] {
  if (init.source.kind === "zarr" && init.source.plan.stacked)
    return [...init.dims, String(init.encoding?.char_dim_name ?? "string")];
  return init.dims;
}
