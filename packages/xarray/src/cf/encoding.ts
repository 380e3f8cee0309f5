// What the encode halves of the CF coders (times.ts, scale.ts, mask.ts, strings.ts, cast.ts) work
// on: a variable on its way to the store, as xarray's encode_cf_variable and encode_zarr_variable
// (xarray/conventions.py, xarray/backends/zarr.py) pass it from coder to coder.
import { CFError } from "../errors.js";
import type { Held } from "../values.js";

/** A variable on its way to the store: values, attributes and what encoding is left to apply. */
export interface Encoding {
  held: Held;
  /** `>` when the encoding's `dtype` asks for big-endian storage. */
  byteOrder?: ">" | undefined;
  attrs: Record<string, unknown>;
  encoding: Record<string, unknown>;
  readonly name: string;
}

/** `safe_setitem`: sets an attribute that must not be there already. */
export function safeSet(state: Encoding, key: string, value: unknown): void {
  if (key in state.attrs)
    throw new CFError(
      `${state.name}: cannot write attribute ${key}: it is in attrs already, and encoding describes how the values are stored (remove it from attrs)`,
      { variable: state.name, attribute: key },
    );
  state.attrs[key] = value;
}

/** `pop_to(encoding, attrs, key)`. */
export function popToAttrs(state: Encoding, key: string): unknown {
  const value = state.encoding[key];
  delete state.encoding[key];
  if (value !== null && value !== undefined) safeSet(state, key, value);
  return value;
}
