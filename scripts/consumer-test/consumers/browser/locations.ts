// Opening a location by URL in the browser (design-18): @z/core's openLocation uses only the
// openers it is given, here @z/store-http's `httpLocations()`; without them it says what to pass.
import { LocationError, openArray, openLocation, slice } from "@z/core";
import { httpLocations } from "@z/store-http";
import { dataUrl, report } from "./report.js";

report("locations", async () => {
  const url = `${dataUrl}hierarchy.zarr|zarr2:sub/zlib`;
  try {
    await openLocation(url);
    throw new Error("openLocation(url) opened an http URL without httpLocations()");
  } catch (error) {
    const named = error instanceof Error && /@z\/store-http/.test(error.message) && /httpLocations/.test(error.message);
    if (!(error instanceof LocationError) || !named)
      throw new Error(`expected a LocationError naming @z/store-http and httpLocations, got ${String(error)}`);
  }
  const { store, path, close } = await openLocation(url, { ...httpLocations() });
  const z = await openArray(store, { path, mode: "r" });
  const { shape, data } = await z.get([slice(10, 40, 3), slice(5, 18)]);
  await close();
  return { "sub/zlib": { shape, values: Array.from(data as ArrayLike<number>) } };
});
