/**
 * Zarr datasets as xarray sees them: dimensions from `_ARRAY_DIMENSIONS`, coordinates, CF
 * conventions decoded as `xr.open_zarr` decodes them, selection by position and label, and
 * datasets written so that xarray reads them back.
 *
 * ```ts
 * import { openDataset } from "@z/xarray";
 *
 * const ds = await openDataset(store); // a Store, or a location string
 * const day = await ds.sel({ time: "2000-01-02" });
 * const { data, shape, dtype } = await day.get("t2m").values(); // unpacked, NaN where masked
 * ```
 *
 * @packageDocumentation
 */
export {
  openDataset,
  Dataset,
  DIMENSION_KEY,
  type DatasetInit,
  type DatasetSource,
  type OpenDatasetOptions,
} from "./dataset.js";
export { Variable } from "./variable.js";
export type { Values, ValueData } from "./values.js";
export { slice, isSliceLike, type LabelSlice, type PositionIndexer } from "./view.js";
export type { Label, LabelIndexer, LabelIndexers, SelOptions } from "./labels.js";
export { CFDatetime } from "./cf/cftime.js";
export { type Calendar, calendarNamed, isStandardCalendar } from "./cf/calendar.js";
export type { DecodeOptions } from "./cf/decode.js";
export { NAT } from "./cf/times.js";
export { DatasetError, CFError, LabelError } from "./errors.js";
export { createDataset, createVariable, type DatasetSpec, type VariableSpec } from "./create.js";
export { toZarr, type ToZarrOptions } from "./to-zarr.js";
export { datasetRepr, formatTimestamp } from "./repr.js";
