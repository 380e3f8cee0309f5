import { ZarrError } from "@z/meta";

// Defined in @z/meta, where the generic stores and synchronizers that throw them live.
export { ArgumentError, ReadOnlyError } from "@z/meta";

/**
 * No array (or group) where one was expected, or no consolidated metadata document (`.zmetadata`)
 * where `openConsolidated` looked (zarr-python raises `KeyError`): `kind` says which, `key` names the
 * store key that is missing. Metadata that is there but corrupt is a `MetadataError` instead.
 */
export class NodeNotFoundError extends ZarrError {
  readonly path: string;
  /** What was looked for. */
  readonly kind: "array" | "group" | "array or group" | "consolidated metadata";
  constructor(
    kind: "array" | "group" | "array or group" | "consolidated metadata",
    path: string,
    options: { key?: string } = {},
  ) {
    super(
      "ZARR_NOT_FOUND",
      kind === "consolidated metadata"
        ? `no consolidated metadata found at path ${JSON.stringify(path)}${options.key === undefined ? "" : ` (no ${options.key})`}`
        : `no ${kind} found at path ${JSON.stringify(path)}`,
      options,
    );
    this.path = path;
    this.kind = kind;
  }
}

/** Something already exists where a new array or group was to be created. */
export class NodeExistsError extends ZarrError {
  readonly path: string;
  constructor(kind: "array" | "group", path: string, options: { key?: string } = {}) {
    super("ZARR_EXISTS", `path ${JSON.stringify(path)} contains ${kind === "array" ? "an array" : "a group"}`, options);
    this.path = path;
  }
}

/** A stored chunk that does not decode to a chunk of this array. */
export class ChunkError extends ZarrError {
  constructor(message: string, options: { key: string; cause?: unknown }) {
    super("ZARR_CHUNK", message, options);
  }
}

/**
 * A read touched a chunk that is not stored, on an array opened with `fillMissingChunks: false`
 * (TensorStore's `fill_missing_data_reads: false`): `key` is the chunk's store key.
 */
export class MissingChunkError extends ZarrError {
  /** The chunk's position in the chunk grid. */
  readonly chunkCoords: readonly number[];
  constructor(key: string, chunkCoords: readonly number[]) {
    super(
      "ZARR_MISSING_CHUNK",
      `chunk ${JSON.stringify(key)} is not stored, and missing chunks are not read as the fill value`,
      {
        key,
      },
    );
    this.chunkCoords = chunkCoords;
  }
}

/** A value that cannot be written to a selection (wrong shape, wrong type). */
export class ValueError extends ZarrError {
  constructor(message: string, options: { key?: string } = {}) {
    super("ZARR_VALUE", message, options);
  }
}

/** A field name that the array's structured dtype does not have, or fields of a non-structured array. */
export class FieldError extends ZarrError {
  constructor(message: string, options: { key?: string } = {}) {
    super("ZARR_FIELD", message, options);
  }
}

/**
 * An object array (dtype `|O`) without an object codec to turn its values into bytes, or an object
 * codec given for an array of another dtype.
 */
export class ObjectCodecError extends ZarrError {
  constructor(message: string, options: { key?: string } = {}) {
    super("ZARR_OBJECT_CODEC", message, options);
  }
}
