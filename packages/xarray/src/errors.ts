import { ZarrError } from "@z/meta";

/**
 * A group that is not a dataset as xarray reads one: an array without `_ARRAY_DIMENSIONS` (or with
 * one that does not match its shape), a dimension with two lengths, a variable or dimension name
 * that is not there, or a dataset that cannot be written as asked.
 */
export class DatasetError extends ZarrError {
  /** The variable at fault, when one is. */
  readonly variable: string | undefined;

  constructor(message: string, options: { key?: string; variable?: string; cause?: unknown } = {}) {
    super("ZARR_DATASET", message, options);
    this.variable = options.variable;
  }
}

/**
 * A CF attribute that cannot be decoded or encoded as xarray does: time units that are not
 * "<unit> since <date>", an unknown calendar, a `scale_factor` that is not a number, bytes that are
 * not text in their `_Encoding`. Names the variable, the attribute and what was expected.
 */
export class CFError extends ZarrError {
  readonly variable: string | undefined;
  /** The attribute (or encoding entry) at fault, e.g. `units`, `calendar`, `scale_factor`. */
  readonly attribute: string | undefined;

  constructor(message: string, options: { key?: string; variable?: string; attribute?: string; cause?: unknown } = {}) {
    super("ZARR_CF", message, options);
    this.variable = options.variable;
    this.attribute = options.attribute;
  }
}

/**
 * A label that `sel` cannot find in a coordinate (xarray raises `KeyError`), or a coordinate that
 * cannot be searched by label as asked (not 1-D, not sorted for `method: "nearest"` or a slice).
 */
export class LabelError extends ZarrError {
  /** The dimension whose coordinate was searched. */
  readonly dim: string;

  constructor(message: string, options: { dim: string }) {
    super("ZARR_LABEL", message);
    this.dim = options.dim;
  }
}
