// Comparing decoded values with what xarray read (the fixtures' JSON): values bit for bit. No Node
// module here, so the tests that use only this run in Chromium too (scripts/browser-tests.mjs).
import type { JsonValue } from "@z/meta";
import { expect } from "vitest";
import { CFDatetime, type Values } from "../src/index.js";

export interface ExpectedVariable {
  dims: string[];
  shape: number[];
  /** The values' dtype. */
  dtype: string;
  /** The variable's dtype before reading (they differ for 0-d vlen strings). */
  var_dtype: string;
  attrs: Record<string, JsonValue>;
  encoding: Record<string, JsonValue>;
  values: { base64?: string; strings?: string[]; bytes?: string[]; objects?: JsonValue[] };
}

/** A JSON value as the fixtures write it: NaN and infinities as strings, bytes as {bytes}. */
export function comparable(value: unknown): unknown {
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
    return value;
  }
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(comparable);
  if (value instanceof CFDatetime)
    return {
      cftime: [value.year, value.month, value.day, value.hour, value.minute, value.second, value.microsecond],
      calendar: value.calendar,
    };
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v)]));
  return value;
}

const bytesOf = (data: ArrayBufferView): Uint8Array => new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

/** Compares decoded values with xarray's `.values`: numbers, times and booleans byte for byte. */
export function expectValues(actual: Values, expected: ExpectedVariable, where: string): void {
  expect(actual.dtype, `${where}: dtype`).toBe(expected.dtype);
  expect(actual.shape, `${where}: shape`).toEqual(expected.shape);
  const { values } = expected;
  if (values.base64 !== undefined) {
    const want = fromBase64(values.base64);
    const got = bytesOf(actual.data as ArrayBufferView);
    expect(hex(got), `${where}: values`).toBe(hex(want));
  } else if (values.strings !== undefined) {
    expect(actual.data, `${where}: values`).toEqual(values.strings);
  } else if (values.bytes !== undefined) {
    expect(actual.data, `${where}: values`).toEqual(values.bytes);
  } else {
    const objects = (values.objects ?? []).map((v) =>
      v !== null && typeof v === "object" && "bytes" in (v as object) ? (v as { bytes: string }).bytes : v,
    );
    expect(comparable(actual.data), `${where}: values`).toEqual(comparable(objects));
  }
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
