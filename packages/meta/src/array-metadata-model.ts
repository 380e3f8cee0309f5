import type { DataType } from "./dtype-model.js";
import type { CodecConfig } from "./json-value.js";

export type Order = "C" | "F";
export type DimensionSeparator = "." | "/";

/**
 * A decoded fill value: `boolean` for `b`; `number` for ints of up to 4 bytes and floats (NaN and
 * ±Infinity included); `bigint` for 8-byte ints and for `m`/`M` (NaT is -2^63); `[re, im]` for
 * complex; `string` for `U`; the element's raw bytes for `S`, `V` and structured dtypes; `null` when
 * the array has none. Object arrays may hold any JS value.
 */
export type FillValue = null | boolean | number | bigint | string | Uint8Array | readonly [number, number] | unknown;

/** The decoded content of a `.zarray` document. */
export interface ArrayMetadata {
  readonly zarrFormat: 2;
  readonly shape: readonly number[];
  readonly chunks: readonly number[];
  readonly dtype: DataType;
  readonly compressor: CodecConfig | null;
  readonly fillValue: FillValue;
  readonly order: Order;
  readonly filters: readonly CodecConfig[] | null;
  /**
   * The separator of chunk key indices. `undefined` when `.zarray` does not say, which means `.`;
   * kept apart from `.` so that rewriting metadata keeps the document as zarr-python would.
   */
  readonly dimensionSeparator?: DimensionSeparator;
}
