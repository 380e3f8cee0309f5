// A page reading a kerchunk reference set over HTTP: what the reference reader subset (@z/core +
// @z/store-http + @z/store-reference) is for. refs.parq is a Parquet reference set written by
// fsspec's LazyReferenceMapper (packages/store-reference/test/python/make_refs.py) over a NetCDF4
// file (data.nc) and an HDF5 one (data.h5) beside it; the page opens it with openLocation and the
// openers a browser has, reads every array, and the driver (scripts/consumer-test/references.mjs)
// compares the values with what fsspec's ReferenceFileSystem + zarr-python 2.13 read.
import { openArray, openLocation } from "@z/core";
import { httpLocations } from "@z/store-http";
import { referenceLocations } from "@z/store-reference";
import { referencesUrl, report } from "./report.js";

/** The arrays the driver compares: the NetCDF's packed, masked, holey and contiguous ones, and the HDF5's. */
const ARRAYS = ["temp", "precip", "time", "area", "grp/a", "grp/c", "grp/tiny"];

function base64(data: ArrayBufferView): string {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

report("references", async () => {
  const { store } = await openLocation(`reference://${referencesUrl}refs.parq`, {
    ...referenceLocations(),
    ...httpLocations(),
  });
  const arrays: Record<string, { shape: number[]; data: string }> = {};
  for (const path of ARRAYS) {
    const array = await openArray(store, { path, mode: "r" });
    const read = await array.get();
    arrays[path] = { shape: [...read.shape], data: base64(read.data as ArrayBufferView) };
  }
  return arrays;
});
