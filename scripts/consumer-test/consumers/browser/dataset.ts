// A page reading a dataset xarray wrote, over HTTP: what the dataset reader subset (@z/core +
// @z/store-http + @z/xarray) is for. packed-small-consolidated.zarr is xarray's to_zarr of a
// time x lat x lon int16 variable packed with scale_factor/add_offset and a _FillValue, times as
// int32 hours since 1999-12-30, consolidated, blosc-compressed. The page opens it, decodes it and
// selects by position and by label; the driver (scripts/consumer-test/dataset.mjs) compares each
// dataset with what xarray read (the fixture's JSON).
import { HttpStore } from "@z/store-http";
import { type Dataset, formatTimestamp, openDataset, slice } from "@z/xarray";
import { report, xarrayUrl } from "./report.js";

/** JSON as the fixtures write it: NaN and infinities as strings, bigints as numbers when safe. */
function plain(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (ArrayBuffer.isView(value)) return plain(Array.from(value as unknown as ArrayLike<unknown>));
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

function base64(data: ArrayBufferView): string {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Everything of a dataset the fixture records: names, sizes, attributes, each variable's values. */
async function summary(ds: Dataset) {
  const variables: Record<string, unknown> = {};
  for (const [name, variable] of ds.variables) {
    const values = await variable.values();
    variables[name] = {
      dims: variable.dims,
      shape: variable.shape,
      dtype: variable.dtype,
      attrs: plain(variable.attrs),
      encoding: plain(variable.encoding),
      values: {
        dtype: values.dtype,
        shape: values.shape,
        ...(ArrayBuffer.isView(values.data) ? { base64: base64(values.data) } : { objects: plain(values.data) }),
      },
    };
  }
  return {
    dims: ds.dims,
    sizes: ds.sizes,
    coords: ds.coords,
    dataVars: ds.dataVars,
    variableOrder: [...ds.variables.keys()],
    attrs: plain(ds.attrs),
    variables,
  };
}

report("dataset", async () => {
  const ds = await openDataset(new HttpStore(`${xarrayUrl}packed-small-consolidated.zarr`));
  const time = await ds.get("time").values<BigInt64Array>();
  return {
    dataset: await summary(ds),
    firstTime: formatTimestamp(time.data[0] ?? 0n),
    // Each selection as the fixture records its arguments (xarray's isel/sel with these).
    selections: [
      {
        method: "isel",
        args: { lat: { slice: [2, 7, null] }, time: 0 },
        result: await summary(ds.isel({ lat: slice(2, 7), time: 0 })),
      },
      {
        method: "sel",
        args: { lat: { slice: [-30, 30, null] }, time: "2000-01-01T06:00:00" },
        result: await summary(await ds.sel({ lat: slice(-30, 30), time: "2000-01-01T06:00:00" })),
      },
      {
        method: "sel",
        args: { time: "2000-01-01" },
        result: await summary(await ds.sel({ time: "2000-01-01" })),
      },
    ],
  };
});
