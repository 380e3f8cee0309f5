/*
 * Index domains as TensorStore reads and merges them (tensorstore/index_space/json.cc,
 * index_interval.cc): per dimension an interval whose bounds may be infinite and may be "implicit"
 * (resizable, written `[n]`), and an optional label.
 */
import type { JsonValue } from "@z/meta";
import { SpecError } from "./errors.js";
import { dumpJson, isIntegerToken, Members, requireArray, requireInteger } from "./json.js";

/** TensorStore's kInfIndex (2^62 - 1): the largest magnitude of an index; ±Infinity stand for it here. */
export const K_INF_INDEX = 2n ** 62n - 1n;

export interface Interval {
  /** Inclusive lower bound; -Infinity when unbounded. */
  readonly min: number;
  /** Inclusive upper bound; Infinity when unbounded. */
  readonly max: number;
  readonly implicitLower: boolean;
  readonly implicitUpper: boolean;
}

export interface Domain {
  readonly dims: readonly Interval[];
  readonly labels: readonly string[];
}

export const domainRank = (d: Domain): number => d.dims.length;
export const sizeOf = (i: Interval): number => i.max - i.min + 1;
export const isFiniteInterval = (i: Interval): boolean => Number.isFinite(i.min) && Number.isFinite(i.max);

/** An interval as TensorStore prints one: `[0, 10*)` (`*`: implicit). */
export function formatInterval(i: Interval): string {
  const lo = i.min === -Infinity ? "-inf" : String(i.min);
  const hi = i.max === Infinity ? "+inf" : String(i.max + 1);
  return `[${lo}${i.implicitLower ? "*" : ""}, ${hi}${i.implicitUpper ? "*" : ""})`;
}

export const formatDomain = (d: Domain): string =>
  `{ ${d.dims.map((i, k) => `${d.labels[k] ? `${JSON.stringify(d.labels[k])}: ` : ""}${formatInterval(i)}`).join(", ")} }`;

/** Which keys a domain or a transform's input domain uses. */
export interface DomainKeys {
  rank: string;
  inclusiveMin: string;
  inclusiveMax: string;
  shape: string;
  exclusiveMax: string;
  labels: string;
}

export const DOMAIN_KEYS: DomainKeys = {
  rank: "rank",
  inclusiveMin: "inclusive_min",
  inclusiveMax: "inclusive_max",
  shape: "shape",
  exclusiveMax: "exclusive_max",
  labels: "labels",
};

export const TRANSFORM_KEYS: DomainKeys = {
  rank: "input_rank",
  inclusiveMin: "input_inclusive_min",
  inclusiveMax: "input_inclusive_max",
  shape: "input_shape",
  exclusiveMax: "input_exclusive_max",
  labels: "input_labels",
};

/** One bound: an integer in [lo, hi], or "-inf"/"+inf" where the range reaches them, optionally as `[x]` (implicit). */
function parseBound(
  j: JsonValue,
  member: string,
  lo: "-inf" | bigint,
  hi: "+inf" | bigint,
): { value: number; implicit: boolean } {
  let x = j;
  let implicit = false;
  if (Array.isArray(x)) {
    if (x.length !== 1)
      throw new SpecError(`Expected array of size 1 indicating an implicit value, but received: ${dumpJson(x)}`, {
        member,
      });
    implicit = true;
    x = x[0]!;
  }
  if (x === "-inf" && lo === "-inf") return { value: -Infinity, implicit };
  if (x === "+inf" && hi === "+inf") return { value: Infinity, implicit };
  const min = lo === "-inf" ? -K_INF_INDEX : lo;
  const max = hi === "+inf" ? K_INF_INDEX : hi;
  if (!isIntegerToken(x)) {
    const range = `${lo === "-inf" ? '"-inf", ' : ""}${hi === "+inf" ? '"+inf", ' : ""}or an integer in [${min}, ${max}]`;
    throw new SpecError(`Expected ${range}, but received: ${dumpJson(x)}`, { member });
  }
  return { value: requireInteger(x, member, min, max), implicit };
}

/** The parts of a domain (or a transform's input domain) a JSON object gives. */
export function parseDomainMembers(m: Members, keys: DomainKeys, rankConstraint?: number): Domain | undefined {
  let rank: number | undefined;
  const setRank = (n: number, member: string): void => {
    if (rank !== undefined && rank !== n)
      throw new SpecError(`Array has length ${n} but should have length ${rank}`, { member });
    if (n > 32) throw new SpecError(`Rank ${n} is outside valid range [0, 32]`, { member });
    rank = n;
  };
  const present = [keys.rank, keys.inclusiveMin, keys.shape, keys.inclusiveMax, keys.exclusiveMax, keys.labels].filter(
    (k) => m.has(k),
  );
  if (present.length === 0) return undefined;
  const rankValue = m.take(keys.rank);
  if (rankValue !== undefined) setRank(requireInteger(rankValue, m.at(keys.rank), 0, 32), m.at(keys.rank));
  const lowerJson = m.take(keys.inclusiveMin);
  let lower: { value: number; implicit: boolean }[] | undefined;
  if (lowerJson !== undefined) {
    const items = requireArray(lowerJson, m.at(keys.inclusiveMin));
    setRank(items.length, m.at(keys.inclusiveMin));
    lower = items.map((x, i) => parseBound(x, `${m.at(keys.inclusiveMin)}[${i}]`, "-inf", 0n));
  }
  const uppers = [keys.shape, keys.inclusiveMax, keys.exclusiveMax].filter((k) => m.has(k));
  if (uppers.length > 1)
    throw new SpecError(`At most one of ${uppers.map((k) => JSON.stringify(k)).join(", ")} members is allowed`, {
      member: m.at(uppers[1]!),
    });
  let form: "sized" | "closed" | "half_open" = "half_open";
  let upper: { value: number; implicit: boolean }[] | undefined;
  for (const [key, f, hi] of [
    [keys.shape, "sized", "+inf"],
    [keys.inclusiveMax, "closed", "+inf"],
    [keys.exclusiveMax, "half_open", "+inf"],
  ] as const) {
    const json = m.take(key);
    if (json === undefined) continue;
    const items = requireArray(json, m.at(key));
    setRank(items.length, m.at(key));
    upper = items.map((x, i) => parseBound(x, `${m.at(key)}[${i}]`, 0n, hi));
    form = f;
  }
  let labels: string[] | undefined;
  const labelsJson = m.take(keys.labels);
  if (labelsJson !== undefined) {
    const items = requireArray(labelsJson, m.at(keys.labels));
    setRank(items.length, m.at(keys.labels));
    labels = items.map((x, i) => {
      if (typeof x !== "string")
        throw new SpecError(`Expected string, but received: ${dumpJson(x)}`, { member: `${m.at(keys.labels)}[${i}]` });
      return x;
    });
    const named = labels.filter((l) => l !== "");
    const dup = named.find((l, i) => named.indexOf(l) !== i);
    if (dup !== undefined)
      throw new SpecError(`Dimension label ${JSON.stringify(dup)} not unique`, { member: m.at(keys.labels) });
  }
  if (rankConstraint !== undefined && rank !== undefined && rank !== rankConstraint)
    throw new SpecError(`Expected ${keys.rank} to be ${rankConstraint}, but is: ${rank}`, {
      member: m.path || undefined,
    });
  const r = rank ?? 0;
  const dims: Interval[] = [];
  for (let i = 0; i < r; i++) {
    const lo = lower?.[i];
    const hi = upper?.[i];
    const min = lo !== undefined ? lo.value : form === "sized" && upper !== undefined ? 0 : -Infinity;
    const implicitLower = lo !== undefined ? lo.implicit : form !== "sized" || upper === undefined;
    let max: number;
    if (hi === undefined) max = Infinity;
    else if (form === "sized") max = hi.value === Infinity ? Infinity : min + hi.value - 1;
    else if (form === "closed") max = hi.value;
    else max = hi.value === Infinity ? Infinity : hi.value - 1;
    const implicitUpper = hi !== undefined ? hi.implicit : true;
    if (max < min - 1 || (form === "sized" && hi !== undefined && hi.value < 0))
      throw new SpecError(
        `Invalid interval for dimension ${i}: ${formatInterval({ min, max, implicitLower, implicitUpper })}`,
        {
          member: m.path || undefined,
        },
      );
    dims.push({ min, max, implicitLower, implicitUpper });
  }
  return { dims, labels: labels ?? new Array<string>(r).fill("") };
}

/** A `domain` member: an object of the domain keys. */
export function parseDomain(j: JsonValue, member: string): Domain {
  const m = new Members(j, member);
  const domain = parseDomainMembers(m, DOMAIN_KEYS);
  if (domain === undefined)
    throw new SpecError(
      'At least one of "rank", "inclusive_min", "shape", "inclusive_max", "exclusive_max", "labels" members must be specified',
      { member },
    );
  m.done();
  return domain;
}

/** TensorStore's `MergeOptionallyImplicitIndexIntervals`. */
function mergeInterval(a: Interval, b: Interval): Interval | string {
  if (a.min === b.min && a.max === b.max && a.implicitLower === b.implicitLower && a.implicitUpper === b.implicitUpper)
    return a;
  let min: number;
  let implicitLower: boolean;
  if (a.min === -Infinity && a.implicitLower) [min, implicitLower] = [b.min, b.implicitLower];
  else if (b.min === -Infinity && b.implicitLower) [min, implicitLower] = [a.min, a.implicitLower];
  else if (a.min !== b.min) return "Lower bounds do not match";
  else [min, implicitLower] = [a.min, a.implicitLower && b.implicitLower];
  let max: number;
  let implicitUpper: boolean;
  if (a.max === Infinity && a.implicitUpper) [max, implicitUpper] = [b.max, b.implicitUpper];
  else if (b.max === Infinity && b.implicitUpper) [max, implicitUpper] = [a.max, a.implicitUpper];
  else if (a.max !== b.max) return "Upper bounds do not match";
  else [max, implicitUpper] = [a.max, a.implicitUpper && b.implicitUpper];
  if (max < min - 1) return `Invalid interval [${min}, ${max}]`;
  return { min, max, implicitLower, implicitUpper };
}

/** TensorStore's `MergeIndexDomains` (undefined: no domain). */
export function mergeDomains(a: Domain | undefined, b: Domain | undefined, member?: string): Domain | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const fail = (why: string): SpecError =>
    new SpecError(`Cannot merge index domain ${formatDomain(a)} with index domain ${formatDomain(b)}: ${why}`, {
      member,
    });
  if (a.dims.length !== b.dims.length) throw fail("Ranks do not match");
  const dims: Interval[] = [];
  const labels: string[] = [];
  for (let i = 0; i < a.dims.length; i++) {
    const la = a.labels[i] ?? "";
    const lb = b.labels[i] ?? "";
    if (la !== "" && lb !== "" && la !== lb)
      throw fail(
        `Mismatch in dimension ${i}: Dimension labels do not match: ${JSON.stringify(la)} vs ${JSON.stringify(lb)}`,
      );
    labels.push(la || lb);
    const merged = mergeInterval(a.dims[i]!, b.dims[i]!);
    if (typeof merged === "string") throw fail(`Mismatch in dimension ${i}: ${merged}`);
    dims.push(merged);
  }
  return { dims, labels };
}

/** A domain of `shape` from 0, with the given implicit upper bounds. */
export function domainOfShape(shape: readonly number[], implicitUpper: (i: number) => boolean): Domain {
  return {
    dims: shape.map((s, i) => ({
      min: 0,
      max: s === Infinity ? Infinity : s - 1,
      implicitLower: false,
      implicitUpper: implicitUpper(i),
    })),
    labels: shape.map(() => ""),
  };
}
