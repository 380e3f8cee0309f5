// The viewer page: open a Zarr v2 or v3 array or group by URL (`?url=…&path=…`; `s3://bucket/path` with
// `&endpoint=…&region=…`), list the hierarchy and draw 2-D slices through a colormap. See
// ../README.md for what it can list over plain HTTP and over S3.
import {
  Group,
  ZarrArray,
  open,
  openConsolidated,
  openLocation,
  parseLocation,
  slice,
  type BasicSelectionItem,
} from "@z/core";
import { httpLocations } from "@z/store-http";
import { zipLocations } from "@z/store-zip";
import { CFDatetime, formatTimestamp, openDataset, type Values, type Variable } from "@z/xarray";
import { COLORMAPS, colormapTable, isColormap, type ColormapName } from "./colormaps.js";
import { contrastLimits, drawableDtype, toPlane, toRgba, valuesPlane, type LimitsMode, type Plane } from "./render.js";

type Store = Awaited<ReturnType<typeof openLocation>>["store"];

const isS3 = (url: string): boolean => /^s3:\/\//i.test(url);

const $ = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
};

const ui = {
  form: $<HTMLFormElement>("open-form"),
  url: $<HTMLInputElement>("url"),
  path: $<HTMLInputElement>("path"),
  s3: $("s3-options"),
  endpoint: $<HTMLInputElement>("endpoint"),
  region: $<HTMLInputElement>("region"),
  status: $("status"),
  message: $("message"),
  hierarchy: $("hierarchy"),
  viewer: $("viewer"),
  info: $("info"),
  colormap: $<HTMLSelectElement>("colormap"),
  low: $<HTMLInputElement>("low"),
  high: $<HTMLInputElement>("high"),
  autoPercentile: $<HTMLButtonElement>("auto-percentile"),
  autoMinmax: $<HTMLButtonElement>("auto-minmax"),
  limitsProblem: $("limits-problem"),
  sliders: $("sliders"),
  canvas: $<HTMLCanvasElement>("image"),
  title: $("title"),
  xAxis: $("x-axis"),
  yAxis: $("y-axis"),
  colorbar: $<HTMLCanvasElement>("colorbar-canvas"),
  colorbarLow: $("colorbar-low"),
  colorbarHigh: $("colorbar-high"),
  readout: $("readout"),
};

/** What the page shows: `data-state` on <body> is idle, loading, ready or error (tests wait on it). */
type State = "idle" | "loading" | "ready" | "error";
const setState = (state: State, status = ""): void => {
  document.body.dataset.state = state;
  ui.status.textContent = status;
};

// --- messages ----------------------------------------------------------------------------------

function message(kind: "error" | "note", title: string, detail?: string): void {
  const box = document.createElement("div");
  box.className = kind;
  const strong = document.createElement("strong");
  strong.textContent = title;
  box.append(strong);
  if (detail !== undefined && detail !== "") {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = "details";
    details.append(summary, detail);
    box.append(details);
  }
  ui.message.append(box);
}

const clearMessages = (): void => ui.message.replaceChildren();

interface ErrorLike {
  code?: string;
  status?: number;
  /** `S3StoreError`'s S3 error code (`AccessDenied`, `NoSuchBucket`, ...). */
  s3Code?: string;
  bucket?: string;
  message?: string;
  name?: string;
  codecId?: string;
  /** `UnsupportedExtensionError`'s extension (a v3 codec or data type the viewer has no code for). */
  extension?: string;
}

/** A sentence for a person about why `url` could not be opened or read. */
export function explain(error: unknown, url: string): string {
  const e = (typeof error === "object" && error !== null ? error : { message: String(error) }) as ErrorLike;
  switch (e.code) {
    case "ZARR_NOT_FOUND":
      return `Nothing to open at ${url}: there is no zarr.json, .zarray, .zgroup or .zmetadata there (the server answered "not found"). Check the URL and the path.`;
    case "ZARR_UNKNOWN_CODEC":
      return `This array uses a codec the viewer cannot decode${e.codecId ? ` ("${e.codecId}")` : ""}.`;
    case "ZARR_CODEC":
    case "ZARR_CODEC_CONFIG":
    case "ZARR_CHUNK":
      return "A chunk of this array could not be decoded (unsupported or bad codec settings, or a damaged chunk).";
    case "ZARR_METADATA":
    case "ZARR_DTYPE":
      return "The array or group metadata is not valid Zarr (a v3 zarr.json, or v2's .zarray, .zgroup, .zattrs).";
    case "ZARR_UNSUPPORTED":
      return `This array uses a Zarr extension the viewer cannot read${e.extension ? ` ("${e.extension}")` : ""}.`;
    case "ZARR_LOCATION":
      return "The URL is not one the viewer can open (it takes http://, https:// and s3://bucket/path URLs, also of .zip files and of kerchunk reference sets: .json files and .parq directories).";
    case "ZARR_STORE":
      if (e.s3Code === "AccessDenied" || e.s3Code === "AllAccessDisabled")
        return `The bucket ${e.bucket ?? ""} refused an anonymous read (${e.s3Code}): the viewer reads S3 only without credentials, so the bucket (or the objects under this path) must be public.`;
      if (e.s3Code === "NoSuchBucket")
        return `There is no bucket ${e.bucket ?? ""} at this S3 endpoint. Check the bucket name, the endpoint and the region.`;
      if (e.s3Code !== undefined && e.status !== undefined)
        return `The S3 server answered ${e.status} ${e.s3Code} for a request to ${url}.`;
      if (e.status !== undefined) return `The server answered ${e.status} for a request to ${url}.`;
      if (/network error|failed to fetch|fetch failed/i.test(e.message ?? "")) {
        return isS3(url)
          ? `Could not read from ${url}: the request failed without an answer. Either the S3 endpoint cannot be reached, or the bucket does not allow this page to read it (CORS: its CORS configuration must allow this page's origin, GET and HEAD, and the Range header).`
          : `Could not read from ${url}: the request failed without an answer. Either the server cannot be reached, or it does not allow this page to read it (CORS: it must send Access-Control-Allow-Origin).`;
      }
      return `Reading from ${url} failed.`;
    default:
      return e.message ?? "Something went wrong.";
  }
}

function showError(error: unknown, url: string): void {
  const e = error as ErrorLike;
  message(
    "error",
    explain(error, url),
    `${e.name ?? "Error"}${e.code ? ` [${e.code}]` : ""}: ${e.message ?? String(error)}`,
  );
  setState("error");
  console.error(error);
}

// --- opening -----------------------------------------------------------------------------------

interface Opened {
  url: string;
  /** The S3 endpoint and region it was opened with (s3:// URLs only), `""` for the defaults. */
  s3: S3Settings;
  store: Store;
  root: ZarrArray | Group;
  consolidated: boolean;
  /** Whether the store can list its keys (S3 can, plain HTTP cannot): then groups are listed without .zmetadata. */
  listable: boolean;
}

interface S3Settings {
  endpoint: string;
  region: string;
}

/**
 * The stores `openLocation` may open for `url`: HTTP and zip always; for `s3://` URLs also
 * `@z/store-s3`'s, imported only then (a chunk of its own, so the page's first load does not grow).
 * S3 is read anonymously (public buckets): a page is no place for long-lived keys (README). A
 * custom endpoint (MinIO, R2, Ceph, a CORS-enabled gateway) is addressed path-style, which every
 * S3-compatible server understands; AWS's own endpoints take the bucket in the host name.
 */
async function locationStores(url: string, s3: S3Settings) {
  const stores = { ...httpLocations({ retries: 2 }), ...zipLocations, ...(await referenceStores(url)) };
  if (!isS3(url)) return stores;
  const { s3Locations } = await import("@z/store-s3");
  return {
    ...stores,
    ...s3Locations({
      anonymous: true,
      retries: 2,
      ...(s3.endpoint === "" ? {} : { endpoint: s3.endpoint, forcePathStyle: true }),
      ...(s3.region === "" ? {} : { region: s3.region }),
    }),
  };
}

/**
 * For a kerchunk reference set (`reference://URL`, a `.json` file, a `.parq` directory), the
 * opener of `@z/store-reference`, imported only then (with its Parquet reader, a chunk of its own).
 * Its targets are read through the same openers as the reference file (HTTP, or S3 anonymously).
 */
async function referenceStores(url: string) {
  let reference = false;
  try {
    reference = parseLocation(url).kind === "reference";
  } catch {
    return {}; // openLocation explains what is wrong with the URL
  }
  if (!reference) return {};
  const { referenceLocations } = await import("@z/store-reference");
  return referenceLocations();
}

let opened: Opened | undefined;

/** Opens `url` (through its consolidated metadata when there is some: `.zmetadata`, or inline in a v3 zarr.json) and shows `path` inside it. */
async function load(url: string, path: string, s3: S3Settings): Promise<void> {
  opened = undefined;
  view = undefined;
  clearMessages();
  ui.hierarchy.replaceChildren();
  ui.viewer.hidden = true;
  setState("loading", "opening…");
  try {
    const { store, path: base } = await openLocation(url, await locationStores(url, s3));
    let root: ZarrArray | Group;
    let consolidated = false;
    try {
      root = await openConsolidated(store, { path: base, mode: "r" });
      consolidated = true;
    } catch (error) {
      // No consolidated metadata (not found): open the store itself. A corrupt one: the same, with a note.
      const { code, kind } = error as ErrorLike & { kind?: string };
      const missing = code === "ZARR_NOT_FOUND" && kind === "consolidated metadata";
      if (!missing && code !== "ZARR_METADATA") throw error;
      if (!missing)
        message(
          "note",
          "The .zmetadata here is not valid consolidated metadata; it is ignored.",
          (error as Error).message,
        );
      root = await open(store, { path: base, mode: "r" });
    }
    opened = { url, s3, store, root, consolidated, listable: typeof store.listDir === "function" };
    await showHierarchy(opened);
    if (path === "") {
      if (root instanceof ZarrArray) await showArray(root, "");
      else setState("ready", "");
      return;
    }
    if (!(root instanceof Group))
      throw Object.assign(new Error(`${url} is an array, which has no member "${path}"`), { code: "ZARR_NOT_A_GROUP" });
    await select(path);
  } catch (error) {
    showError(error, url);
  }
}

/** Shows the member at `path` (relative to the opened root). */
async function select(path: string): Promise<void> {
  if (opened === undefined) return;
  const root = opened.root;
  ui.hierarchy
    .querySelectorAll("button")
    .forEach((button) => button.setAttribute("aria-current", String(button.dataset.path === path)));
  clearMessages();
  try {
    setState("loading", "opening…");
    const node = path === "" ? root : root instanceof Group ? await root.getItem(path) : undefined;
    if (node === undefined) throw new Error(`the root is an array: it has no member "${path}"`);
    if (node instanceof Group) {
      ui.viewer.hidden = true;
      message(
        "error",
        `"${path || "/"}" is a group, not an array: choose an array${opened.consolidated || opened.listable ? " in the list" : " by its path"} to draw it.`,
      );
      setState("ready", "");
      return;
    }
    await showArray(node, path);
  } catch (error) {
    showError(error, opened.url);
  }
}

// --- hierarchy ---------------------------------------------------------------------------------

interface ArrayDoc {
  shape?: number[];
  dtype?: unknown;
  chunks?: number[];
  compressor?: { id?: string } | null;
  /** v3 (zarr.json). */
  data_type?: unknown;
  codecs?: unknown[];
}

/** A v3 codec list as text: the names in order, a shard's inner codecs in parentheses. */
function codecNames(codecs: readonly unknown[]): string {
  return codecs
    .map((codec) => {
      const c = (typeof codec === "string" ? { name: codec } : codec) as {
        name?: string;
        configuration?: { codecs?: unknown[] };
      };
      const inner =
        c.name === "sharding_indexed" && Array.isArray(c.configuration?.codecs) ? c.configuration.codecs : undefined;
      return inner === undefined ? String(c.name) : `${c.name}(${codecNames(inner)})`;
    })
    .join(", ");
}

/** What the hierarchy shows of an array: its shape, data type and compression, from its metadata document. */
function arraySummary(doc: ArrayDoc): string {
  if (doc.data_type !== undefined) {
    const type = typeof doc.data_type === "string" ? doc.data_type : (doc.data_type as { name?: string }).name;
    return `${JSON.stringify(doc.shape)} ${type} ${codecNames(doc.codecs ?? [])}`;
  }
  return `${JSON.stringify(doc.shape)} ${typeof doc.dtype === "string" ? doc.dtype : "structured"}${doc.compressor?.id ? ` ${doc.compressor.id}` : ""}`;
}

function itemButton(path: string, label: string, kind: "group" | "array", meta: string): HTMLLIElement {
  const li = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = kind;
  button.dataset.path = path;
  button.textContent = kind === "group" && label !== "/" ? `${label}/` : label;
  button.addEventListener("click", () => {
    ui.path.value = path;
    updateQuery(opened?.url ?? "", path);
    void select(path);
  });
  li.append(button);
  if (meta !== "") {
    const span = document.createElement("span");
    span.className = "meta";
    span.textContent = ` ${meta}`;
    li.append(span);
  }
  return li;
}

/** The members of a group, recursively, from metadata only (no codec is loaded to list an array). */
async function listGroup(group: Group, prefix: string): Promise<HTMLUListElement> {
  const ul = document.createElement("ul");
  const [groups, arrays] = await Promise.all([group.groupKeys(), group.arrayKeys()]);
  const entries = [
    ...groups.map((name) => ({ name, kind: "group" as const })),
    ...arrays.map((name) => ({ name, kind: "array" as const })),
  ];
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, kind } of entries) {
    const path = prefix === "" ? name : `${prefix}/${name}`;
    if (kind === "group") {
      const li = itemButton(path, name, "group", "");
      li.append(await listGroup((await group.getItem(name)) as Group, path));
      ul.append(li);
    } else {
      const key = `${group.path === "" ? "" : `${group.path}/`}${name}/${group.zarrFormat === 3 ? "zarr.json" : ".zarray"}`;
      let meta = "";
      try {
        meta = arraySummary(JSON.parse(new TextDecoder().decode(await group.store.get(key))) as ArrayDoc);
      } catch {
        meta = "(unreadable metadata)";
      }
      ul.append(itemButton(path, name, "array", meta));
    }
  }
  return ul;
}

async function showHierarchy({ root, consolidated, listable }: Opened): Promise<void> {
  const top = document.createElement("ul");
  if (root instanceof ZarrArray) {
    top.append(itemButton("", "/ (array)", "array", `${JSON.stringify(root.shape)} ${dtypeText(root)}`));
  } else if (consolidated) {
    const li = itemButton(
      "",
      "/",
      "group",
      root.zarrFormat === 3 ? "(consolidated in zarr.json)" : "(from .zmetadata)",
    );
    li.append(await listGroup(root, ""));
    top.append(li);
  } else if (listable) {
    // No .zmetadata, but the store lists its keys (S3's ListObjectsV2): a request per group.
    const li = itemButton("", "/", "group", "(listed)");
    li.append(await listGroup(root, ""));
    top.append(li);
  } else {
    top.append(itemButton("", "/", "group", ""));
    message(
      "note",
      "This group has no consolidated metadata (.zmetadata, or in a v3 group's zarr.json), and plain HTTP cannot list directories: its members cannot be listed. Type a member's path (e.g. a/b) in the path box to open it.",
    );
  }
  ui.hierarchy.replaceChildren(top);
}

// --- the array view ------------------------------------------------------------------------------

interface View {
  array: ZarrArray;
  path: string;
  /** The index in each dimension before the last two. */
  indices: number[];
  plane?: Plane;
  /** When the array is a variable of an xarray dataset: it, decoded, and its dimensions' labels. */
  dataset?: DatasetView;
}

interface DatasetView {
  variable: Variable;
  /** For each of the variable's dimensions, its 1-D coordinate's decoded values and units, if any. */
  coords: ({ values: Values; units: string | undefined } | undefined)[];
}

let view: View | undefined;
let generation = 0;
let inFlight: AbortController | undefined;

/** The data type as the array's metadata names it: v3's `data_type`, v2's typestr. */
const dtypeText = (array: ZarrArray): string => {
  const meta = array.metadata;
  if (meta.zarrFormat === 3) return typeof meta.dataType === "string" ? meta.dataType : meta.dataType.name;
  const dtype = array.dtype;
  return dtype.kind === "structured" ? "structured" : `${dtype.byteOrder}${dtype.kind}${dtype.itemsize}`;
};

/** How chunks are compressed: v2's compressor, v3's codecs. */
const codecsText = (array: ZarrArray): string => {
  const meta = array.metadata;
  if (meta.zarrFormat === 3) return `codecs ${codecNames(meta.codecs) || "none"}`;
  return `compressor ${array.compressor?.id ?? "none"}`;
};

/** The array's dimension names, if it has them for xarray: v3's `dimension_names`, else `_ARRAY_DIMENSIONS`. */
async function dimensionNames(array: ZarrArray): Promise<string[] | undefined> {
  const meta = array.metadata;
  const dims = meta.zarrFormat === 3 ? meta.dimensionNames : (await array.attrs.asObject())._ARRAY_DIMENSIONS;
  return Array.isArray(dims) && dims.length === array.ndim && dims.every((d) => typeof d === "string")
    ? (dims as string[])
    : undefined;
}

/**
 * The array as a variable of the xarray dataset of its group, when it has dimension names
 * (`_ARRAY_DIMENSIONS`, or a v3 array's `dimension_names`):
 * decoded (masked, unpacked), with its dimensions' coordinates. Without `.zmetadata` (plain HTTP
 * cannot list the group) only the variable and the coordinates named as its dimensions are read.
 */
async function datasetOf(array: ZarrArray): Promise<DatasetView | undefined> {
  if (opened === undefined) return undefined;
  const dims = await dimensionNames(array);
  if (dims === undefined) return undefined;
  const metaName = array.metadata.zarrFormat === 3 ? "zarr.json" : ".zarray";
  const slash = array.path.lastIndexOf("/");
  const parent = slash === -1 ? "" : array.path.slice(0, slash);
  const name = array.path.slice(slash + 1);
  const prefix = parent === "" ? "" : `${parent}/`;
  try {
    let variables: string[] | undefined;
    if (!opened.consolidated && !opened.listable) {
      variables = [name];
      for (const dim of dims)
        if (dim !== name && (await opened.store.get(`${prefix}${dim}/${metaName}`)) !== undefined) variables.push(dim);
    }
    const ds = await openDataset(opened.store, {
      path: parent,
      consolidated: opened.consolidated ? undefined : false,
      variables,
    });
    const variable = ds.get(name);
    const coords = await Promise.all(
      variable.dims.map(async (dim) => {
        const coord = ds.variables.get(dim);
        if (coord === undefined || coord.ndim !== 1 || coord.dims[0] !== dim) return undefined;
        const units = coord.attrs.units;
        return { values: await coord.values(), units: typeof units === "string" ? units : undefined };
      }),
    );
    return { variable, coords };
  } catch (error) {
    message(
      "note",
      "This array has xarray dimension names, but its group could not be read as a dataset: it is drawn undecoded, without coordinates.",
      (error as Error).message,
    );
    return undefined;
  }
}

/** A coordinate value as a label: times as ISO text, numbers short. */
function coordLabel(coord: DatasetView["coords"][number], index: number): string | undefined {
  if (coord === undefined) return undefined;
  const value = (coord.values.data as ArrayLike<unknown>)[index];
  if (coord.values.dtype === "datetime64[ns]") return formatTimestamp(value as bigint);
  if (value instanceof CFDatetime) return value.toString();
  if (typeof value === "number") return formatNumber(value);
  return String(value);
}

const decodedDrawable = (dtype: string): boolean => /^(u?int\d+|float\d+|bool)$/.test(dtype);

async function showArray(array: ZarrArray, path: string): Promise<void> {
  if (array.ndim === 0) throw new Error(`"${path || "/"}" is a 0-d array (a single value): there is no image to draw`);
  const dataset = await datasetOf(array);
  if (dataset !== undefined && !decodedDrawable(dataset.variable.dtype))
    throw new Error(
      `"${path || "/"}" decodes to ${dataset.variable.dtype} values, which cannot be drawn (only booleans, integers and floats)`,
    );
  if (dataset === undefined && !drawableDtype(array.dtype))
    throw new Error(
      `"${path || "/"}" has dtype ${dtypeText(array)}, which cannot be drawn (only booleans, integers and floats)`,
    );
  const variable = dataset?.variable;
  const shape = variable?.shape ?? array.shape;
  if (shape.length === 0)
    throw new Error(`"${path || "/"}" is a 0-d array (a single value): there is no image to draw`);
  const attrs = variable?.attrs ?? {};
  const longName =
    typeof attrs.long_name === "string"
      ? attrs.long_name
      : typeof attrs.standard_name === "string"
        ? attrs.standard_name
        : undefined;
  const units = typeof attrs.units === "string" ? attrs.units : undefined;
  ui.title.textContent =
    variable === undefined ? "" : `${longName ?? variable.name}${units === undefined ? "" : ` [${units}]`}`;
  ui.info.textContent =
    variable === undefined
      ? `${path || "/"}  shape ${JSON.stringify(shape)}  chunks ${JSON.stringify(array.chunks)}  dtype ${dtypeText(array)}  ${codecsText(array)}`
      : `${path || "/"} (${variable.dims.join(", ")})  shape ${JSON.stringify(shape)}  chunks ${JSON.stringify(array.chunks)}  ${variable.dtype} (stored ${dtypeText(array)})  ${codecsText(array)}`;
  view = { array, path, indices: shape.slice(0, -2).map(() => 0), dataset };
  ui.sliders.replaceChildren(
    ...shape.slice(0, -2).map((size, axis) => {
      const label = document.createElement("label");
      const input = document.createElement("input");
      const text = document.createElement("span");
      input.type = "range";
      input.min = "0";
      input.max = String(size - 1);
      input.value = "0";
      input.dataset.axis = String(axis);
      const dim = variable?.dims[axis];
      input.setAttribute("aria-label", dim === undefined ? `index along axis ${axis}` : `index along ${dim}`);
      const describe = (): void => {
        if (dim === undefined) {
          text.textContent = `axis ${axis}: ${input.value} / ${size - 1}`;
          return;
        }
        const value = coordLabel(dataset!.coords[axis], Number(input.value));
        const coordUnits = dataset!.coords[axis]?.units;
        text.textContent = `${dim}: ${value === undefined ? "" : `${value}${coordUnits !== undefined && !/since/.test(coordUnits) ? ` ${coordUnits}` : ""} `}(${input.value} / ${size - 1})`;
      };
      describe();
      input.addEventListener("input", () => {
        describe();
        if (view === undefined) return;
        view.indices[axis] = Number(input.value);
        void drawSlice(false);
      });
      label.append(input, text);
      return label;
    }),
  );
  showAxes(dataset, shape);
  ui.viewer.hidden = false;
  await drawSlice(true);
}

/** The image's axes labelled with the last two dimensions' names, units and first and last coordinates. */
function showAxes(dataset: DatasetView | undefined, shape: readonly number[]): void {
  ui.xAxis.replaceChildren();
  ui.yAxis.replaceChildren();
  if (dataset === undefined) return;
  const { variable, coords } = dataset;
  const span = (text: string, className = ""): HTMLSpanElement => {
    const element = document.createElement("span");
    element.textContent = text;
    if (className !== "") element.className = className;
    return element;
  };
  const axis = (d: number): { name: string; first: string; last: string } => {
    const coord = coords[d];
    const n = shape[d]!;
    const units = coord?.units !== undefined && !/since/.test(coord.units) ? ` (${coord.units})` : "";
    return {
      name: `${variable.dims[d]}${units}`,
      first: coordLabel(coord, 0) ?? "0",
      last: coordLabel(coord, n - 1) ?? String(n - 1),
    };
  };
  const x = axis(shape.length - 1);
  ui.xAxis.append(span(x.first, "first"), span(x.name, "name"), span(x.last, "last"));
  if (shape.length >= 2) {
    const y = axis(shape.length - 2);
    ui.yAxis.append(span(y.first, "first"), span(y.name, "name"), span(y.last, "last"));
  }
}

/** Reads the shown slice with one `get` (only the chunks it touches) and draws it. */
async function drawSlice(resetLimits: boolean): Promise<void> {
  const current = view;
  if (current === undefined) return;
  const mine = ++generation;
  inFlight?.abort();
  const controller = (inFlight = new AbortController());
  setState("loading", "reading…");
  try {
    if (current.dataset !== undefined) {
      const { variable } = current.dataset;
      const indexers = Object.fromEntries(current.indices.map((index, axis) => [variable.dims[axis]!, index]));
      const values = await variable.isel(indexers).values({ signal: controller.signal });
      if (mine !== generation) return;
      current.plane = valuesPlane(values as { data: ArrayLike<unknown>; shape: readonly number[] });
    } else {
      const last: BasicSelectionItem[] = current.array.ndim === 1 ? [slice(null)] : [slice(null), slice(null)];
      const result = await current.array.get([...current.indices, ...last], { signal: controller.signal });
      if (mine !== generation) return;
      current.plane = toPlane(result);
    }
    if (resetLimits) setLimits(current.plane, "percentile");
    paint();
    ui.canvas.dataset.slice = current.indices.join(",");
    setState("ready", "");
  } catch (error) {
    if (mine === generation) showError(error, opened?.url ?? "");
  }
}

const formatNumber = (value: number): string =>
  Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(7)));

function setLimits(plane: Plane, mode: LimitsMode): void {
  const [low, high] = contrastLimits(plane, mode);
  ui.low.value = formatNumber(low);
  ui.high.value = formatNumber(high);
}

/** Draws the current plane with the colormap and contrast limits in the controls. */
function paint(): void {
  const plane = view?.plane;
  if (plane === undefined) return;
  const low = ui.low.valueAsNumber;
  const high = ui.high.valueAsNumber;
  if (!Number.isFinite(low) || !Number.isFinite(high) || low === high) {
    ui.limitsProblem.textContent = "min and max must be two different numbers";
    return;
  }
  ui.limitsProblem.textContent = "";
  const colormap = selectedColormap();
  const { width, height } = plane;
  if (ui.canvas.width !== width || ui.canvas.height !== height) {
    ui.canvas.width = width;
    ui.canvas.height = height;
  }
  ui.canvas.getContext("2d")!.putImageData(new ImageData(toRgba(plane, low, high, colormap), width, height), 0, 0);
  // Small images are magnified by whole pixels, big ones shrunk to fit.
  const fit = 640 / Math.max(width, height);
  const zoom = fit >= 1 ? Math.min(16, Math.floor(fit)) : fit;
  ui.canvas.style.width = `${width * zoom}px`;
  ui.canvas.style.height = `${height * zoom}px`;
  // The axes span the image: their first and last labels sit at its edges.
  ui.xAxis.style.width = `${width * zoom}px`;
  ui.yAxis.style.height = `${height * zoom}px`;
  paintColorbar(colormap, low, high);
}

function paintColorbar(colormap: ColormapName, low: number, high: number): void {
  const table = colormapTable(colormap);
  const pixels = new Uint8ClampedArray(256 * 4);
  for (let i = 0; i < 256; i++) pixels.set([table[i * 3]!, table[i * 3 + 1]!, table[i * 3 + 2]!, 255], i * 4);
  ui.colorbar.getContext("2d")!.putImageData(new ImageData(pixels, 256, 1), 0, 0);
  ui.colorbarLow.textContent = formatNumber(low);
  ui.colorbarHigh.textContent = formatNumber(high);
}

const selectedColormap = (): ColormapName => (isColormap(ui.colormap.value) ? ui.colormap.value : "viridis");

function readout(event: MouseEvent): void {
  const plane = view?.plane;
  if (plane === undefined || view === undefined) return;
  const rect = ui.canvas.getBoundingClientRect();
  const x = Math.floor(((event.clientX - rect.left) / rect.width) * plane.width);
  const y = Math.floor(((event.clientY - rect.top) / rect.height) * plane.height);
  if (x < 0 || y < 0 || x >= plane.width || y >= plane.height) return;
  const ndim = view.dataset?.variable.ndim ?? view.array.ndim;
  const index = ndim === 1 ? [x] : [...view.indices, y, x];
  const value = plane.values[y * plane.width + x];
  const dataset = view.dataset;
  if (dataset === undefined) {
    ui.readout.textContent = `[${index.join(", ")}] = ${value}`;
    return;
  }
  const where = index.map((i, d) => `${dataset.variable.dims[d]}=${coordLabel(dataset.coords[d], i) ?? i}`);
  const units = dataset.variable.attrs.units;
  const shown = value === undefined || Number.isNaN(value) ? "NaN (missing)" : formatNumber(value);
  ui.readout.textContent = `${where.join(", ")}: ${shown}${typeof units === "string" ? ` ${units}` : ""}`;
}

// --- wiring --------------------------------------------------------------------------------------

/** The S3 fields of the form (used for s3:// URLs only). */
const s3Settings = (): S3Settings => ({ endpoint: ui.endpoint.value.trim(), region: ui.region.value.trim() });

/** The S3 fields are shown while the URL is an s3:// one (or when they hold something). */
const showS3Fields = (): void => {
  ui.s3.hidden = !isS3(ui.url.value.trim()) && ui.endpoint.value === "" && ui.region.value === "";
};

function updateQuery(url: string, path: string): void {
  const query = new URLSearchParams();
  if (url !== "") query.set("url", url);
  if (path !== "") query.set("path", path);
  if (isS3(url)) {
    const { endpoint, region } = s3Settings();
    if (endpoint !== "") query.set("endpoint", endpoint);
    if (region !== "") query.set("region", region);
  }
  const cmap = selectedColormap();
  if (cmap !== "viridis") query.set("cmap", cmap);
  history.replaceState(null, "", `?${query}`);
}

function start(): void {
  for (const name of COLORMAPS) ui.colormap.append(new Option(name, name));
  const query = new URLSearchParams(location.search);
  const cmap = query.get("cmap") ?? "viridis";
  ui.colormap.value = isColormap(cmap) ? cmap : "viridis";
  ui.colormap.addEventListener("change", () => {
    updateQuery(opened?.url ?? ui.url.value, ui.path.value.trim());
    paint();
  });
  ui.low.addEventListener("input", paint);
  ui.high.addEventListener("input", paint);
  ui.autoPercentile.addEventListener("click", () => view?.plane && (setLimits(view.plane, "percentile"), paint()));
  ui.autoMinmax.addEventListener("click", () => view?.plane && (setLimits(view.plane, "minmax"), paint()));
  ui.canvas.addEventListener("mousemove", readout);
  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const url = ui.url.value.trim();
    const path = ui.path.value.trim().replace(/^\/+|\/+$/g, "");
    updateQuery(url, path);
    const s3 = s3Settings();
    // The same URL (and S3 endpoint and region) again: only the member changes.
    const same =
      opened !== undefined &&
      opened.url === url &&
      (!isS3(url) || (opened.s3.endpoint === s3.endpoint && opened.s3.region === s3.region));
    if (same) void select(path);
    else void load(url, path, s3);
  });
  ui.url.addEventListener("input", showS3Fields);
  const url = query.get("url");
  const path = query.get("path") ?? "";
  ui.endpoint.value = query.get("endpoint") ?? "";
  ui.region.value = query.get("region") ?? "";
  if (url !== null && url !== "") {
    ui.url.value = url;
    ui.path.value = path;
  }
  showS3Fields();
  if (url !== null && url !== "") void load(url, path, s3Settings());
}

start();
