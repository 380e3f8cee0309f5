import { StoreError } from "@z/meta";

/**
 * What went wrong reading through a reference set, as its `code`:
 * - `Z_REFERENCE_FORMAT`: the reference set itself is malformed (not JSON, an entry of the wrong
 *   shape, an unknown version, a bad `gen` entry);
 * - `Z_REFERENCE_TEMPLATE`: a `{{name}}` naming no template (nor `gen` dimension), or an expression
 *   this reader does not evaluate;
 * - `Z_REFERENCE_RANGE`: a reference to bytes past the end of its target file;
 * - `Z_REFERENCE_TARGET`: the target could not be opened or read (the target store's error is the
 *   `cause`);
 * - `Z_REFERENCE_RECORD`: a Parquet record file that is malformed, or missing when
 *   `missingRecords: "error"` is asked for.
 */
export type ReferenceErrorCode =
  | "Z_REFERENCE_FORMAT"
  | "Z_REFERENCE_TEMPLATE"
  | "Z_REFERENCE_RANGE"
  | "Z_REFERENCE_TARGET"
  | "Z_REFERENCE_RECORD";

/**
 * A failure reading through a reference set. A `StoreError` (so `@z/core` reports it as a store
 * failure), whose `referenceCode` says which kind, `key` names the Zarr key read, and `target` the
 * file (URL or path) it refers to, when there is one.
 */
export class ReferenceStoreError extends StoreError {
  readonly referenceCode: ReferenceErrorCode;
  /** The target file the key refers to (URL or path), when there is one. */
  readonly target: string | undefined;

  constructor(
    code: ReferenceErrorCode,
    message: string,
    options: { key?: string; target?: string; cause?: unknown } = {},
  ) {
    super(message, options);
    // `code` stays StoreError's ZARR_STORE for callers branching on store failures; the kind is here.
    this.referenceCode = code;
    this.target = options.target;
  }
}
