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

/** A write, resize or attribute change on an array or group opened read-only. */
export class ReadOnlyError extends ZarrError {
  constructor(what: string, options: { key?: string } = {}) {
    super("ZARR_READ_ONLY", `${what} is read-only`, options);
  }
}

/** An invalid argument to an API call (bad mode, bad shape, …). */
export class ArgumentError extends ZarrError {
  constructor(message: string) {
    super("ZARR_ARGUMENT", message);
  }
}

/** A store failed or refused an operation (read-only store, bad key, I/O error). */
export class StoreError extends ZarrError {
  constructor(message: string, options: { key?: string; cause?: unknown } = {}) {
    super("ZARR_STORE", message, options);
  }
}

/**
 * A size computed from metadata that is more than can be allocated here: a chunk's bytes (from
 * `chunks` and `dtype`), a selection's result (from `shape` or the selection), a count a codec
 * reads. Thrown before anything that size is allocated. zarr-python opens such arrays and fails on
 * the read or write that would allocate (numpy: "array is too big"); so does z: opening works, and
 * the operation that would need the memory throws this. `size` is what was asked for, `limit` the
 * most allowed (see `MAX_CHUNK_BYTES` and `MAX_RESULT_LENGTH`).
 */
export class TooLargeError extends ZarrError {
  /** The metadata field the size comes from (`chunks`, `shape`, ...), when one is to blame. */
  readonly field: string | undefined;
  /** The size asked for (bytes or values, as the message says). */
  readonly size: number;
  /** The most allowed, in the same unit. */
  readonly limit: number;

  constructor(
    message: string,
    options: { key?: string; field?: string; size: number; limit: number; cause?: unknown },
  ) {
    super("ZARR_TOO_LARGE", message, options);
    this.field = options.field;
    this.size = options.size;
    this.limit = options.limit;
  }
}

/**
 * Something a Zarr v3 document asks for that z does not implement, refused by name as the spec
 * requires ("an implementation MUST fail to open ... if any metadata fields are present which it
 * does not recognize and are not `must_understand: false`"): a data type, chunk grid or chunk key
 * encoding it does not know, a storage transformer, or a top-level member of `zarr.json` it does
 * not know. The document itself may be valid; z cannot read it faithfully.
 */
export class UnsupportedExtensionError extends ZarrError {
  /** The member of the document that names it (`data_type`, `chunk_grid`, `storage_transformers`, a top-level member). */
  readonly field: string;
  /** The extension's name (or the top-level member's). */
  readonly extension: string;

  constructor(message: string, options: { key?: string; field: string; extension: string; cause?: unknown }) {
    super("ZARR_UNSUPPORTED", message, options);
    this.field = options.field;
    this.extension = options.extension;
  }
}
