// Selection by coordinate label, as xarray's `sel` through pandas 1.5 indexes: exact labels
// (`get_loc`), `method: "nearest"` (`get_indexer`), label slices with both ends included, and
// times given as ISO strings, partial ones selecting their whole period as pandas does.
import { CFDatetime } from "./cf/cftime.js";
import { type Calendar, dayNumber, invalidDate } from "./cf/calendar.js";
import { civilFromDays, daysFromCivil, NAT } from "./cf/times.js";
import { LabelError } from "./errors.js";
import { isSliceLike, type LabelSlice, type PositionIndexer, slice } from "./view.js";
import type { Values } from "./values.js";

/** A coordinate whose values give the labels of a dimension (a `Variable`). */
export interface LabelSource {
  cachedValues(): Promise<Values>;
}

/** A coordinate label: a number, bigint, string, `Date` or `CFDatetime` (times also as ISO strings). */
export type Label = number | bigint | string | Date | CFDatetime;

/** What `sel` takes for one dimension: a label, a list of labels, or a slice of labels. */
export type LabelIndexer = Label | readonly Label[] | LabelSlice<Label>;

export type LabelIndexers = Readonly<Record<string, LabelIndexer>>;

export interface SelOptions {
  /** `"nearest"`: the closest label (ties go to the larger one, as pandas); default exact labels. */
  method?: "nearest";
}

/** An index's values as comparable keys, and how labels become keys. */
interface Index {
  readonly dim: string;
  readonly length: number;
  key(i: number): number | bigint | string;
  /** Order: 1 increasing, -1 decreasing, 0 neither. */
  readonly monotonic: 1 | -1 | 0;
  /**
   * A label as a key; for a time string also the [start, end] of the period it names (which slices
   * use), and whether a lookup selects that whole period (`partial`): pandas does for strings
   * coarser than the index's resolution, xarray's CFTimeIndex for every string.
   */
  labelKey(label: Label): { key: number | bigint | string; period?: [bigint, bigint]; partial?: boolean };
  distance(a: number | bigint | string, b: number | bigint | string): number;
}

/** Positions for label indexers, using each dimension's index coordinate. */
export async function selectByLabel(
  indexes: ReadonlyMap<string, LabelSource>,
  indexers: LabelIndexers,
  options: SelOptions,
  dims: readonly string[],
): Promise<Record<string, PositionIndexer>> {
  const out: Record<string, PositionIndexer> = {};
  for (const [dim, indexer] of Object.entries(indexers)) {
    const coordinate = indexes.get(dim);
    if (coordinate === undefined) {
      const why = dims.includes(dim) ? "has no coordinate of its name to look labels up in" : "is not a dimension";
      throw new LabelError(`sel: ${dim} ${why}`, { dim });
    }
    const index = makeIndex(dim, await coordinate.cachedValues());
    out[dim] = positions(index, indexer, options);
  }
  return out;
}

function positions(index: Index, indexer: LabelIndexer, options: SelOptions): PositionIndexer {
  if (isSliceLike(indexer)) {
    if (options.method !== undefined)
      throw new LabelError(`sel: ${index.dim}: method "${options.method}" does not apply to slices`, {
        dim: index.dim,
      });
    return sliceOf(index, indexer as LabelSlice<Label>);
  }
  if (Array.isArray(indexer)) return indexer.map((label) => onePosition(index, label, options, true) as number);
  return onePosition(index, indexer as Label, options, false);
}

/** One label: a position (exact or nearest), or a slice for a partial time string. */
function onePosition(index: Index, label: Label, options: SelOptions, single: boolean): PositionIndexer {
  const dim = index.dim;
  if (options.method === "nearest") {
    if (index.monotonic === 0) throw new LabelError(`sel: ${dim}: method "nearest" needs a sorted coordinate`, { dim });
    return nearest(index, index.labelKey(label).key);
  }
  const { key, period, partial } = index.labelKey(label);
  if (period !== undefined && partial === true && !single) return periodPositions(index, period, label);
  const found: number[] = [];
  for (let i = 0; i < index.length; i++) if (index.key(i) === key) found.push(i);
  if (found.length === 0) throw new LabelError(`sel: ${dim}: no label ${describe(label)}`, { dim });
  if (found.length === 1) return found[0]!;
  if (single) throw new LabelError(`sel: ${dim}: label ${describe(label)} is not unique`, { dim });
  const contiguous = found.every((p, i) => p === found[0]! + i);
  return contiguous ? slice(found[0]!, found[found.length - 1]! + 1) : found;
}

const describe = (label: Label): string =>
  label instanceof CFDatetime
    ? label.isoformat()
    : label instanceof Date
      ? label.toISOString()
      : JSON.stringify(String(label));

/** pandas' `_partial_date_slice`: the positions within [start, end] (a slice when sorted). */
function periodPositions(index: Index, [start, end]: [bigint, bigint], label: Label): PositionIndexer {
  const dim = index.dim;
  if (index.monotonic === 1) {
    const first = index.key(0) as bigint;
    const last = index.key(index.length - 1) as bigint;
    if (index.length > 0 && ((start < first && end < first) || (start > last && end > last)))
      throw new LabelError(`sel: ${dim}: no label ${describe(label)}`, { dim });
    return slice(searchSorted(index, start, "left"), searchSorted(index, end, "right"));
  }
  const found: number[] = [];
  for (let i = 0; i < index.length; i++) {
    const k = index.key(i) as bigint;
    if (k >= start && k <= end) found.push(i);
  }
  return found;
}

/** numpy's `searchsorted` on an increasing index. */
function searchSorted(index: Index, key: number | bigint | string, side: "left" | "right"): number {
  let lo = 0;
  let hi = index.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const k = index.key(mid);
    if (side === "left" ? k < key : k <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** pandas' `get_indexer(method="nearest")` for one key on a sorted index: ties go to the larger label. */
function nearest(index: Index, key: number | bigint | string): number {
  let best = -1;
  let bestDistance = Infinity;
  for (let i = 0; i < index.length; i++) {
    const distance = index.distance(index.key(i), key);
    if (best === -1 || distance < bestDistance || (distance === bestDistance && index.key(i) > index.key(best))) {
      best = i;
      bestDistance = distance;
    }
  }
  if (best === -1) throw new LabelError(`sel: ${index.dim}: the coordinate is empty`, { dim: index.dim });
  return best;
}

/** `slice_indexer`: labels from start to stop, both included, in the index's order. */
function sliceOf(index: Index, labels: LabelSlice<Label>): PositionIndexer {
  const dim = index.dim;
  if (index.monotonic === 0) throw new LabelError(`sel: ${dim}: slicing by label needs a sorted coordinate`, { dim });
  const bound = (label: Label | null, side: "start" | "stop"): number | bigint | string | null => {
    if (label === null) return null;
    const { key, period } = index.labelKey(label);
    if (period === undefined) return key;
    // A partial time string stands for the start or the end of its period.
    const lower = index.monotonic === 1 ? side === "start" : side === "stop";
    return lower ? period[0] : period[1];
  };
  const start = bound(labels.start, "start");
  const stop = bound(labels.stop, "stop");
  let from: number;
  let to: number;
  if (index.monotonic === 1) {
    from = start === null ? 0 : searchSorted(index, start, "left");
    to = stop === null ? index.length : searchSorted(index, stop, "right");
  } else {
    // Decreasing: count from the end.
    const below = (key: number | bigint | string, inclusive: boolean): number => {
      let n = 0;
      for (let i = 0; i < index.length; i++) {
        const k = index.key(i);
        if (inclusive ? k >= key : k > key) n = i + 1;
      }
      return n;
    };
    from = start === null ? 0 : below(start, false);
    to = stop === null ? index.length : below(stop, true);
  }
  return slice(from, Math.max(from, to), labels.step);
}

function monotonicity(length: number, key: (i: number) => number | bigint | string): 1 | -1 | 0 {
  let increasing = true;
  let decreasing = true;
  for (let i = 1; i < length; i++) {
    const a = key(i - 1);
    const b = key(i);
    if (!(a <= b)) increasing = false;
    if (!(a >= b)) decreasing = false;
  }
  return increasing ? 1 : decreasing ? -1 : 0;
}

/** The index a coordinate's values make. */
function makeIndex(dim: string, values: Values): Index {
  if (values.shape.length !== 1)
    throw new LabelError(`sel: ${dim}: the coordinate must be 1-dimensional to look labels up in`, { dim });
  const length = values.shape[0]!;
  const data = values.data;
  if (values.dtype === "datetime64[ns]") return datetimeIndex(dim, data as BigInt64Array);
  if (values.dtype === "object" && (data as unknown[]).length > 0 && (data as unknown[])[0] instanceof CFDatetime)
    return cftimeIndex(dim, data as CFDatetime[]);
  if (Array.isArray(data)) {
    const keys = data.map((v) => String(v));
    return {
      dim,
      length,
      key: (i) => keys[i]!,
      monotonic: monotonicity(length, (i) => keys[i]!),
      labelKey: (label) => {
        if (typeof label !== "string") throw new LabelError(`sel: ${dim}: labels are strings`, { dim });
        return { key: label };
      },
      distance: () => {
        throw new LabelError(`sel: ${dim}: method "nearest" needs numbers or times`, { dim });
      },
    };
  }
  const round = values.dtype === "float32" ? Math.fround : (x: number) => x;
  const big = data instanceof BigInt64Array || data instanceof BigUint64Array;
  const key = (i: number): number | bigint => (big ? (data as BigInt64Array)[i]! : (data as Float64Array)[i]!);
  return {
    dim,
    length,
    key,
    monotonic: monotonicity(length, key),
    labelKey: (label) => {
      if (typeof label === "number") return { key: big && Number.isInteger(label) ? BigInt(label) : round(label) };
      if (typeof label === "bigint") return { key: big ? label : Number(label) };
      throw new LabelError(`sel: ${dim}: labels are numbers, got ${describe(label)}`, { dim });
    },
    distance: (a, b) => Math.abs(Number(a) - Number(b)),
  };
}

/** The resolutions of pandas, finest first (`Resolution`): a partial string selects a whole one. */
const RESOLUTIONS = [
  "nanosecond",
  "microsecond",
  "millisecond",
  "second",
  "minute",
  "hour",
  "day",
  "month",
  "year",
] as const;
type Resolution = (typeof RESOLUTIONS)[number];

/** pandas' `get_resolution`: the finest field any time of the index uses (day at the coarsest). */
function indexResolution(keys: BigInt64Array): number {
  let finest = RESOLUTIONS.indexOf("day");
  for (const ns of keys) {
    if (ns === NAT) continue;
    const inSecond = ((ns % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n;
    const seconds = (ns - inSecond) / 1_000_000_000n;
    const inDay = Number(((seconds % 86400n) + 86400n) % 86400n);
    let reso: Resolution;
    if (inSecond % 1000n !== 0n) reso = "nanosecond";
    else if (inSecond !== 0n) reso = inSecond % 1_000_000n === 0n ? "millisecond" : "microsecond";
    else if (inDay % 60 !== 0) reso = "second";
    else if (inDay % 3600 !== 0) reso = "minute";
    else if (inDay !== 0) reso = "hour";
    else reso = "day";
    finest = Math.min(finest, RESOLUTIONS.indexOf(reso));
  }
  return finest;
}

/** An ISO date-time string's fields and its resolution (the finest field it gives). */
interface ParsedTime {
  readonly fields: [number, number, number, number, number, number];
  readonly nanos: bigint;
  readonly resolution: Resolution;
}

const ISO_LABEL =
  /^\s*([+-]?\d{4,})(?:-(\d{1,2})(?:-(\d{1,2})(?:[T ](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?)?)?)?\s*$/;

function parseTimeLabel(text: string, dim: string): ParsedTime {
  const match = ISO_LABEL.exec(text);
  if (match === null) throw new LabelError(`sel: ${dim}: ${JSON.stringify(text)} is not an ISO 8601 date`, { dim });
  const [, y, mo, d, h, mi, s, frac] = match;
  const parts = [mo, d, h, mi, s];
  const given = parts.filter((p) => p !== undefined).length;
  let resolution: Resolution = (["year", "month", "day", "hour", "minute", "second"] as const)[given]!;
  if (frac !== undefined)
    resolution = frac.length <= 3 ? "millisecond" : frac.length <= 6 ? "microsecond" : "nanosecond";
  const num = (v: string | undefined, fallback: number): number => (v === undefined ? fallback : Number(v));
  return {
    fields: [Number(y), num(mo, 1), num(d, 1), num(h, 0), num(mi, 0), num(s, 0)],
    nanos: frac === undefined ? 0n : BigInt(frac.padEnd(9, "0")),
    resolution,
  };
}

/** The first time after the period of `resolution` that starts at `fields`. */
function periodEnd(fields: readonly number[], resolution: Resolution): number[] {
  const [y, mo, d, h, mi, s] = fields as [number, number, number, number, number, number];
  switch (resolution) {
    case "year":
      return [y + 1, 1, 1, 0, 0, 0];
    case "month":
      return mo === 12 ? [y + 1, 1, 1, 0, 0, 0] : [y, mo + 1, 1, 0, 0, 0];
    default:
      return [y, mo, d, h, mi, s];
  }
}

const SPAN_NS: Partial<Record<Resolution, bigint>> = {
  day: 86_400_000_000_000n,
  hour: 3_600_000_000_000n,
  minute: 60_000_000_000n,
  second: 1_000_000_000n,
  millisecond: 1_000_000n,
  microsecond: 1_000n,
  nanosecond: 1n,
};

function datetimeIndex(dim: string, keys: BigInt64Array): Index {
  const length = keys.length;
  const reso = indexResolution(keys);
  const nsOf = (f: readonly number[]): bigint =>
    (BigInt(daysFromCivil(f[0]!, f[1]!, f[2]!)) * 86400n + BigInt(f[3]! * 3600 + f[4]! * 60 + f[5]!)) * 1_000_000_000n;
  return {
    dim,
    length,
    key: (i) => keys[i]!,
    monotonic: monotonicity(length, (i) => keys[i]!),
    labelKey: (label) => {
      if (typeof label === "bigint") return { key: label };
      if (label instanceof Date) return { key: BigInt(label.getTime()) * 1_000_000n };
      if (typeof label !== "string")
        throw new LabelError(`sel: ${dim}: time labels are ISO strings, Dates or bigint nanoseconds`, { dim });
      const parsed = parseTimeLabel(label, dim);
      const [y, mo, d] = parsed.fields;
      if (civilFromDays(daysFromCivil(y, mo, d))[2] !== d)
        throw new LabelError(`sel: ${dim}: ${JSON.stringify(label)} is not a date`, { dim });
      const start = nsOf(parsed.fields) + parsed.nanos;
      const span = SPAN_NS[parsed.resolution];
      const end = span !== undefined ? start + span - 1n : nsOf(periodEnd(parsed.fields, parsed.resolution)) - 1n;
      return { key: start, period: [start, end], partial: RESOLUTIONS.indexOf(parsed.resolution) > reso };
    },
    distance: (a, b) => Math.abs(Number((a as bigint) - (b as bigint))),
  };
}

function cftimeIndex(dim: string, dates: CFDatetime[]): Index {
  const calendar: Calendar = dates[0]!.calendar;
  const keys = dates.map((d) => (d === null ? 0n : d.ordinal));
  const length = keys.length;
  const micros = (f: readonly number[], c: Calendar): bigint =>
    BigInt(dayNumber(f[0]!, f[1]!, f[2]!, c)) * 86_400_000_000n + BigInt((f[3]! * 3600 + f[4]! * 60 + f[5]!) * 1e6);
  return {
    dim,
    length,
    key: (i) => keys[i]!,
    monotonic: monotonicity(length, (i) => keys[i]!),
    labelKey: (label) => {
      if (label instanceof CFDatetime) return { key: label.ordinal };
      if (typeof label !== "string")
        throw new LabelError(`sel: ${dim}: labels are ISO strings or CFDatetimes (${calendar} calendar)`, { dim });
      const parsed = parseTimeLabel(label, dim);
      const reason = invalidDate(calendar, ...parsed.fields);
      if (reason !== undefined) throw new LabelError(`sel: ${dim}: ${JSON.stringify(label)}: ${reason}`, { dim });
      const start = micros(parsed.fields, calendar);
      const span = SPAN_NS[parsed.resolution];
      const end =
        span !== undefined
          ? start + (span >= 1000n ? span / 1000n : 1n) - 1n
          : micros(periodEnd(parsed.fields, parsed.resolution), calendar) - 1n;
      return { key: start, period: [start, end], partial: true };
    },
    distance: (a, b) => Math.abs(Number((a as bigint) - (b as bigint))),
  };
}
