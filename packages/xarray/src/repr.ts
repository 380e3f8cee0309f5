// xarray's Dataset repr (xarray/core/formatting.py, display_width 80 and display_max_rows 12): a
// summary of dimensions, coordinates (index coordinates with their values, as xarray holds them
// in memory), data variables and attributes, as `print(xr.open_dataset(path, engine="zarr"))`.
import { formatPythonFloat, pythonBytesRepr, pythonStrRepr } from "@z/meta";
import { CFDatetime } from "./cf/cftime.js";
import { NAT, timestampText } from "./cf/times.js";
import type { Dataset } from "./dataset.js";
import { kindOf } from "./dtype.js";
import type { Values } from "./values.js";
import type { Variable } from "./variable.js";

const DISPLAY_WIDTH = 80;
const MAX_ROWS = 12;

/** `pretty_print`: `text` cut to `width` (ending in "...") or padded to it. */
function prettyPrint(text: string, width: number): string {
  const s = text.length > width ? `${text.slice(0, width - 3)}...` : text;
  return s + " ".repeat(Math.max(width - s.length, 0));
}

function maybeTruncate(text: string, width = 500): string {
  return text.length > width ? `${text.slice(0, width - 3)}...` : text;
}

/** Python's `repr(bytes)` of bytes held as Latin-1 text. */
const bytesRepr = (text: string): string => pythonBytesRepr(Uint8Array.from(text, (char) => char.charCodeAt(0)));

/** The exact decimal digits and exponent of a positive finite double: value = 0.d1d2... x 10^point. */
function exactDecimal(x: number): { digits: string; point: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exp2 = biased === 0 ? -1074 : biased - 1075;
  // mantissa * 2^exp2 = mantissa * 5^-exp2 / 10^-exp2
  let digits: string;
  let scale: number;
  if (exp2 >= 0) {
    digits = (mantissa << BigInt(exp2)).toString();
    scale = 0;
  } else {
    digits = (mantissa * 5n ** BigInt(-exp2)).toString();
    scale = -exp2;
  }
  return { digits, point: digits.length - scale };
}

/** Python's `format(x, ".4")`: 4 significant digits (ties to even), `g`-like, "x.0" kept. */
export function formatG4(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const { digits, point } = exactDecimal(Math.abs(x));
  let kept = digits.slice(0, 4).padEnd(4, "0");
  const rest = digits.slice(4);
  let exponent = point - 1;
  const half =
    rest.length > 0 &&
    (rest[0]! > "5" || (rest[0] === "5" && (/[1-9]/.test(rest.slice(1)) || Number(kept[3]) % 2 === 1)));
  if (half) {
    const bumped = String(Number(kept) + 1);
    if (bumped.length > 4) {
      kept = bumped.slice(0, 4);
      exponent += 1;
    } else kept = bumped;
  }
  // Fixed notation only while it keeps a digit after the point (Python switches at 10^(p-1)).
  if (exponent >= -4 && exponent < 3) {
    const whole = exponent >= 0 ? kept.slice(0, exponent + 1) : "0";
    let frac = exponent >= 0 ? kept.slice(exponent + 1) : "0".repeat(-exponent - 1) + kept;
    frac = frac.replace(/0+$/, "");
    return `${sign}${whole}.${frac === "" ? "0" : frac}`;
  }
  const mantissa = `${kept[0]}.${kept.slice(1)}`.replace(/\.?0+$/, "");
  return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/** `str(pd.Timestamp(ns))`, as `format_timestamp` shortens it (no time at midnight, else "T"). */
export function formatTimestamp(ns: bigint): string {
  if (ns === NAT) return "NaT";
  const [date, time] = timestampText(ns).split(" ") as [string, string];
  return time === "00:00:00" ? date : `${date}T${time}`;
}

/** `str(pd.Timedelta(ns))` in the form `format_items` picks for the whole array. */
function formatTimedelta(ns: bigint, form: "datetime" | "date" | "time"): string {
  if (ns === NAT) return "NaT";
  const day = 86_400_000_000_000n;
  const days = ns >= 0n ? ns / day : -((-ns + day - 1n) / day);
  const rest = ns - days * day;
  const seconds = Number(rest / 1_000_000_000n);
  const fraction = rest % 1_000_000_000n;
  const p = (v: number, n = 2): string => String(v).padStart(n, "0");
  const frac = fraction === 0n ? "" : `.${p(Number(fraction), 9)}`;
  const time = `${days < 0n ? "+" : ""}${p(Math.floor(seconds / 3600))}:${p(Math.floor(seconds / 60) % 60)}:${p(seconds % 60)}${frac}`;
  if (form === "date") return `${days} days`;
  if (form === "time") return time;
  return `${days} days ${time}`;
}

/** `format_items`: each value as xarray's repr shows it. */
function formatItems(values: Values, indices: readonly number[]): string[] {
  const kind = kindOf(values.dtype);
  const data = values.data;
  if (kind === "M") return indices.map((i) => formatTimestamp((data as BigInt64Array)[i]!));
  if (kind === "m") {
    const items = indices.map((i) => (data as BigInt64Array)[i]!);
    const present = items.filter((v) => v !== NAT);
    const day = 86_400_000_000_000n;
    const dayPart = (v: bigint): bigint => (v >= 0n ? v / day : -((-v + day - 1n) / day)) * day;
    const form = present.every((v) => dayPart(v) === 0n)
      ? "time"
      : present.every((v) => v === dayPart(v))
        ? "date"
        : "datetime";
    return items.map((v) => formatTimedelta(v, form));
  }
  return indices.map((i) => formatItem(values, i));
}

function formatItem(values: Values, i: number): string {
  const kind = kindOf(values.dtype);
  const value = (values.data as ArrayLike<unknown>)[i];
  switch (kind) {
    case "f":
      return formatG4(values.dtype === "float16" ? Number(value) : (value as number));
    case "b":
      return value ? "True" : "False";
    case "U":
      return pythonStrRepr(value as string);
    case "S":
      return bytesRepr(value as string);
    case "O":
      if (value === null) return "nan";
      if (typeof value === "string") return pythonStrRepr(value);
      if (typeof value === "boolean") return value ? "True" : "False";
      if (typeof value === "number") return formatPythonFloat(value).replace(/^NaN$/, "nan");
      return String(value);
    default:
      return String(value);
  }
}

/** `format_array_flat`: as many of the first and last items as fit `width`, " ... " between. */
export function formatArrayFlat(values: Values, width: number): string {
  const size = values.shape.reduce((a, b) => a * b, 1);
  const relevant = Math.min(Math.max(size, 1), Math.max(Math.ceil(width / 2), 2));
  const frontCount = Math.min(size, Math.floor((relevant + 1) / 2));
  const backCount = Math.min(size, Math.floor(relevant / 2));
  const front = formatItems(
    values,
    Array.from({ length: frontCount }, (_, i) => i),
  );
  const back = formatItems(
    values,
    Array.from({ length: backCount }, (_, i) => size - backCount + i),
  );
  const interleaved: string[] = [];
  for (let i = 0; i < Math.max(front.length, back.length); i++) {
    if (i < front.length) interleaved.push(front[i]!);
    if (i < back.length) interleaved.push(back[back.length - 1 - i]!);
  }
  const items = interleaved.slice(0, relevant);
  const cumulative: number[] = [];
  let total = -1;
  for (const s of items) cumulative.push((total += s.length + 1));
  let count: number;
  let padding: string;
  if (size > 2 && (relevant < size || cumulative.some((c) => c > width))) {
    padding = " ... ";
    const over = cumulative.findIndex((c) => c + padding.length - 1 > width);
    count = Math.min(size, Math.max(over === -1 ? 0 : over, 2));
  } else {
    count = size;
    padding = count <= 1 ? "" : " ";
  }
  const numFront = Math.floor((count + 1) / 2);
  const numBack = count - numFront;
  let text = [front.slice(0, numFront).join(" "), padding, numBack > 0 ? back.slice(-numBack).join(" ") : ""].join("");
  if (text.length > width) text = `${text.slice(0, Math.max(width - 3, 0))}...`;
  return text;
}

/** `_element_formatter`: items joined by ", ", wrapped at the display width, at most 12 rows. */
function elementFormatter(elements: readonly string[], colWidth: number, maxRows = MAX_ROWS): string {
  const out = [""];
  let length = 0;
  elements.forEach((element, i) => {
    const text = `${element}${i < elements.length - 1 ? ", " : ""}`;
    length += text.length;
    if (colWidth + length > DISPLAY_WIDTH) {
      out[out.length - 1] = out[out.length - 1]!.trimEnd();
      out.push(`\n${prettyPrint("", colWidth)}${text}`);
      length = text.length;
    } else out[out.length - 1] += text;
  });
  if (out.length > maxRows) {
    const first = Math.floor(maxRows / 2) + (maxRows % 2);
    const last = Math.floor(maxRows / 2);
    return [...out.slice(0, first), `\n${prettyPrint("", colWidth)}...`, ...out.slice(-last)].join("");
  }
  return out.join("");
}

const colWidthOf = (names: Iterable<string>): number => Math.max(7, ...[...names].map((n) => n.length)) + 6;

/** `summarize_variable`, with the values given for variables xarray holds in memory. */
function summarizeVariable(
  name: string,
  variable: Variable,
  colWidth: number,
  isIndex: boolean,
  values?: Values,
): string {
  const first = prettyPrint(`  ${isIndex ? "*" : " "} ${name} `, colWidth);
  const dims = variable.dims.length > 0 ? `(${variable.dims.join(", ")}) ` : "";
  const front = `${first}${dims}${variable.dtype} `;
  return front + (values === undefined ? "..." : formatArrayFlat(values, DISPLAY_WIDTH - front.length));
}

/** Python's `str()` of an attribute value (JSON as Python loads it). */
export function pythonStr(value: unknown, nested = false): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return nested ? pythonStrRepr(value) : value;
  if (typeof value === "bigint") return String(value);
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "nan";
    if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
    return Number.isInteger(value) && Math.abs(value) < 2 ** 53 ? String(value) : formatPythonFloat(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => pythonStr(v, true)).join(", ")}]`;
  if (value instanceof CFDatetime) return value.toString();
  if (typeof value === "object")
    return `{${Object.entries(value as object)
      .map(([k, v]) => `${pythonStrRepr(k)}: ${pythonStr(v, true)}`)
      .join(", ")}}`;
  return String(value);
}

/** `_mapping_repr`: a titled section, shortened to 12 rows as xarray shortens it. */
function mappingRepr(
  title: string,
  names: readonly string[],
  summarize: (name: string) => string,
  colWidth: number,
): string[] {
  if (names.length === 0) return [`${title}:`, "    *empty*"];
  if (names.length <= MAX_ROWS) return [`${title}:`, ...names.map(summarize)];
  const first = Math.floor(MAX_ROWS / 2) + (MAX_ROWS % 2);
  const last = Math.floor(MAX_ROWS / 2);
  return [
    `${title}: (${MAX_ROWS}/${names.length})`,
    ...names.slice(0, first).map(summarize),
    `${prettyPrint("    ...", colWidth)} ...`,
    ...names.slice(-last).map(summarize),
  ];
}

/**
 * The summary xarray prints for a dataset (`print(ds)` after
 * `xr.open_dataset(store, engine="zarr")`): dimensions, coordinates (the values of those named as
 * their dimension, which this reads), data variables (values not read: "..."), attributes.
 */
export async function datasetRepr(ds: Dataset): Promise<string> {
  const colWidth = colWidthOf(ds.variables.keys());
  const lines = ["<xarray.Dataset>"];
  const dims = Object.entries(ds.sizes).map(([k, v]) => `${k}: ${v}`);
  lines.push(`${prettyPrint("Dimensions:", colWidth)}(${elementFormatter(dims, colWidth + 1)})`);
  const coords = ds.coords;
  const indexes = new Set(coords.filter((name) => ds.get(name).ndim === 1 && ds.get(name).dims[0] === name));
  const indexValues = new Map<string, Values>();
  for (const name of indexes) indexValues.set(name, await ds.get(name).cachedValues());
  if (coords.length > 0) {
    lines.push(
      ...mappingRepr(
        "Coordinates",
        coords,
        (name) => summarizeVariable(name, ds.get(name), colWidth, indexes.has(name), indexValues.get(name)),
        colWidth,
      ),
    );
  }
  const unindexed = ds.dims.filter((d) => !coords.includes(d));
  if (unindexed.length > 0) {
    const start = "Dimensions without coordinates: ";
    lines.push(start + elementFormatter(unindexed, start.length));
  }
  lines.push(
    ...mappingRepr(
      "Data variables",
      ds.dataVars,
      (name) => summarizeVariable(name, ds.get(name), colWidth, false),
      colWidth,
    ),
  );
  const attrs = Object.keys(ds.attrs);
  if (attrs.length > 0) {
    const attrWidth = colWidthOf(attrs);
    lines.push(
      ...mappingRepr(
        "Attributes",
        attrs,
        (key) => {
          const keyText = prettyPrint(`    ${key}:`, attrWidth);
          const value = pythonStr(ds.attrs[key]).replace(/\t/g, "\\t").replace(/\n/g, "\\n");
          return maybeTruncate(`${keyText} ${value}`, DISPLAY_WIDTH);
        },
        attrWidth,
      ),
    );
  }
  return lines.join("\n");
}
