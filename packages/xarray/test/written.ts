// Datasets built in JavaScript and written with toZarr, for the live check that xarray reads them
// back as they were built: each CF encoding toZarr does, with given and inferred encodings.
import {
  CFDatetime,
  createDataset,
  type Dataset,
  NAT,
  slice,
  toZarr,
  type ToZarrOptions,
  type Values,
} from "../src/index.js";
import type { Store } from "@z/meta";

/** A dataset to write, how to write it, and how xarray should open it. */
export interface Written {
  readonly dataset: Dataset;
  readonly write?: ToZarrOptions;
  /** xr.open_zarr keyword arguments. */
  readonly open?: Record<string, unknown>;
  /** Written after the first, with mode "a" (a variable added, one overwritten). */
  readonly then?: Dataset;
}

const hours = (n: number, start = Date.UTC(1999, 11, 31, 18)): Date[] =>
  Array.from({ length: n }, (_, i) => new Date(start + i * 3_600_000));

function climate(): Dataset {
  const nt = 6;
  const ny = 5;
  const nx = 7;
  const t2m = new Float32Array(nt * ny * nx).map((_, i) => 250 + ((i * 37) % 61) + (i % 7) * 0.123);
  t2m[3] = NaN;
  t2m[100] = NaN;
  const precip = new Float64Array(nt * ny * nx).map((_, i) => (i % 5 === 0 ? NaN : i * 0.01));
  return createDataset({
    coords: {
      time: { dims: "time", data: hours(nt), attrs: { standard_name: "time" } },
      lat: { dims: "lat", data: Float64Array.of(60, 45, 30, 15, 0), attrs: { units: "degrees_north" } },
      lon: { dims: "lon", data: Float32Array.from({ length: nx }, (_, i) => i * 10), attrs: { units: "degrees_east" } },
    },
    dataVars: {
      t2m: {
        dims: ["time", "lat", "lon"],
        data: t2m,
        shape: [nt, ny, nx],
        attrs: { long_name: "2 metre temperature", units: "K" },
        encoding: { dtype: "int16", scale_factor: 0.01, add_offset: 273.15, _FillValue: -32767, chunks: [2, 5, 4] },
      },
      precip: {
        dims: ["time", "lat", "lon"],
        data: precip,
        shape: [nt, ny, nx],
        encoding: { dtype: "float32", _FillValue: 1e20, compressor: { id: "zlib", level: 4 } },
      },
      land: { dims: ["lat", "lon"], data: Array.from({ length: ny * nx }, (_, i) => i % 3 === 0), shape: [ny, nx] },
      count: { dims: "time", data: BigInt64Array.of(1n, 2n, 3n, -1n, 5n, 6n), encoding: { _FillValue: -1n } },
      level: { dims: [], data: [850], attrs: { units: "hPa" } },
    },
    attrs: { title: "built in JavaScript", Conventions: "CF-1.8", version: 3, ratios: [0.5, 1.5], empty: "" },
  });
}

function calendars(): Dataset {
  const noleap = [
    new CFDatetime(2001, 2, 27, 0, 0, 0, 0, "noleap"),
    new CFDatetime(2001, 2, 28, 0, 0, 0, 0, "noleap"),
    new CFDatetime(2001, 3, 1, 0, 0, 0, 0, "noleap"),
    new CFDatetime(2001, 3, 2, 12, 0, 0, 0, "noleap"),
  ];
  return createDataset({
    dataVars: {
      noleap: { dims: "a", data: noleap },
      d360: { dims: "b", data: [1, 2, 3, 4].map((d) => new CFDatetime(2000, 2, 26 + d, 6, 0, 0, 0, "360_day")) },
      // No missing dates: xarray 2023.01 with cftime 1.6 cannot read NaN counts of a non-standard calendar.
      julian: {
        dims: "c",
        data: [new CFDatetime(1500, 2, 29, 0, 0, 0, 0, "julian"), new CFDatetime(1501, 1, 1, 0, 0, 0, 0, "julian")],
      },
      all_leap: {
        dims: "d",
        data: [new CFDatetime(2001, 2, 29, 0, 0, 0, 0, "all_leap")],
        encoding: { units: "hours since 2001-01-01" },
      },
      far_future: { dims: "e", data: [new CFDatetime(2500, 1, 1), new CFDatetime(2600, 7, 1, 12)] },
      micro: {
        dims: "f",
        data: [new CFDatetime(1850, 1, 1, 0, 0, 0, 1, "noleap"), new CFDatetime(1850, 1, 1, 0, 0, 1, 500000, "noleap")],
      },
      explicit: {
        dims: "g",
        data: [new CFDatetime(1900, 1, 1, 0, 0, 0, 0, "noleap"), new CFDatetime(1950, 6, 15, 0, 0, 0, 0, "noleap")],
        encoding: { units: "days since 1850-01-01 00:00:00", calendar: "365_day" },
      },
    },
  });
}

function times(): Dataset {
  const ns = (ms: number): bigint => BigInt(ms) * 1_000_000n;
  const withNat = BigInt64Array.of(ns(Date.UTC(2000, 0, 1)), NAT, ns(Date.UTC(2000, 0, 3)));
  const fractional = BigInt64Array.of(ns(Date.UTC(2020, 1, 29, 12)), ns(Date.UTC(2020, 1, 29, 12)) + 1500n);
  return createDataset({
    dataVars: {
      with_nat: { dims: "a", data: withNat, dtype: "datetime64[ns]" },
      fractional: { dims: "b", data: fractional, dtype: "datetime64[ns]" },
      given: {
        dims: "c",
        data: hours(4),
        encoding: { units: "minutes since 1999-12-31 00:00:00", calendar: "standard", dtype: "int32" },
      },
      seconds: { dims: "d", data: hours(3), encoding: { units: "seconds since 1970-01-01" } },
      as_noleap: { dims: "e", data: hours(2), encoding: { calendar: "noleap", units: "days since 1999-12-31" } },
      single: { dims: "f", data: [new Date(Date.UTC(1990, 5, 1))] },
      durations: {
        dims: "g",
        data: BigInt64Array.of(0n, 3_600_000_000_000n, NAT, 90_000_000_000n),
        dtype: "timedelta64[ns]",
      },
      durations_given: {
        dims: "h",
        data: BigInt64Array.of(86_400_000_000_000n, 43_200_000_000_000n),
        dtype: "timedelta64[ns]",
        encoding: { units: "days" },
      },
    },
  });
}

function strings(): Dataset {
  return createDataset({
    coords: { station: { dims: "station", data: ["Zürich", "Genève", "東京", ""] } },
    dataVars: {
      vlen: { dims: "station", data: ["a", "bb", "", "ü"], dtype: "object" },
      missing: { dims: "station", data: ["x", null, "z", null] },
      code: { dims: "station", data: { data: ["ZH", "GE", "TK", ""], shape: [4], dtype: "|S2" } },
      utf8: { dims: "station", data: ["Zürich", "a", "東", ""], encoding: { _Encoding: "utf-8" } },
      grid: { dims: ["station", "n"], data: ["a", "b", "c", "d", "e", "f", "g", "h"], shape: [4, 2] },
    },
  });
}

function curvilinear(): Dataset {
  const ny = 3;
  const nx = 4;
  const lat = Float64Array.from({ length: ny * nx }, (_, i) => 40 + Math.floor(i / nx) * 0.5 + (i % nx) * 0.1);
  const lon = Float64Array.from({ length: ny * nx }, (_, i) => -10 + (i % nx) * 0.7 - Math.floor(i / nx) * 0.05);
  return createDataset({
    coords: {
      lat: { dims: ["y", "x"], data: lat, shape: [ny, nx], attrs: { units: "degrees_north" } },
      lon: { dims: ["y", "x"], data: lon, shape: [ny, nx], attrs: { units: "degrees_east" } },
      depth: { dims: [], data: [5.5] },
      note: { dims: "k", data: [1, 2] },
    },
    dataVars: {
      sst: {
        dims: ["y", "x"],
        data: new Float64Array(ny * nx).map((_, i) => 10 + i),
        shape: [ny, nx],
        encoding: { grid_mapping: "crs" },
      },
      crs: { dims: [], data: Int32Array.of(0), attrs: { grid_mapping_name: "rotated_latitude_longitude" } },
    },
  });
}

function encodings(): Dataset {
  return createDataset({
    dataVars: {
      unsigned: {
        dims: "n",
        data: Float32Array.of(1, 0, NaN, 128, 200, 5),
        encoding: { dtype: "int8", _Unsigned: "true", _FillValue: 255 },
      },
      missing: {
        dims: "n",
        data: Float64Array.of(1, NaN, 3, 4, NaN, 6),
        encoding: { dtype: "int16", missing_value: -9 },
      },
      big_endian: { dims: "n", data: Float64Array.of(1, 2, 3, 4, 5, 6), encoding: { dtype: ">f8" } },
      no_fill: { dims: "n", data: Float64Array.of(1, 2, 3, 4, 5, 6), encoding: { _FillValue: null } },
      u8: {
        dims: "n",
        data: Float32Array.of(0, 0.5, 1, 1.5, NaN, 2),
        encoding: { dtype: "uint8", scale_factor: 0.5, _FillValue: 255 },
      },
      half: {
        dims: "n",
        data: { data: Uint16Array.of(0x3c00, 0x7e00, 0x4000, 0x3800, 0, 0xc000), shape: [6], dtype: "float16" },
      },
    },
  });
}

/** Datasets built here, by name. */
export function builtDatasets(): Record<string, Written> {
  const climateData = climate();
  return {
    "built-climate": { dataset: climateData },
    "built-climate-plain": { dataset: climateData, write: { consolidated: false }, open: { consolidated: false } },
    "built-calendars": { dataset: calendars() },
    "built-times": { dataset: times() },
    "built-strings": { dataset: strings() },
    "built-curvilinear": { dataset: curvilinear() },
    "built-encodings": { dataset: encodings() },
    "built-subset": { dataset: climateData.isel({ time: slice(1, 4), lon: [6, 0, 3] }) },
    "built-append": {
      dataset: createDataset({ dataVars: { a: { dims: "x", data: Float64Array.of(1, 2, 3) } }, attrs: { step: 1 } }),
      then: createDataset({
        dataVars: { a: { dims: "x", data: Float64Array.of(4, 5, 6) }, b: { dims: "x", data: Int32Array.of(7, 8, 9) } },
        attrs: { step: 2 },
      }),
    },
  };
}

/** Writes a built dataset (and its mode "a" follow-up) into `store`. */
export async function writeBuilt(written: Written, store: Store): Promise<Dataset> {
  await toZarr(written.dataset, store, written.write);
  if (written.then === undefined) return written.dataset;
  await toZarr(written.then, store, { ...written.write, mode: "a" });
  return written.then;
}

/**
 * What a variable reads back as after writing, as xarray changes it: missing strings become ""
 * (xarray cannot tell them from empty ones), strings with `_Encoding` are read as objects, times
 * written in another calendar come back as that calendar's dates, CF attributes given in encoding
 * (grid_mapping, ...) are attributes.
 */
export function readBackAs(
  encoding: Readonly<Record<string, unknown>>,
  attrs: Readonly<Record<string, unknown>>,
  values: Values,
): { attrs: Record<string, unknown>; values: Values } {
  const out = { ...attrs };
  for (const key of ["grid_mapping", "bounds"]) if (key in encoding) out[key] = encoding[key];
  const objects = values.dtype === "object" ? (values.data as unknown[]) : [];
  if (objects.some((v) => v === null) && objects.every((v) => v === null || typeof v === "string"))
    return { attrs: out, values: { ...values, data: objects.map((v) => v ?? "") } };
  // Object arrays of booleans (masked ones) are stored as float64, as ensure_dtype_not_object does.
  if (objects.some((v) => typeof v === "boolean"))
    return {
      attrs: out,
      values: { ...values, dtype: "float64", data: Float64Array.from(objects, (v) => (v === null ? NaN : Number(v))) },
    };
  if ("_Encoding" in encoding) return { attrs: out, values: { ...values, dtype: "object" } };
  const fill = encoding._FillValue ?? encoding.missing_value;
  if (fill !== undefined && fill !== null && /int/.test(values.dtype) && encoding.scale_factor === undefined) {
    const wide = values.dtype === "int64" || values.dtype === "int32";
    const numbers = Array.from(values.data as ArrayLike<number | bigint>, (v) =>
      Number(v) === Number(fill) ? NaN : Number(v),
    );
    return {
      attrs: out,
      values: {
        ...values,
        dtype: wide ? "float64" : "float32",
        data: wide ? Float64Array.from(numbers) : Float32Array.from(numbers),
      },
    };
  }
  const storedInt = /^u?int(\d+)$/.exec(String(encoding.dtype));
  if (fill !== undefined && fill !== null && storedInt !== null && values.dtype.startsWith("float")) {
    // Masked integers read as float32 (up to 16 bits) or float64, as xarray's maybe_promote gives.
    const narrow = Number(storedInt[1]) <= 16;
    const data = narrow
      ? Float32Array.from(values.data as Float64Array)
      : Float64Array.from(values.data as Float64Array);
    return { attrs: out, values: { ...values, dtype: narrow ? "float32" : "float64", data } };
  }
  if (encoding.dtype === "float32" && values.dtype === "float64")
    return {
      attrs: out,
      values: { ...values, dtype: "float32", data: Float32Array.from(values.data as Float64Array) },
    };
  if (values.dtype === "datetime64[ns]" && typeof encoding.calendar === "string" && encoding.calendar === "noleap") {
    const dates = [...(values.data as BigInt64Array)].map((ns) => {
      const d = new Date(Number(ns / 1_000_000n));
      return new CFDatetime(
        d.getUTCFullYear(),
        d.getUTCMonth() + 1,
        d.getUTCDate(),
        d.getUTCHours(),
        0,
        0,
        0,
        "noleap",
      );
    });
    return { attrs: out, values: { ...values, dtype: "object", data: dates } };
  }
  return { attrs: out, values };
}
