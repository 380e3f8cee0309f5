/*
 * Physical units of dimensions as TensorStore reads, merges and writes them
 * (tensorstore/util/unit.cc, internal/json_binding/unit.cc, index_space/dimension_units.cc): a unit
 * is a multiplier and a base unit (`"4nm"` is 4 of `nm`); the schema's `dimension_units` take a
 * string, a number or `[multiplier, "base"]`, a zarr3 array's `attributes.dimension_units` strings
 * only, which TensorStore writes back as `"4 nm"`.
 */
import type { JsonValue } from "@z/meta";
import { SpecError } from "./errors.js";
import { dumpJson, isNumber, numberOf, requireArray } from "./json.js";

/** A physical unit: `multiplier` of `base` (`base` empty: a plain number). */
export interface Unit {
  readonly multiplier: number;
  readonly base: string;
}

/** One unit per dimension; undefined where none is given. */
export type DimensionUnits = readonly (Unit | undefined)[];

/** TensorStore's `Unit(std::string_view)`: a leading number (default 1), the rest the base unit, spaces trimmed. */
export function parseUnitString(text: string): Unit {
  const s = text.replace(/^\s+|\s+$/g, "");
  const m = /^([-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?\d+)?)\s*/.exec(s);
  if (m === null) return { multiplier: 1, base: s };
  return { multiplier: Number(m[1]), base: s.slice(m[0].length) };
}

/** `absl::StrCat(double)`: six significant digits, as `%g` prints them. */
export function sixDigits(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  const exp = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(6)))));
  if (exp < -4 || exp >= 6) {
    const [mantissa, e] = x.toExponential(5).split("e") as [string, string];
    const trimmed = mantissa.includes(".") ? mantissa.replace(/\.?0+$/, "") : mantissa;
    const n = Number(e);
    return `${trimmed}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  }
  const fixed = x.toFixed(Math.max(0, 5 - exp));
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/** TensorStore's `Unit::to_string`: `"4 nm"`, `"nm"` for a multiplier of 1, `"4"` without a base. */
export function unitToString(u: Unit): string {
  if (u.base === "") return sixDigits(u.multiplier);
  return u.multiplier === 1 ? u.base : `${sixDigits(u.multiplier)} ${u.base}`;
}

export const sameUnit = (a: Unit, b: Unit): boolean => a.multiplier === b.multiplier && a.base === b.base;

/** A schema's `dimension_units`: per dimension null, a unit string, a number, or `[multiplier, "base"]`. */
export function parseSchemaUnits(j: JsonValue, member: string): DimensionUnits {
  return requireArray(j, member).map((u, i) => {
    const at = `${member}[${i}]`;
    if (u === null) return undefined;
    if (typeof u === "string") return parseUnitString(u);
    if (isNumber(u)) return { multiplier: Number(numberOf(u)), base: "" };
    if (Array.isArray(u)) {
      if (u.length !== 2) throw new SpecError(`Array has length ${u.length} but should have length 2`, { member: at });
      const [m, base] = u as [JsonValue, JsonValue];
      const multiplier = isNumber(m) ? Number(numberOf(m)) : Number.NaN;
      if (!(multiplier > 0 && Number.isFinite(multiplier)))
        throw new SpecError(`Expected finite positive number, but received: ${dumpJson(m)}`, { member: `${at}[0]` });
      if (typeof base !== "string")
        throw new SpecError(`Expected string, but received: ${dumpJson(base)}`, { member: `${at}[1]` });
      return { multiplier, base };
    }
    throw new SpecError(`Expected string, number, or array, but received: ${dumpJson(u)}`, { member: at });
  });
}

/** A zarr3 `attributes.dimension_units`: per dimension null or a unit string. */
export function parseStoredUnits(j: JsonValue, member: string): DimensionUnits {
  return requireArray(j, member).map((u, i) => {
    if (u === null) return undefined;
    if (typeof u === "string") return parseUnitString(u);
    throw new SpecError(`Expected string, but received: ${dumpJson(u)}`, { member: `${member}[${i}]` });
  });
}

/** Units as TensorStore prints them in messages (`["4 nm", null]`). */
export const formatUnits = (units: DimensionUnits): string =>
  `[${units.map((u) => (u === undefined ? "null" : JSON.stringify(unitToString(u)))).join(", ")}]`;

/** TensorStore's `MergeDimensionUnits`: units given on both sides must agree; the given ones fill the rest. */
export function mergeUnits(existing: DimensionUnits, next: DimensionUnits): DimensionUnits {
  const base = existing.length === 0 ? new Array<Unit | undefined>(next.length).fill(undefined) : [...existing];
  for (let i = 0; i < next.length; i++) {
    const a = base[i];
    const b = next[i];
    if (b !== undefined && a !== undefined && !sameUnit(a, b))
      throw new SpecError(`Cannot merge dimension units ${formatUnits(next)} and ${formatUnits(existing)}`);
  }
  return base.map((a, i) => a ?? next[i]);
}
