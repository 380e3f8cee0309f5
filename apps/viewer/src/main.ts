// The viewer page: open a Zarr v2 array or group by URL (`?url=…&path=…`), list the hierarchy and
// draw 2-D slices through a colormap. See ../README.md for what it can list over plain HTTP.
import { Group, ZarrArray, open, openConsolidated, openLocation, slice, type BasicSelectionItem } from "@z/core";
import { httpLocations } from "@z/store-http";
import { zipLocations } from "@z/store-zip";
import { COLORMAPS, colormapTable, isColormap, type ColormapName } from "./colormaps.js";
import { contrastLimits, drawableDtype, toPlane, toRgba, type LimitsMode, type Plane } from "./render.js";

type Store = Awaited<ReturnType<typeof openLocation>>["store"];

const $ = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
};

const ui = {
  form: $<HTMLFormElement>("open-form"),
  url: $<HTMLInputElement>("url"),
  path: $<HTMLInputElement>("path"),
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
  message?: string;
  name?: string;
  codecId?: string;
}

/** A sentence for a person about why `url` could not be opened or read. */
export function explain(error: unknown, url: string): string {
  const e = (typeof error === "object" && error !== null ? error : { message: String(error) }) as ErrorLike;
  switch (e.code) {
    case "ZARR_NOT_FOUND":
      return `Nothing to open at ${url}: there is no .zarray, .zgroup or .zmetadata there (the server answered "not found"). Check the URL and the path.`;
    case "ZARR_UNKNOWN_CODEC":
      return `This array uses a codec the viewer cannot decode${e.codecId ? ` ("${e.codecId}")` : ""}.`;
    case "ZARR_CODEC":
    case "ZARR_CODEC_CONFIG":
    case "ZARR_CHUNK":
      return "A chunk of this array could not be decoded (unsupported or bad codec settings, or a damaged chunk).";
    case "ZARR_METADATA":
    case "ZARR_DTYPE":
      return "The array or group metadata is not valid Zarr v2.";
    case "ZARR_LOCATION":
      return "The URL is not one the viewer can open (it takes http:// or https:// URLs, also of .zip files).";
    case "ZARR_STORE":
      if (e.status !== undefined) return `The server answered ${e.status} for a request to ${url}.`;
      if (/network error|failed to fetch|fetch failed/i.test(e.message ?? "")) {
        return `Could not read from ${url}: the request failed without an answer. Either the server cannot be reached, or it does not allow this page to read it (CORS: it must send Access-Control-Allow-Origin).`;
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
  store: Store;
  root: ZarrArray | Group;
  consolidated: boolean;
}

let opened: Opened | undefined;

/** Opens `url` (through its `.zmetadata` when there is one) and shows `path` inside it. */
async function load(url: string, path: string): Promise<void> {
  opened = undefined;
  view = undefined;
  clearMessages();
  ui.hierarchy.replaceChildren();
  ui.viewer.hidden = true;
  setState("loading", "opening…");
  try {
    const { store, path: base } = await openLocation(url, { ...httpLocations({ retries: 2 }), ...zipLocations });
    let root: ZarrArray | Group;
    let consolidated = false;
    try {
      root = await openConsolidated(store, { path: base, mode: "r" });
      consolidated = true;
    } catch (error) {
      // No .zmetadata (not found): open the store itself. A corrupt one: the same, with a note.
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
    opened = { url, store, root, consolidated };
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
        `"${path || "/"}" is a group, not an array: choose an array${opened.consolidated ? " in the list" : " by its path"} to draw it.`,
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
      const key = `${group.path === "" ? "" : `${group.path}/`}${name}/.zarray`;
      let meta = "";
      try {
        const doc = JSON.parse(new TextDecoder().decode(await group.store.get(key))) as ArrayDoc;
        meta = `${JSON.stringify(doc.shape)} ${typeof doc.dtype === "string" ? doc.dtype : "structured"}${doc.compressor?.id ? ` ${doc.compressor.id}` : ""}`;
      } catch {
        meta = "(unreadable metadata)";
      }
      ul.append(itemButton(path, name, "array", meta));
    }
  }
  return ul;
}

async function showHierarchy({ root, consolidated }: Opened): Promise<void> {
  const top = document.createElement("ul");
  if (root instanceof ZarrArray) {
    top.append(itemButton("", "/ (array)", "array", `${JSON.stringify(root.shape)} ${dtypeText(root)}`));
  } else if (consolidated) {
    const li = itemButton("", "/", "group", "(from .zmetadata)");
    li.append(await listGroup(root, ""));
    top.append(li);
  } else {
    top.append(itemButton("", "/", "group", ""));
    message(
      "note",
      "This group has no consolidated metadata (.zmetadata), and plain HTTP cannot list directories: its members cannot be listed. Type a member's path (e.g. a/b) in the path box to open it.",
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
}

let view: View | undefined;
let generation = 0;
let inFlight: AbortController | undefined;

const dtypeText = (array: ZarrArray): string => {
  const dtype = array.dtype;
  return dtype.kind === "structured" ? "structured" : `${dtype.byteOrder}${dtype.kind}${dtype.itemsize}`;
};

async function showArray(array: ZarrArray, path: string): Promise<void> {
  if (array.ndim === 0) throw new Error(`"${path || "/"}" is a 0-d array (a single value): there is no image to draw`);
  if (!drawableDtype(array.dtype))
    throw new Error(
      `"${path || "/"}" has dtype ${dtypeText(array)}, which cannot be drawn (only booleans, integers and floats)`,
    );
  const shape = array.shape;
  ui.info.textContent = `${path || "/"}  shape ${JSON.stringify(shape)}  chunks ${JSON.stringify(array.chunks)}  dtype ${dtypeText(array)}  compressor ${array.compressor?.id ?? "none"}`;
  view = { array, path, indices: shape.slice(0, -2).map(() => 0) };
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
      input.setAttribute("aria-label", `index along axis ${axis}`);
      const describe = (): void => void (text.textContent = `axis ${axis}: ${input.value} / ${size - 1}`);
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
  ui.viewer.hidden = false;
  await drawSlice(true);
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
    const last: BasicSelectionItem[] = current.array.ndim === 1 ? [slice(null)] : [slice(null), slice(null)];
    const result = await current.array.get([...current.indices, ...last], { signal: controller.signal });
    if (mine !== generation) return;
    current.plane = toPlane(result);
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
  const index = view.array.ndim === 1 ? [x] : [...view.indices, y, x];
  ui.readout.textContent = `[${index.join(", ")}] = ${plane.values[y * plane.width + x]}`;
}

// --- wiring --------------------------------------------------------------------------------------

function updateQuery(url: string, path: string): void {
  const query = new URLSearchParams();
  if (url !== "") query.set("url", url);
  if (path !== "") query.set("path", path);
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
    // The same URL again: only the member changes.
    if (opened !== undefined && opened.url === url) void select(path);
    else void load(url, path);
  });
  const url = query.get("url");
  const path = query.get("path") ?? "";
  if (url !== null && url !== "") {
    ui.url.value = url;
    ui.path.value = path;
    void load(url, path);
  }
}

start();
