import {
  ConsolidatedStore,
  Group,
  NodeNotFoundError,
  openConsolidated,
  openLocation,
  ZarrArray,
  type LocationOptions,
  type OpenedLocation,
} from "@z/core";
import {
  JsonFloat,
  joinPath,
  keyPrefix,
  normalizeStoragePath,
  numpyName,
  parseJson,
  type JsonValue,
  type Store,
} from "@z/meta";
import { ComplexValue } from "./cf/mask.js";
import {
  type DecodeOptions,
  type Plan,
  planVariable,
  resolveDecodeOptions,
  type ResolvedDecodeOptions,
  runSteps,
} from "./cf/decode.js";
import { CFError, DatasetError } from "./errors.js";
import { valuesDtype } from "./dtype.js";
import { ByteString, heldFromRead, latin1, type ValueData } from "./values.js";
import { newVariable, type Variable, withIndexes } from "./variable.js";
import type { PositionIndexer } from "./view.js";
import { selectByLabel, type LabelIndexers, type SelOptions } from "./labels.js";
import { codecEncodingV3, decodeFillAttribute, dimensionNamesV3, metadataV3 } from "./zarr-v3.js";
import { CF_RELATED_DATA } from "./cf/related.js";

/** The attribute xarray keeps each array's dimension names in. */
export const DIMENSION_KEY = "_ARRAY_DIMENSIONS";
const CONSOLIDATED_KEY = ".zmetadata";

const CF_RELATED_DATA_NEEDS_PARSING = new Set(["cell_measures", "formula_terms"]);

export interface OpenDatasetOptions extends DecodeOptions {
  /** The group inside the store (default: its root), joined to a location's own path. */
  path?: string;
  /**
   * Read metadata from `.zmetadata`: undefined uses it when there is one (as `xr.open_zarr`), true
   * requires it, false never reads it.
   */
  consolidated?: boolean;
  /** How to open a location string (see `@z/core`'s `openLocation`). */
  location?: LocationOptions;
  /**
   * Only these arrays of the group (not in xarray): for stores that cannot list a group's members
   * (plain HTTP without `.zmetadata`), or to read less. A `coordinates` attribute naming an array
   * left out makes no coordinates, as in xarray when a named variable is missing.
   */
  variables?: readonly string[];
  /**
   * Whether the Zarr `fill_value` masks, as a `_FillValue` (xarray's `use_zarr_fill_value_as_mask`).
   * Default as xarray's: true for Zarr v2 groups, false for v3 ones, where it is kept as
   * `encoding.fill_value` and only a `_FillValue` attribute masks.
   */
  useZarrFillValueAsMask?: boolean;
  signal?: AbortSignal;
}

/** What `Dataset` is made of. */
export interface DatasetInit {
  readonly variables: readonly Variable[];
  /** Names of the variables that are coordinates (besides those named as their dimension). */
  readonly coords?: Iterable<string>;
  readonly attrs?: Record<string, JsonValue>;
  readonly rawAttrs?: Record<string, JsonValue>;
  /** Called by `close()` (an opened location's close). */
  readonly close?: () => Promise<void>;
}

/**
 * A dataset as xarray shows it: variables (data and coordinates) over named dimensions, with
 * attributes. `openDataset` reads one from a Zarr group written by xarray (or any with
 * `_ARRAY_DIMENSIONS`), decoding CF conventions as `xr.open_zarr` does; `isel`/`sel` select lazily.
 */
export class Dataset {
  /** Every variable, data and coordinates, in the order xarray lists them (the store's, by name). */
  readonly variables: ReadonlyMap<string, Variable>;
  /** The dataset's attributes as xarray shows them (`coordinates` taken out when decoded). */
  readonly attrs: Readonly<Record<string, JsonValue>>;
  /** The group's `.zattrs` as stored. */
  readonly rawAttrs: Readonly<Record<string, JsonValue>>;
  /** Each dimension's length, in the order the variables first use them. */
  readonly sizes: Readonly<Record<string, number>>;
  readonly #coords: ReadonlySet<string>;
  readonly #close: (() => Promise<void>) | undefined;

  constructor(init: DatasetInit) {
    const sizes: Record<string, number> = {};
    const byName = new Map<string, Variable>();
    for (const variable of init.variables) {
      if (byName.has(variable.name))
        throw new DatasetError(`two variables are named ${JSON.stringify(variable.name)}`, { variable: variable.name });
      variable.dims.forEach((dim, i) => {
        const length = variable.shape[i]!;
        if (dim in sizes && sizes[dim] !== length)
          throw new DatasetError(
            `conflicting lengths for dimension ${JSON.stringify(dim)} (${length} in ${variable.name} != ${sizes[dim]})`,
            { variable: variable.name },
          );
        sizes[dim] = length;
      });
      byName.set(variable.name, variable);
    }
    const coords = new Set<string>();
    for (const name of init.coords ?? []) if (byName.has(name)) coords.add(name);
    for (const variable of init.variables) if (variable.name in sizes) coords.add(variable.name);
    // Variables know the 1-D coordinates named as their dimension, so they can select by label.
    const indexes = new Map<string, Variable>();
    for (const variable of init.variables)
      if (variable.ndim === 1 && variable.dims[0] === variable.name) indexes.set(variable.name, variable);
    this.variables = new Map([...byName].map(([name, v]) => [name, withIndexes(v, indexes)]));
    this.sizes = sizes;
    this.#coords = coords;
    this.attrs = init.attrs ?? {};
    this.rawAttrs = init.rawAttrs ?? this.attrs;
    this.#close = init.close;
  }

  /** Dimension names, in the order of `sizes`. */
  get dims(): string[] {
    return Object.keys(this.sizes);
  }

  /** Names of the coordinate variables, in variable order. */
  get coords(): string[] {
    return [...this.variables.keys()].filter((name) => this.#coords.has(name));
  }

  /** Names of the data variables (those that are not coordinates), in variable order. */
  get dataVars(): string[] {
    return [...this.variables.keys()].filter((name) => !this.#coords.has(name));
  }

  /** Whether `name` is a variable of the dataset. */
  has(name: string): boolean {
    return this.variables.has(name);
  }

  /** The variable `name` (a `DatasetError` when there is none). */
  get(name: string): Variable {
    const variable = this.variables.get(name);
    if (variable === undefined)
      throw new DatasetError(
        `no variable ${JSON.stringify(name)} (variables: ${[...this.variables.keys()].join(", ") || "none"})`,
        { variable: name },
      );
    return variable;
  }

  /**
   * A selection by position along named dimensions, as xarray's `isel`, e.g.
   * `isel({ time: 0, lat: slice(10, 20) })`: every variable with those dimensions is selected
   * lazily (nothing is read).
   */
  isel(indexers: Readonly<Record<string, PositionIndexer>>): Dataset {
    for (const dim of Object.keys(indexers)) {
      if (!(dim in this.sizes))
        throw new DatasetError(
          `isel: no dimension ${JSON.stringify(dim)} (dimensions: ${this.dims.join(", ") || "none"})`,
        );
    }
    const variables = [...this.variables.values()].map((variable) => {
      const own = Object.fromEntries(Object.entries(indexers).filter(([dim]) => variable.dims.includes(dim)));
      return Object.keys(own).length === 0 ? variable : variable.isel(own);
    });
    return new Dataset({
      variables,
      coords: this.#coords,
      attrs: this.attrs,
      rawAttrs: this.rawAttrs,
      close: this.#close,
    });
  }

  /**
   * A selection by coordinate label, as xarray's `sel`: labels of the 1-D coordinate named as each
   * dimension (read once), exact or `method: "nearest"`, lists of labels, label slices (both ends
   * included; see `slice`), times as ISO strings (a partial one, such as "2000-01", selects its
   * whole period where pandas does), `Date`s or `CFDatetime`s.
   */
  async sel(indexers: LabelIndexers, options: SelOptions = {}): Promise<Dataset> {
    const indexes = new Map<string, Variable>();
    for (const variable of this.variables.values())
      if (variable.ndim === 1 && variable.dims[0] === variable.name) indexes.set(variable.name, variable);
    return this.isel(await selectByLabel(indexes, indexers, options, this.dims));
  }

  /** Releases what opening a location took (a zip file's handle); nothing otherwise. */
  async close(): Promise<void> {
    await this.#close?.();
  }
}

/** The source of a dataset: a store, a location string, or a location `openLocation` opened. */
export type DatasetSource = Store | string | OpenedLocation;

const isOpenedLocation = (value: unknown): value is OpenedLocation =>
  typeof value === "object" && value !== null && "store" in value && "location" in value && "close" in value;

/**
 * Opens the dataset in a Zarr group as `xr.open_zarr` does: every array directly in the group is
 * a variable (dimension names from `_ARRAY_DIMENSIONS`, or a Zarr v3 array's `dimension_names`),
 * CF conventions decoded as `decode_cf` does by default (see `DecodeOptions` to turn steps off),
 * consolidated metadata used when present (`.zmetadata`, or inline in a v3 group's `zarr.json`). Reads metadata, and for time variables their first and last value (as xarray does, to
 * know their dtype); nothing else until values are asked for.
 */
export async function openDataset(source: DatasetSource, options: OpenDatasetOptions = {}): Promise<Dataset> {
  let store: Store;
  let path = normalizeStoragePath(options.path);
  let close: (() => Promise<void>) | undefined;
  if (typeof source === "string") {
    const opened = await openLocation(source, options.location);
    store = opened.store;
    path = joinPath(opened.path, path);
    close = () => opened.close();
  } else if (isOpenedLocation(source)) {
    store = source.store;
    path = joinPath(source.path, path);
  } else {
    store = source;
  }
  try {
    return await readDataset(store, path, options, close);
  } catch (error) {
    await close?.();
    throw error;
  }
}

interface StoredArray {
  readonly name: string;
  readonly array: ZarrArray;
  readonly rawAttrs: Record<string, JsonValue>;
}

async function readDataset(
  store: Store,
  path: string,
  options: OpenDatasetOptions,
  close: (() => Promise<void>) | undefined,
): Promise<Dataset> {
  const { signal } = options;
  let reader: Store = store;
  let names: string[] | undefined;
  if (options.consolidated !== false) {
    const bytes = await store.get(CONSOLIDATED_KEY, { signal });
    if (bytes !== undefined) {
      reader = await ConsolidatedStore.load(withDocument(store, CONSOLIDATED_KEY, bytes), CONSOLIDATED_KEY);
      names = consolidatedArrayNames(bytes, path);
    } else {
      // zarr-python 3 consolidates a v3 group inline, in its own zarr.json.
      const inline = await inlineConsolidated(store, path, signal);
      if (inline !== undefined) reader = inline;
      else if (options.consolidated === true)
        throw new NodeNotFoundError("consolidated metadata", path, { key: `${keyPrefix(path)}zarr.json` });
    }
  }
  if (options.variables !== undefined) {
    const all = names;
    for (const name of options.variables)
      if (all !== undefined && !all.includes(name))
        throw new DatasetError(`no array ${JSON.stringify(name)} in the group ${JSON.stringify(path)}`, {
          variable: name,
        });
    names = [...new Set(options.variables)].sort();
  }
  const group = await Group.open(reader, path, { readOnly: true, signal });
  const arrays: StoredArray[] = [];
  const entries: [string, ZarrArray][] =
    names === undefined
      ? await group.arrays()
      : await Promise.all(
          names.map(
            async (name) =>
              [name, await ZarrArray.open(reader, joinPath(path, name), { readOnly: true })] as [string, ZarrArray],
          ),
        );
  for (const [name, array] of entries) arrays.push({ name, array, rawAttrs: await array.attrs.asObject() });
  const groupAttrs = await group.attrs.asObject();
  const useMask = options.useZarrFillValueAsMask ?? group.zarrFormat === 2;
  return decodeDataset(arrays, groupAttrs, resolveDecodeOptions(options), useMask, close);
}

/** The store read through the inline consolidated metadata of a v3 group's zarr.json, if it has any. */
async function inlineConsolidated(store: Store, path: string, signal?: AbortSignal): Promise<Store | undefined> {
  const bytes = await store.get(`${keyPrefix(path)}zarr.json`, { signal });
  if (bytes === undefined) return undefined;
  const doc = parseJson(bytes, `${keyPrefix(path)}zarr.json`) as { consolidated_metadata?: unknown } | null;
  if (typeof doc?.consolidated_metadata !== "object" || doc.consolidated_metadata === null) return undefined;
  return (await openConsolidated(store, { path, mode: "r" })).store;
}

/**
 * The store, answering `key` with `bytes` already read (so `.zmetadata` is fetched once, not again
 * by ConsolidatedStore.load); everything else goes to the store itself.
 */
function withDocument(store: Store, key: string, bytes: Uint8Array): Store {
  return new Proxy(store, {
    get(target, property) {
      if (property === "get")
        return (k: string, options?: Parameters<Store["get"]>[1]) =>
          k === key ? Promise.resolve(bytes.slice()) : target.get(k, options);
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The names of the arrays directly in the group at `path`, from a `.zmetadata` document. */
function consolidatedArrayNames(bytes: Uint8Array, path: string): string[] {
  const doc = parseJson(bytes, CONSOLIDATED_KEY);
  const metadata = (doc as { metadata?: unknown } | null)?.metadata;
  if (typeof metadata !== "object" || metadata === null) return [];
  const prefix = keyPrefix(path);
  const names = new Set<string>();
  for (const key of Object.keys(metadata)) {
    if (!key.startsWith(prefix) || !key.endsWith("/.zarray")) continue;
    const name = key.slice(prefix.length, -"/.zarray".length);
    if (name !== "" && !name.includes("/")) names.add(name);
  }
  return [...names].sort();
}

/** The dimension names of an array: a v3 array's `dimension_names`, a v2 one's `_ARRAY_DIMENSIONS`. */
function dimensionsOf(stored: StoredArray): string[] {
  const v3 = metadataV3(stored.array);
  if (v3 !== undefined) return dimensionNamesV3(v3, stored.name, `${keyPrefix(stored.array.path)}zarr.json`);
  const key = `${stored.array.path}/.zattrs`;
  const dims = stored.rawAttrs[DIMENSION_KEY];
  if (dims === undefined)
    throw new DatasetError(
      `${stored.name}: no ${DIMENSION_KEY} attribute, which xarray needs to know the array's dimensions (${key})`,
      { key, variable: stored.name },
    );
  if (!Array.isArray(dims) || !dims.every((d) => typeof d === "string") || dims.length !== stored.array.ndim)
    throw new DatasetError(
      `${stored.name}: ${DIMENSION_KEY} must be a list of ${stored.array.ndim} dimension names, got ${JSON.stringify(dims)} (${key})`,
      { key, variable: stored.name },
    );
  return dims as string[];
}

/** The Zarr fill value as the Python scalar xarray puts in `_FillValue`. */
function fillValueScalar(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    let end = value.length;
    while (end > 0 && value[end - 1] === 0) end--;
    return new ByteString(latin1(value.subarray(0, end)));
  }
  if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "number"))
    return new ComplexValue(value[0] as number, value[1] as number);
  if (value instanceof JsonFloat) return value.value;
  return value;
}

/** A `_FillValue` (or other moved attribute) as JSON for `encoding`/display: bytes as text. */
export function encodingValue(value: unknown): unknown {
  if (value instanceof ByteString) return value.text;
  if (value instanceof ComplexValue) return [value.re, value.im];
  return value;
}

/** xarray's `decode_cf_variables` over the arrays of a group. */
async function decodeDataset(
  arrays: readonly StoredArray[],
  groupAttrs: Record<string, JsonValue>,
  options: ResolvedDecodeOptions,
  useMask: boolean,
  close: (() => Promise<void>) | undefined,
): Promise<Dataset> {
  const stored = arrays.map((a) => {
    const dims = dimensionsOf(a);
    const v3 = metadataV3(a.array);
    const dtype = valuesDtype(a.array.dtype, a.array.path);
    const attrs: Record<string, unknown> = {};
    // A v3 array's attributes are all the user's: its dimension names are in its metadata.
    for (const [k, v] of Object.entries(a.rawAttrs))
      if (v3 !== undefined || (k !== DIMENSION_KEY && !k.startsWith("_NC") && k !== "filters")) attrs[k] = v;
    let encoding: Record<string, unknown>;
    if (v3 === undefined) {
      encoding = {
        chunks: [...a.array.chunks],
        preferred_chunks: Object.fromEntries(dims.map((d, i) => [d, a.array.chunks[i]])),
        compressor: a.array.compressor,
        filters: a.array.filters,
      };
    } else {
      const codecs = codecEncodingV3(v3);
      const chunks = codecs.chunks as number[];
      encoding = { chunks, preferred_chunks: Object.fromEntries(dims.map((d, i) => [d, chunks[i]])), ...codecs };
    }
    if (useMask) {
      if (a.array.fillValue !== null) attrs._FillValue = fillValueScalar(a.array.fillValue);
    } else {
      if (v3 !== undefined) encoding.fill_value = a.array.fillValue;
      if ("_FillValue" in attrs) attrs._FillValue = decodeFillAttribute(attrs._FillValue, dtype, a.name);
    }
    return {
      source: a,
      name: a.name,
      dims,
      shape: a.array.shape,
      dtype,
      storedDtypeName: numpyName(a.array.dtype),
      attrs,
      encoding,
    };
  });
  const byName = new Map(stored.map((s) => [s.name, s]));
  // _update_bounds_attributes: time bounds take their time variable's units and calendar.
  if (options.decodeTimes) {
    for (const s of stored) {
      const units = s.attrs.units;
      const bounds = s.attrs.bounds;
      if (typeof units === "string" && units.includes("since") && typeof bounds === "string" && byName.has(bounds)) {
        const target = byName.get(bounds)!.attrs;
        if (!("units" in target)) target.units = units;
        if ("calendar" in s.attrs && !("calendar" in target)) target.calendar = s.attrs.calendar;
      }
    }
  }
  const usedBy = new Map<string, typeof stored>();
  for (const s of stored) for (const d of s.dims) usedBy.set(d, [...(usedBy.get(d) ?? []), s]);
  const stackable = (dim: string): boolean =>
    !byName.has(dim) &&
    (usedBy.get(dim) ?? []).every((v) => v.dtype.startsWith("|S") && v.dims[v.dims.length - 1] === dim);
  const coordNames = new Set<string>();
  const variables: Variable[] = [];
  for (const s of stored) {
    const stack =
      options.concatCharacters && s.dtype === "|S1" && s.dims.length > 0 && stackable(s.dims[s.dims.length - 1]!);
    const plan = planVariable(s, options, stack);
    const attrs = plan.attrs;
    const encoding = plan.encoding;
    if (options.decodeCoords !== false && typeof attrs.coordinates === "string") {
      const names = attrs.coordinates.split(/\s+/).filter((n) => n !== "");
      if (names.every((n) => byName.has(n))) {
        encoding.coordinates = attrs.coordinates;
        delete attrs.coordinates;
        for (const n of names) coordNames.add(n);
      }
    }
    if (options.decodeCoords === "all") {
      for (const attribute of CF_RELATED_DATA) {
        const value = attrs[attribute];
        if (typeof value !== "string") continue;
        const names = CF_RELATED_DATA_NEEDS_PARSING.has(attribute)
          ? value
              .split(":")
              .flatMap((part) => part.split(/\s+/).filter((n) => n !== ""))
              .filter((_, i) => i % 2 === 1)
          : value.split(/\s+/).filter((n) => n !== "");
        if (names.every((n) => byName.has(n))) {
          encoding[attribute] = value;
          for (const n of names) coordNames.add(n);
        }
        delete attrs[attribute];
      }
    }
    for (const key of Object.keys(encoding)) encoding[key] = encodingValue(encoding[key]);
    if (plan.steps.some((step) => step.name === "datetime"))
      plan.dtype = await sampleDtype(s.source.array, plan, s.name);
    variables.push(
      newVariable({
        name: s.name,
        dims: plan.dims,
        dtype: plan.dtype,
        attrs,
        rawAttrs: s.source.rawAttrs,
        encoding,
        source: { kind: "zarr", array: s.source.array, plan },
      }),
    );
  }
  const attrs: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(groupAttrs)) if (!k.startsWith("_NC")) attrs[k] = v;
  if (options.decodeCoords !== false && typeof attrs.coordinates === "string") {
    for (const n of attrs.coordinates.split(/\s+/).filter((n) => n !== "")) coordNames.add(n);
    delete attrs.coordinates;
  }
  return new Dataset({ variables, coords: coordNames, attrs, rawAttrs: groupAttrs, close });
}

/**
 * `_decode_cf_datetime_dtype`: decodes the first and last value (0 for an empty array) to learn
 * whether the times are datetime64[ns] or cftime dates; a failure is xarray's "unable to decode
 * time units" error, at open.
 */
async function sampleDtype(array: ZarrArray, plan: Plan, name: string): Promise<string> {
  const ndim = array.ndim - (plan.stacked ? 1 : 0);
  const at = (index: number): (number | { kind: "slice"; start: null; stop: null; step: null })[] => [
    ...new Array<number>(ndim).fill(index),
    ...(plan.stacked ? [{ kind: "slice" as const, start: null, stop: null, step: null }] : []),
  ];
  try {
    if (array.size === 0) return plan.dtype;
    const first = heldFromRead(await array.getBasicSelection(at(0) as never), name);
    const last = heldFromRead(await array.getBasicSelection(at(-1) as never), name);
    // Decoded together, as xarray decodes np.concatenate([first, last]).
    const both = { dtype: first.dtype, shape: [2, ...first.shape], data: concatData(first.data, last.data) };
    return runSteps(plan, both).dtype;
  } catch (cause) {
    const units = plan.encoding.units;
    const calendar = plan.encoding.calendar;
    throw new CFError(
      `${name}: unable to decode time units ${JSON.stringify(units)} with ${calendar === undefined ? "the default calendar" : `calendar ${JSON.stringify(calendar)}`}${cause instanceof Error ? `: ${cause.message}` : ""}`,
      { variable: name, attribute: "units", cause },
    );
  }
}

function concatData(a: ValueData, b: ValueData): ValueData {
  if (Array.isArray(a)) return [...a, ...(b as unknown[])];
  const out = new (a.constructor as new (n: number) => Float64Array)(a.length + b.length);
  out.set(a as never);
  out.set(b as never, a.length);
  return out as unknown as ValueData;
}
