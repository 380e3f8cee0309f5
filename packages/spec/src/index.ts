/**
 * TensorStore zarr2 and zarr3 specs: `openSpec` opens, creates or assumes the array a TensorStore
 * zarr2 or zarr3 spec or URL describes, as TensorStore 0.1.85 does; `specZarray` and `specZarrJson`
 * give the `.zarray` and `zarr.json` TensorStore writes for a create spec. Runs in browsers and Node, with the store openers the caller passes;
 * `@z/spec/node` finds them in the store packages installed.
 *
 * `openSpec` and `specZarray` load the spec machinery on first use (a page that never opens a spec
 * never loads it); the classes a caller checks against or constructs are here at once.
 *
 * @packageDocumentation
 */
import { parseJson, type JsonValue } from "@z/meta";
import type { OpenSpecOptions, SpecArray, SpecStore } from "./open.js";

import { CachePool as CachePoolClass, SpecContext as SpecContextClass } from "./context.js";
import { SpecError as SpecErrorClass, SpecUnsupportedError as SpecUnsupportedClass } from "./errors.js";

export type { ConcurrencyLimit, Provider, ResourceOf, Resources } from "./context.js";

// The classes are constants rather than re-exports: with code splitting, esbuild keeps a re-exported
// module in what a page loads first whenever a module loaded later (openSpec's) uses it too, so a
// page that never opens a spec would load them. An unused constant is left out with its import.
// They are the same classes as the spec modules' own.

/**
 * A TensorStore context: give the same one to several `openSpec` calls to share its cache pool and
 * in-memory stores between them (each call without one gets a fresh context, as TensorStore's
 * Python API does).
 */
export const SpecContext: typeof SpecContextClass = SpecContextClass;
/** An instance of `SpecContext`. */
export type SpecContext = SpecContextClass;
/** A cache pool: bytes of stored values, least recently used dropped first past `totalBytesLimit`. */
export const CachePool: typeof CachePoolClass = CachePoolClass;
/** An instance of `CachePool`. */
export type CachePool = CachePoolClass;
/** A spec TensorStore refuses too (`ZARR_SPEC`); `member` names the member as a dotted path. */
export const SpecError: typeof SpecErrorClass = SpecErrorClass;
/** An instance of `SpecError`. */
export type SpecError = SpecErrorClass;
/** A spec TensorStore accepts but this library does not do (`ZARR_SPEC_UNSUPPORTED`), saying why. */
export const SpecUnsupportedError: typeof SpecUnsupportedClass = SpecUnsupportedClass;
/** An instance of `SpecUnsupportedError`. */
export type SpecUnsupportedError = SpecUnsupportedClass;
// A view's class loads with `openSpec`; tell a view from an array with `instanceof ZarrArray`.
export type { SpecFieldView, FieldViewOptions } from "./field-view.js";
export type { OpenSpecOptions, SpecArray, SpecStore } from "./open.js";
export type { KvStoreSpec, MemoryKvStoreSpec, RegisteredKvStoreSpec, SpecStores } from "./kvstore.js";

/**
 * Opens (or creates) the zarr array a TensorStore zarr2 or zarr3 spec describes, as TensorStore
 * 0.1.85 would: `spec` is the driver's JSON spec (`{"driver": "zarr2", "kvstore": ..., ...}`,
 * `{"driver": "zarr3", ...}`) or a TensorStore URL (`file:///data/x.zarr|zarr2:`, `...|zarr3:`). An
 * existing array must match the spec's `metadata` and `schema` constraints (a `SpecError` names the
 * member that does not); a new one gets the `.zarray` or `zarr.json` TensorStore would write. Plain dtypes give a `ZarrArray`; a structured dtype's
 * field, `|S<n>`/`|V<n>` and `open_as_void` a `SpecFieldView` with the field's dimensions appended,
 * as TensorStore presents them. Stores come from the openers in `options` (in Node,
 * `openSpec` from `@z/spec/node` gives them all); `memory` kvstores live in `options.context`.
 */
export async function openSpec(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecArray> {
  const { openSpec: open } = await import("./open.js");
  return open(spec, options);
}

/**
 * The store a spec's `kvstore` (and legacy `path`) name, and the node path in it, opened with the
 * openers in `options`, without looking at the array there (the spec is checked, not applied).
 */
export async function openSpecStore(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecStore> {
  const { openSpecStore: open } = await import("./open.js");
  return open(spec, options);
}

/**
 * The `.zarray` text TensorStore 0.1.85 writes when it creates the array a zarr2 create spec
 * (`"create": true`) describes: chunks chosen from the chunk layout constraints, its default
 * compressor, fill value, order and separator, as compact JSON. Rejects with a `SpecError` for a
 * spec TensorStore refuses. No I/O.
 */
export async function specZarray(spec: JsonValue): Promise<string> {
  const [{ specZarray: resolve }, { prepareKvStores }] = await Promise.all([
    import("./create.js"),
    import("./kvstore.js"),
  ]);
  await prepareKvStores(spec);
  return resolve(spec);
}

/**
 * The `zarr.json` text TensorStore 0.1.85 writes when it creates the array a zarr3 create spec
 * (`"create": true`) describes: the chunk grid chosen from the chunk layout constraints, a
 * `sharding_indexed` codec where the read and write chunks differ, the codec chain completed with
 * TensorStore's defaults (`bytes` little-endian, blosc's `typesize` and `shuffle` from the element
 * size, ...), as compact JSON. Rejects with a `SpecError` for a spec TensorStore refuses. No I/O.
 */
export async function specZarrJson(spec: JsonValue): Promise<string> {
  const [{ specZarrJson: resolve }, { prepareKvStores }] = await Promise.all([
    import("./create.js"),
    import("./kvstore.js"),
  ]);
  await prepareKvStores(spec);
  return resolve(spec);
}

/**
 * Spec text as TensorStore reads it: JSON with integers past 2^53 kept exact (as `bigint`) and
 * floats kept apart from integers (`1.0` is not `1` where a member takes integers).
 */
export function parseSpecText(text: string): JsonValue {
  return parseJson(text, undefined, { keepFloats: true });
}
