// Counts decoded by xarray's own decode_cf_datetime and decode_cf_timedelta (pandas 1.5 and cftime
// 1.6 underneath), recorded by xarray_fixtures.py: random counts in every calendar and unit, and
// counts next to microsecond, second and day boundaries, decoded here to the same bits.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { decodeDatetimes, decodeTimedeltas } from "../src/cf/times.js";
import { finish, type Held } from "../src/values.js";
import { CFError } from "../src/index.js";
import { comparable } from "./compare.js";

interface Entry {
  units: string;
  calendar?: string;
  use_cftime?: boolean | null;
  dtype: "float64" | "int64";
  values: number[];
  result?: { dtype: string; base64?: string; objects?: unknown[] };
  error?: string;
}

// The committed fixture (the live check first makes sure a fresh one from xarray equals it).
const entries = JSON.parse(readFileSync(new URL("./fixtures/times-random.json", import.meta.url), "utf8")) as Entry[];

function held(entry: Entry): Held {
  const data =
    entry.dtype === "int64" ? BigInt64Array.from(entry.values, (v) => BigInt(v)) : Float64Array.from(entry.values);
  return { dtype: entry.dtype, shape: [entry.values.length], data };
}

function expectResult(actual: Held, entry: Entry): void {
  const result = entry.result!;
  const values = finish(actual);
  expect(values.dtype).toBe(result.dtype);
  if (result.base64 !== undefined) {
    const data = values.data as BigInt64Array;
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    expect(btoa(String.fromCharCode(...bytes))).toBe(result.base64);
  } else {
    expect(comparable(values.data)).toEqual(comparable(result.objects));
  }
}

describe("times decoded as xarray decodes them", () => {
  for (const entry of entries.filter((e) => e.calendar !== undefined)) {
    const what = `${entry.dtype} ${entry.units} (${entry.calendar}${entry.use_cftime ? ", use_cftime" : ""})`;
    it(what, () => {
      const decode = (): Held =>
        decodeDatetimes(held(entry), {
          units: entry.units,
          calendar: entry.calendar!,
          useCftime: entry.use_cftime ?? undefined,
        });
      if (entry.error !== undefined) expect(decode).toThrow(CFError);
      else expectResult(decode(), entry);
    });
  }
});

describe("timedeltas decoded as xarray decodes them", () => {
  for (const entry of entries.filter((e) => e.calendar === undefined)) {
    it(`${entry.dtype} ${entry.units}: ${entry.values.slice(0, 3).join(", ")}…`, () => {
      const decode = (): Held => decodeTimedeltas(held(entry), entry.units);
      if (entry.error !== undefined) expect(decode).toThrow(CFError);
      else expectResult(decode(), entry);
    });
  }
});
