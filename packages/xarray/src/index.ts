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
