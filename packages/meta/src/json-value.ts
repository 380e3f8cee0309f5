/**
 * A float that must be written the way Python writes a float (`0.0`, `1e-07`, `1e+16`). JS numbers
 * do not remember whether they were floats, so metadata that zarr-python writes as a float (the
 * fill value of a float array) wraps its number in this.
 */
export class JsonFloat {
  constructor(readonly value: number) {}
}

/**
 * A JSON value as this project reads and writes it: integers beyond 2^53 are `bigint` so they stay
 * exact, and `NaN`/`Infinity`/`-Infinity` are numbers (Python writes them as bare tokens).
 */
export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | JsonFloat
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

export type JsonObject = { readonly [key: string]: JsonValue };

/** A codec's configuration as it appears in `.zarray` (`compressor`, `filters`). */
export interface CodecConfig {
  readonly id: string;
  readonly [key: string]: JsonValue;
}

/**
 * A Zarr v3 extension point as `zarr.json` writes it: a codec, a chunk grid, a chunk key encoding, a
 * data type with parameters, or a storage transformer. A bare string in the document (`"bytes"`) is
 * `{ name: "bytes" }`. `must_understand: false` marks one a reader that does not know it may ignore
 * (ZEP 9); absent, it must be understood.
 */
export interface NamedConfig {
  readonly name: string;
  readonly configuration?: JsonObject;
  readonly must_understand?: boolean;
}
