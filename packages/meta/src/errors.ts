/**
 * Every error this project throws is a `ZarrError` with a stable `code`, so callers can branch on
 * `err.code` without string-matching messages. Each package adds its own subclasses.
 */
export class ZarrError extends Error {
  readonly code: string;
  /** The store key the error is about, when there is one (e.g. `foo/.zarray`, `foo/0.0`). */
  readonly key: string | undefined;

  constructor(code: string, message: string, options: { key?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.key = options.key;
  }
}

/** Metadata that is not valid JSON, or misses a field, or has a field of the wrong type. */
export class MetadataError extends ZarrError {
  /** The offending field (e.g. `chunks`, `fill_value`), when one is to blame. */
  readonly field: string | undefined;

  constructor(message: string, options: { key?: string; field?: string; cause?: unknown } = {}) {
    super("ZARR_METADATA", message, options);
    this.field = options.field;
  }
}

/** A dtype string or structured description that is not a valid Zarr v2 dtype. */
export class DataTypeError extends ZarrError {
  constructor(message: string, options: { key?: string; cause?: unknown } = {}) {
    super("ZARR_DTYPE", message, options);
  }
}

/** A logical path that the spec forbids (a `.` or `..` segment). */
export class PathError extends ZarrError {
  constructor(message: string, options: { key?: string } = {}) {
    super("ZARR_PATH", message, options);
  }
}

/** A store failed or refused an operation (read-only store, bad key, I/O error). */
export class StoreError extends ZarrError {
  constructor(message: string, options: { key?: string; cause?: unknown } = {}) {
    super("ZARR_STORE", message, options);
  }
}
