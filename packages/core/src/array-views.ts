// The metadata of `ZarrArray`'s `view`s and `astype`s, loaded by their first call.
import { dataTypeFromUser, dataTypeToJSON, type CodecConfig, type DataType } from "@z/meta";
import { normalizeChunks, normalizeFillValue } from "@z/meta/create";
import type { ViewOptions } from "./array-internals.js";
import type { ArrayLayout } from "./array-layout.js";

const resolveViewDtype = (dtype: string | DataType): DataType =>
  typeof dtype === "string" ? dataTypeFromUser(dtype) : dtype;

/** The metadata of a view of an array of `meta` (see `ZarrArray.view`). */
export function viewMetadata(meta: ArrayLayout, options: ViewOptions): ArrayLayout {
  const dtype = options.dtype === undefined ? meta.dtype : resolveViewDtype(options.dtype);
  const shape =
    options.shape === undefined ? meta.shape : typeof options.shape === "number" ? [options.shape] : [...options.shape];
  const chunks = options.chunks === undefined ? meta.chunks : normalizeChunks(options.chunks, shape, dtype.itemsize);
  return {
    ...meta,
    dtype,
    shape,
    chunks,
    fillValue: options.fillValue === undefined ? meta.fillValue : normalizeFillValue(options.fillValue, dtype),
    filters: options.filters === undefined ? meta.filters : options.filters,
  };
}

/** The view `astype(dtype)` is (see `ZarrArray.astype`): an `astype` filter, read-only. */
export function astypeView(meta: ArrayLayout, dtype: string | DataType): ViewOptions {
  const target = resolveViewDtype(dtype);
  const cast: CodecConfig = {
    id: "astype",
    encode_dtype: dataTypeToJSON(meta.dtype) as string,
    decode_dtype: dataTypeToJSON(target) as string,
  };
  return { dtype: target, filters: [cast, ...(meta.filters ?? [])], readOnly: true };
}
