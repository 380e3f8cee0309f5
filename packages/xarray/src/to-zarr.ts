import { consolidateMetadata, create, openGroup, type RunOptions, ZarrArray } from "@z/core";
import { joinPath, normalizeStoragePath, type JsonValue, type Store } from "@z/meta";
import { encodeDtype } from "./cf/cast.js";
import type { Encoding } from "./cf/encoding.js";
import { defaultFillValue, encodeMask, encodeUnsigned } from "./cf/mask.js";
import { encodeScaleOffset } from "./cf/scale.js";
import { encodeBools, encodeStrings, utf32Data } from "./cf/strings.js";
import { encodeDatetimes, encodeTimedeltas } from "./cf/times.js";
import { CFDatetime } from "./cf/cftime.js";
import { openDataset, type Dataset, DIMENSION_KEY } from "./dataset.js";
import { kindOf, itemsizeOf } from "./dtype.js";
import { DatasetError } from "./errors.js";
import { ByteString, type Held, latin1Bytes } from "./values.js";
import type { Variable } from "./variable.js";
import { encodeFillAttribute } from "./zarr-v3.js";
import { CF_RELATED_DATA } from "./cf/related.js";

export interface ToZarrOptions extends Pick<RunOptions, "signal" | "concurrency"> {
  /**
   * `"w-"` (default) creates the group and fails if something is there; `"w"` replaces whatever
   * is there; `"a"` adds variables to an existing group and overwrites existing ones in place, with
   * their stored encoding (their dimensions and shape must match).
   */
  mode?: "w-" | "w" | "a";
  /** Write `.zmetadata` at the store's root afterwards, as xarray does by default (default true). */
  consolidated?: boolean;
  /** The group inside the store (default: the root). */
  path?: string;
  /** Per-variable encoding, over each variable's own (xarray's `encoding=`). */
  encoding?: Readonly<Record<string, Record<string, unknown>>>;
  /**
   * The Zarr format of a new group and its arrays (xarray's `zarr_format`; default 2). Format 3
   * writes as xarray on zarr-python 3 does: dimension names in each array's `dimension_names`,
   * floats with a NaN `fill_value` and their `_FillValue` attribute base64-encoded, booleans as
   * `bool`, encodings `chunks`, `shards`, `filters`, `serializer`, `compressors`, `fill_value`,
   * and the metadata consolidated inline in the root group's `zarr.json`.
   */
  zarrFormat?: 2 | 3;
}

/**
 * Writes a dataset into a Zarr group as xarray's `Dataset.to_zarr` does, so that
 * `xr.open_zarr` reads the same values, dimensions, coordinates and attributes: each variable an
 * array with `_ARRAY_DIMENSIONS` (with `zarrFormat: 3`, its `dimension_names`); CF-encoded by its `encoding` (times as counts with `units` and
 * `calendar`, inferred as xarray infers them when not given; `_FillValue` as the Zarr fill value;
 * packing with `scale_factor`/`add_offset`; `dtype`; `chunks`, `compressor`, `filters`); booleans as
 * int8, strings as `<U`, vlen UTF-8 or `|S`; non-dimension coordinates named in `coordinates`.
 * Values are read from their source (a dataset opened from a store is copied).
 */
export async function toZarr(dataset: Dataset, store: Store, options: ToZarrOptions = {}): Promise<void> {
  const mode = options.mode ?? "w-";
  if (mode !== "w-" && mode !== "w" && mode !== "a")
    throw new DatasetError(`toZarr: mode must be "w-", "w" or "a", got ${JSON.stringify(mode)}`);
  const path = normalizeStoragePath(options.path);
  const existing = mode === "a" ? await existingVariables(store, path) : new Map<string, Variable>();
  const group = await openGroup(store, {
    mode,
    path,
    signal: options.signal,
    ...(options.zarrFormat === undefined ? {} : { zarrFormat: options.zarrFormat }),
  });
  const v3 = group.zarrFormat === 3;
  const { perVariable, global } = coordinatesAttributes(dataset);
  for (const variable of dataset.variables.values()) {
    const stored = existing.get(variable.name);
    const encoding =
      stored !== undefined
        ? { ...stored.encoding }
        : { ...variable.encoding, ...(options.encoding?.[variable.name] ?? {}) };
    const state: Encoding = {
      name: variable.name,
      held: held(await variable.values({ signal: options.signal })),
      attrs: { ...variable.attrs },
      encoding,
    };
    encodeVariable(state, v3);
    const coordinates = perVariable.get(variable.name);
    if (state.encoding.coordinates !== undefined) {
      state.attrs.coordinates = state.encoding.coordinates;
      delete state.encoding.coordinates;
    } else if (coordinates !== undefined && !("coordinates" in state.attrs)) state.attrs.coordinates = coordinates;
    if (stored !== undefined) await overwrite(store, stored, variable, state, options);
    else if (v3) await writeArrayV3(store, joinPath(path, variable.name), variable, state, options);
    else await writeArray(store, joinPath(path, variable.name), variable, state, options);
  }
  const attrs: Record<string, JsonValue> = { ...dataset.attrs };
  if (global.length > 0 && !("coordinates" in attrs)) attrs.coordinates = global.join(" ");
  await group.attrs.put(attrs);
  if (options.consolidated ?? true) await consolidateMetadata(store);
}

/** Values as the encoders take them (bytes of `|S` strings back to raw bytes). */
function held(values: Awaited<ReturnType<Variable["values"]>>): Held {
  const shape = [...values.shape];
  if (values.dtype.startsWith("|S")) {
    const width = itemsizeOf(values.dtype);
    const data = new Uint8Array((values.data as string[]).length * width);
    (values.data as string[]).forEach((s, i) => data.set(latin1Bytes(s)!.subarray(0, width), i * width));
    return { dtype: values.dtype, shape, data };
  }
  return { dtype: values.dtype, shape, data: values.data };
}

/**
 * xarray's encoders in its order (encode_cf_variable, then the zarr backend's string handling).
 * For v3, as xarray now encodes for Zarr (its ZARR_CODERS): booleans are not cast to int8.
 */
function encodeVariable(state: Encoding, v3: boolean): void {
  const { held: values } = state;
  const isCftime =
    values.dtype === "object" &&
    (values.data as unknown[]).some((v) => v instanceof CFDatetime) &&
    (values.data as unknown[]).every((v) => v === null || v instanceof CFDatetime);
  if (values.dtype === "datetime64[ns]" || isCftime) encodeDatetimes(state);
  else if (values.dtype === "timedelta64[ns]") encodeTimedeltas(state);
  encodeScaleOffset(state);
  encodeMask(state);
  encodeUnsigned(state);
  encodeDtype(state);
  defaultFillValue(state);
  if (!v3) encodeBools(state);
  encodeStrings(state);
  for (const key of CF_RELATED_DATA) {
    if (key in state.encoding) {
      state.attrs[key] = state.encoding[key];
      delete state.encoding[key];
    }
  }
}

/**
 * `encode_dataset_coordinates`: each non-dimension coordinate is named in the `coordinates` of the
 * data variables whose dimensions include its own; those no variable names go in the dataset's.
 */
function coordinatesAttributes(dataset: Dataset): { perVariable: Map<string, string>; global: string[] } {
  const dims = new Set(dataset.dims);
  const nonDim = dataset.coords.filter((name) => !dims.has(name) && !name.includes(" "));
  const perVariable = new Map<string, string>();
  const written = new Set<string>();
  for (const variable of dataset.variables.values()) {
    if (nonDim.includes(variable.name) || variable.dims.includes(variable.name)) continue;
    const names = nonDim.filter((c) => dataset.get(c).dims.every((d) => variable.dims.includes(d)));
    if (names.length > 0) {
      perVariable.set(variable.name, names.join(" "));
      for (const n of names) written.add(n);
    }
  }
  return { perVariable, global: nonDim.filter((n) => !written.has(n)) };
}

/** The zarr-python dtype of encoded values. */
function zarrDtype(dtype: string, byteOrder: ">" | undefined): string {
  switch (kindOf(dtype)) {
    case "U":
    case "S":
      return dtype;
    case "O":
      return "|O";
    case "b":
      return "|b1";
    default: {
      const size = itemsizeOf(dtype);
      const kind = kindOf(dtype);
      return `${size === 1 ? "|" : (byteOrder ?? "<")}${kind}${size}`;
    }
  }
}

/** Encoded values as core's `set` takes them. */
function writeData(state: Encoding): unknown {
  const { held: values } = state;
  const kind = kindOf(values.dtype);
  if (kind === "U")
    return { data: utf32Data(values.data as string[], itemsizeOf(values.dtype) / 4).data, shape: values.shape };
  return { data: values.data, shape: values.shape };
}

/** The Zarr fill value of an attribute `_FillValue`, in the form core takes. */
function zarrFill(fill: unknown, dtype: string): unknown {
  if (fill === undefined || fill === null) return null;
  if (kindOf(dtype) === "S") return fill instanceof ByteString ? latin1Bytes(fill.text) : latin1Bytes(String(fill));
  return fill;
}

async function writeArray(
  store: Store,
  path: string,
  variable: Variable,
  state: Encoding,
  options: ToZarrOptions,
): Promise<void> {
  const { held: values, encoding } = state;
  const fill = state.attrs._FillValue;
  delete state.attrs._FillValue;
  const attributes: Record<string, JsonValue> = { [DIMENSION_KEY]: [...variable.dims] };
  for (const [k, v] of Object.entries(state.attrs)) attributes[k] = v as JsonValue;
  let chunks: unknown = encoding.chunks;
  if (typeof chunks === "number") chunks = variable.dims.map(() => chunks);
  if (Array.isArray(chunks) && chunks.length !== values.shape.length)
    throw new DatasetError(
      `${variable.name}: encoding chunks ${JSON.stringify(chunks)} for ${values.shape.length} dimensions`,
      {
        variable: variable.name,
      },
    );
  const dtype = zarrDtype(values.dtype, state.byteOrder);
  const filters = (encoding.filters ?? null) as never;
  const objectFilters = dtype === "|O" && filters === null ? { objectCodec: { id: "vlen-utf8" } } : {};
  const array = await create({
    store,
    path,
    shape: values.shape,
    chunks: (chunks ?? true) as never,
    dtype,
    fillValue: zarrFill(fill, values.dtype),
    ...(encoding.compressor !== undefined ? { compressor: encoding.compressor as never } : {}),
    filters,
    ...objectFilters,
    attributes,
    overwrite: options.mode === "w" || options.mode === "a",
    signal: options.signal,
  });
  await array.set("...", writeData(state) as never, { signal: options.signal, concurrency: options.concurrency });
}

/**
 * A v2 object codec (`vlen-utf8`, ...): in v3 the array -> bytes codec (the serializer) encodes
 * variable-length values, so a dataset read from v2 does not carry it over as a filter.
 */
const isObjectCodec = (codec: unknown): boolean =>
  typeof codec === "object" &&
  codec !== null &&
  ["vlen-utf8", "vlen-bytes", "vlen-array", "json2", "msgpack2", "pickle"].includes(
    String((codec as { id?: unknown }).id),
  );

/** zarr-python 3's `data_type` for encoded values: object arrays hold strings there. */
const zarrDtypeV3 = (dtype: string, byteOrder: ">" | undefined): string =>
  kindOf(dtype) === "O" ? "string" : zarrDtype(dtype, byteOrder);

/**
 * A new v3 array, as xarray's `set_variables` and `_create_new_array` make it on zarr-python 3:
 * `dimension_names` for the dimensions, the `fill_value` from `encoding.fill_value` (NaN for floats
 * without one), `_FillValue` kept as an attribute in FillValueCoder's form, and the encoding's
 * `chunks`, `shards`, `filters`, `serializer`, `compressors`.
 */
async function writeArrayV3(
  store: Store,
  path: string,
  variable: Variable,
  state: Encoding,
  options: ToZarrOptions,
): Promise<void> {
  const { held: values, encoding } = state;
  const attributes: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(state.attrs)) {
    if (k === "_FillValue") {
      if (v !== null && v !== undefined) attributes[k] = encodeFillAttribute(v, values.dtype, variable.name);
    } else attributes[k] = v as JsonValue;
  }
  let fill = encoding.fill_value;
  if ((fill === undefined || fill === null) && kindOf(values.dtype) === "f") fill = NaN;
  let chunks: unknown = encoding.chunks;
  if (typeof chunks === "number") chunks = variable.dims.map(() => chunks);
  if (Array.isArray(chunks) && chunks.length !== values.shape.length)
    throw new DatasetError(
      `${variable.name}: encoding chunks ${JSON.stringify(chunks)} for ${values.shape.length} dimensions`,
      { variable: variable.name },
    );
  const array = await create({
    zarrFormat: 3,
    store,
    path,
    shape: values.shape,
    chunks: (chunks ?? true) as never,
    ...(encoding.shards === undefined || encoding.shards === null ? {} : { shards: encoding.shards as number[] }),
    dtype: zarrDtypeV3(values.dtype, state.byteOrder),
    fillValue: zarrFill(fill, values.dtype),
    // Codecs as zarr.json writes them, or v2 configs (a dataset read from v2), which become numcodecs.*.
    ...(encoding.filters === undefined || encoding.filters === null
      ? {}
      : { filters: (encoding.filters as unknown[]).filter((f) => !isObjectCodec(f)) as never }),
    ...(encoding.serializer === undefined || encoding.serializer === null
      ? {}
      : { serializer: encoding.serializer as never }),
    ...(encoding.compressors === undefined ? {} : { compressors: encoding.compressors as never }),
    dimensionNames: [...variable.dims],
    attributes,
    overwrite: options.mode === "w" || options.mode === "a",
    signal: options.signal,
  });
  await array.set("...", writeData(state) as never, { signal: options.signal, concurrency: options.concurrency });
}

/** Mode "a": the variables already in the group, with the encoding they were stored with. */
async function existingVariables(store: Store, path: string): Promise<Map<string, Variable>> {
  try {
    const ds = await openDataset(store, { path, consolidated: false });
    return new Map(ds.variables);
  } catch (error) {
    if ((error as { code?: string }).code === "ZARR_NOT_FOUND") return new Map();
    throw error;
  }
}

/** Mode "a" for a variable already stored: the new values written into its array. */
async function overwrite(
  store: Store,
  stored: Variable,
  variable: Variable,
  state: Encoding,
  options: ToZarrOptions,
): Promise<void> {
  if (stored.dims.join() !== variable.dims.join() || stored.shape.join() !== variable.shape.join())
    throw new DatasetError(
      `${variable.name}: already stored with dimensions (${stored.dims.join(", ")}) of shape [${stored.shape.join(", ")}], not (${variable.dims.join(", ")}) of [${variable.shape.join(", ")}]`,
      { variable: variable.name },
    );
  const array = await ZarrArray.open(store, stored.array!.path);
  await array.set("...", writeData(state) as never, { signal: options.signal, concurrency: options.concurrency });
}
