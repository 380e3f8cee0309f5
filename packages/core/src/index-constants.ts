/*
 * A bundler workaround (esbuild's code splitting), nothing more: functions and constants
 * @z/core's index exports as constants of this module rather than as re-exports. With code
 * splitting, esbuild keeps a re-exported module in what a page loads first whenever a lazily
 * loaded module uses it too (openArray loads creation on demand, @z/spec's openSpec uses locations, info()
 * the formatting), so a page that only reads would load them all. An unused constant is left out
 * with its import. They are the same functions as their modules' own, typed in full here so that
 * the API reference shows their signatures.
 */
import type { CodecRegistry } from "@z/codecs/registry";
import {
  fixed1 as fixed1Of,
  humanSize as humanSizeOf,
  openLocation as openLocationOf,
  parseLocation as parseLocationOf,
  pythonTupleRepr,
  type ArrayMetadata,
  type ArrayMetadataV3,
  type CodecConfig,
  type DataType,
  type JsonObject,
  type Location,
  type LocationOptions,
  type OpenedLocation,
  type Store,
  type TypedArray,
} from "@z/meta";
import type { ZarrArray } from "./array.js";
import type { CreateOptions } from "./create.js";
import * as reprs from "./codec-repr.js";
import * as creation from "./create.js";
import type { NdArrayLike } from "./nd-array.js";
import * as migration from "./migrate-v3-lazy.js";
import { MigrationError as MigrationErrorClass } from "./migration-error.js";
import type { MigratedDocument, MigrateToV3Options, RemoveMetadataOptions } from "./migrate-v3.js";
import * as objects from "./object-create.js";
import * as nested from "./nested-chunks.js";
import * as values from "./values.js";
import type { WriteSource } from "./values.js";

/** Creates an array, with every ancestor group, and returns it opened. */
export const create: (options: CreateOptions) => Promise<ZarrArray> = creation.create;
/** An array without a fill value: unwritten regions are undefined (read as zeros here). */
export const empty: (options: Omit<CreateOptions, "fillValue">) => Promise<ZarrArray> = creation.empty;
/** An array whose unwritten regions read as zeros (fill value 0). */
export const zeros: (options: Omit<CreateOptions, "fillValue">) => Promise<ZarrArray> = creation.zeros;
/** An array whose unwritten regions read as ones (fill value 1). */
export const ones: (options: Omit<CreateOptions, "fillValue">) => Promise<ZarrArray> = creation.ones;
/** An array whose unwritten regions read as `fillValue`. */
export const full: (options: CreateOptions & { fillValue: unknown }) => Promise<ZarrArray> = creation.full;
/** Creates an array holding `data` (its shape and, unless given, its dtype). */
export const array: (
  data: NdArrayLike | TypedArray,
  options?: Omit<CreateOptions, "shape"> & { shape?: CreateOptions["shape"] },
) => Promise<ZarrArray> = creation.array;
/** An array like `a` (shape, chunks, dtype, compressor, filters, order), without a fill value; `options` override. */
export const emptyLike: (a: ZarrArray, options?: Partial<CreateOptions>) => Promise<ZarrArray> = creation.emptyLike;
/** An array like `a` (shape, chunks, dtype, compressor, filters, order), fill value 0; `options` override. */
export const zerosLike: (a: ZarrArray, options?: Partial<CreateOptions>) => Promise<ZarrArray> = creation.zerosLike;
/** An array like `a` (shape, chunks, dtype, compressor, filters, order), fill value 1; `options` override. */
export const onesLike: (a: ZarrArray, options?: Partial<CreateOptions>) => Promise<ZarrArray> = creation.onesLike;
/** An array like `a`, with its fill value (shape, chunks, dtype, compressor, filters, order); `options` override. */
export const fullLike: (a: ZarrArray, options?: Partial<CreateOptions>) => Promise<ZarrArray> = creation.fullLike;
/** The metadata zarr-python's `init_array` would write for the same arguments. */
export const arrayMetadataFor: (options: CreateOptions) => ArrayMetadata = creation.arrayMetadataFor;
/** A codec config written like numcodecs' repr, e.g. `Zlib(level=1)`. */
export const codecRepr: (config: CodecConfig | null) => string = reprs.codecRepr;
/** Python's `'%.1f'`: correctly rounded, ties to even (JS `toFixed` rounds ties up). */
export const fixed1: (x: number) => string = fixed1Of;
/** zarr-python's `human_readable_size`. */
export const humanSize: (n: number) => string = humanSizeOf;
/** Python's tuple repr: `(3,)`, `(2, 3)`, `()`. */
export const tupleRepr: (values: readonly number[]) => string = pythonTupleRepr;
/** Parses a location string (see `Location` of `@z/meta`); no I/O. */
export const parseLocation: (text: string) => Location = parseLocationOf;
/**
 * The store a location names, and the node path inside it, opened with the openers in `options`
 * only (this entry runs in browsers: it imports no store package). Pass those of the packages you
 * use: `openLocation(url, { ...httpLocations() })` with `httpLocations` from `@z/store-http`, add
 * `...zipLocations` (`@z/store-zip`) for zip files. A missing one is a `LocationError` naming the
 * package and export. `@z/core/node`'s `openLocation` finds them by itself.
 */
export const openLocation: (text: string, options?: LocationOptions) => Promise<OpenedLocation> = openLocationOf;
/**
 * The codec ids that turn an object array's values into bytes, as zarr-python's object codecs
 * (`object_codec=`, or `dtype=str`/`bytes`/`"array:<dtype>"`). One of them must be the first filter
 * of an object array.
 */
export const OBJECT_CODEC_IDS: ReadonlySet<string> = objects.OBJECT_CODEC_IDS;
/**
 * zarr-python's `normalize_dtype` for object arrays: `"str"`, `"bytes"` and `"array:<dtype>"`
 * (e.g. `"array:i4"`) mean dtype `|O` with vlen-utf8, vlen-bytes or vlen-array as the object codec,
 * unless one is given. Anything else is left to the dtype parser (`undefined`).
 */
export const objectShorthand: (
  dtype: unknown,
  objectCodec: CodecConfig | undefined,
) => { dtype: DataType; objectCodec: CodecConfig } | undefined = objects.objectShorthand;
/**
 * A value to write into a selection of `shape`, checked and converted to `dtype` before any chunk
 * is touched (`key` names the array in errors): one element, or a view broadcast to `shape` as
 * numpy broadcasts. For views over arrays that write as arrays do (`@z/spec`'s field views).
 */
export const toWriteSource: (value: unknown, shape: readonly number[], dtype: DataType, key: string) => WriteSource =
  values.toWriteSource;

/**
 * Whether the chunks of the array at `path` are nested under `/` keys (`0/0`), as zarr-python's
 * NestedDirectoryStore wrote them before `.zarray` named a separator: asked of the store by listing
 * (or, without listing, by the chunk `missing` was found missing at).
 */
export const holdsNestedChunks: (
  store: Store,
  path: string,
  ndim: number,
  missing?: readonly number[],
  signal?: AbortSignal,
) => Promise<boolean> = nested.holdsNestedChunks;

/**
 * Writes a Zarr v3 `zarr.json` beside the v2 documents of the node at `options.path` and of every
 * array and group below it, as zarr-python 3's `zarr migrate v3`: chunks stay where they are (the
 * `v2` chunk key encoding names them), v2 documents are never changed, the starting node's
 * document is written last. Returns the documents in the order written.
 */
export const migrateToV3: (store: Store, options?: MigrateToV3Options) => Promise<MigratedDocument[]> =
  migration.migrateToV3;
/**
 * Removes one format's metadata documents (v2: `.zarray`, `.zattrs`, `.zgroup`, `.zmetadata`; v3:
 * `zarr.json`) below `options.path`, as zarr-python 3's `zarr remove-metadata`; refused where a
 * node has no metadata of the other format, unless `force`. Returns the keys removed.
 */
export const removeMetadata: (store: Store, zarrFormat: 2 | 3, options?: RemoveMetadataOptions) => Promise<string[]> =
  migration.removeMetadata;
/** The v3 metadata zarr-python 3's migration writes for a v2 array whose chunks use `separator`. */
export const arrayMetadataV3FromV2: (
  meta: ArrayMetadata,
  options: {
    readonly attributes?: JsonObject;
    readonly separator: "." | "/";
    readonly key?: string;
    readonly registry?: CodecRegistry;
  },
) => Promise<ArrayMetadataV3> = migration.arrayMetadataV3FromV2;

/**
 * A migration between formats (`migrateToV3`, `removeMetadata`) that cannot be made as asked
 * (`ZARR_MIGRATION`, naming the key, and the member and codec when one is to blame). Raised before
 * anything is written or removed.
 */
export const MigrationError: typeof MigrationErrorClass = MigrationErrorClass;
export type MigrationError = MigrationErrorClass;
