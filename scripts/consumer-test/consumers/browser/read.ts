// A page reading arrays zarr-python wrote, over HTTP: what the browser reader subset (@z/core +
// @z/store-http) is for. Blosc and zstd load their WebAssembly on first use.
import { openArray, slice, type NdArray } from "@z/core";
import { HttpStore } from "@z/store-http";
import { dataUrl, report } from "./report.js";

const plain = ({ shape, data }: NdArray) => ({ shape, values: Array.from(data as ArrayLike<number>) });

report("read", async () => {
  const store = new HttpStore(`${dataUrl}hierarchy.zarr`);
  const lz4 = await openArray(store, { path: "lz4", mode: "r" });
  const zstd = await openArray(store, { path: "zstd", mode: "r" });
  const zlib = await openArray(store, { path: "sub/zlib", mode: "r" });
  return {
    lz4: plain(await lz4.get([slice(3, 30, 4), slice(null, null, -3)])),
    zstd: plain(await zstd.get([slice(1, 6, 2), 4, slice(null, null, -1)])),
    "sub/zlib": plain(await zlib.get([slice(10, 40, 3), slice(5, 18)])),
  };
});
