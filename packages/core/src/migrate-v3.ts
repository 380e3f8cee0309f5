/*
 * Zarr v2 → v3 without rewriting a chunk, as zarr-python 3's `zarr migrate v3` and
 * `zarr remove-metadata` (`zarr/metadata/migrate_v3.py`, `zarr/_cli/cli.py`): a `zarr.json` beside
 * each v2 node's documents, whose `v2` chunk key encoding names the chunks where they are.
 *
 * A migration never changes or removes a v2 document, so one stopped at any point leaves a store
 * zarr-python 2 and TensorStore's `zarr` driver read as before. Unlike zarr-python 3, which writes
 * each `zarr.json` as it converts its node, every document is made (and every refusal raised)
 * before the first is written; they are written members first, the starting node's last, so a
 * `zarr.json` at the start means the whole hierarchy below it has one.
 */
import type { CodecRegistry } from "@z/codecs/registry";
import {
  isListable,
  isWritable,
  keyPrefix,
  normalizeStoragePath,
  parseArrayMetadata,
  parseAttributes,
  parseGroupMetadata,
  type ArrayMetadata,
  type ArrayMetadataV3,
  type DataType,
  type DimensionSeparator,
  type FillValue,
  type JsonObject,
  type JsonValue,
  type ListableStore,
  type Store,
  type WritableStore,
} from "@z/meta";
import {
  arrayMetadataV3ToJson,
  dataTypeToV3,
  parseArrayMetadataV3,
  parseDataTypeV3,
  serializeArrayMetadataV3,
  serializeGroupMetadataV3,
} from "@z/meta/v3";
import { normalizeFillValue } from "@z/meta/create";
import { ArgumentError, ReadOnlyError } from "./errors.js";
import { MigrationError } from "./migration-error.js";
import { ARRAY_META, ATTRS, GROUP_META, ZARR_JSON, arrayMetaKey, attrsKey, groupMetaKey, zarrJsonKey } from "./keys.js";
import { migratedCodecs } from "./migrate-codecs-v3.js";
import { holdsNestedChunks } from "./nested-chunks.js";

const CONSOLIDATED = ".zmetadata";

/** One `zarr.json` a migration writes. */
export interface MigratedDocument {
  /** Its key (in the store it is written to). */
  readonly key: string;
  /** The node's path. */
  readonly path: string;
  readonly nodeType: "array" | "group";
  /** The v2 document it was made from (`.zarray` or `.zgroup`). */
  readonly source: string;
  /** The document's text, as zarr-python 3 writes it. */
  readonly text: string;
}

export interface MigrateToV3Options {
  /** The node to start at (default the root): it and every member below it are migrated. */
  readonly path?: string;
  /**
   * Where the `zarr.json` documents go, at the same keys (default the store itself, beside the v2
   * documents). It must hold nothing yet (after `overwrite`), as zarr-python 3 opens it with `w-`.
   */
  readonly output?: Store;
  /** Make the documents and say what would be written (`onDocument`), write nothing. */
  readonly dryRun?: boolean;
  /**
   * First remove the v3 metadata already at the output (as `removeMetadata(output, 3, { force })`),
   * as `zarr migrate --overwrite` does; without it an existing `zarr.json` is refused.
   */
  readonly overwrite?: boolean;
  /** With `overwrite`: remove `zarr.json` documents that have no v2 document beside them too. */
  readonly force?: boolean;
  /** The codecs that complete the v2 configs (numcodecs' `get_config()`); default `defaultCodecRegistry()`. */
  readonly registry?: CodecRegistry;
  /** Called once every document is made, before the first is written (a progress bar's total). */
  readonly onPlanned?: (documents: readonly MigratedDocument[]) => void;
  /** Called for each document, in the order they are written, as each is written (or would be). */
  readonly onDocument?: (document: MigratedDocument) => void;
  /** Called for each `zarr.json` `overwrite` removes (or would remove). */
  readonly onRemove?: (key: string) => void;
  readonly signal?: AbortSignal;
}

/**
 * Writes a v3 `zarr.json` for the v2 node at `options.path` and each array and group below it
 * (see the top of this file), and returns them in the order written. Refused, before anything is
 * written, with a `MigrationError`: a node that is not v2, a `zarr.json` already there (unless
 * `overwrite`), a non-empty `output`, a codec
 * zarr-python 3 has no v3 codec for, or one of the wrong kind.
 */
export async function migrateToV3(
  store: Store,
  options: MigrateToV3Options & { readonly registry: CodecRegistry },
): Promise<MigratedDocument[]> {
  const path = normalizeStoragePath(options.path);
  const output = options.output ?? store;
  const signal = options.signal;
  if (!options.dryRun && !isWritable(output))
    throw new ReadOnlyError(options.output ? "the output store" : "the store");
  if (options.overwrite) {
    if (!isListable(output)) throw new ArgumentError("overwrite needs an output store that can list its keys");
    await removeMetadata(output, 3, {
      path: options.output ? "" : path,
      force: options.force ?? false,
      dryRun: options.dryRun ?? false,
      onRemove: options.onRemove,
      signal,
    });
  }
  const outputPath = options.output ? "" : path;
  if (options.output !== undefined && !options.overwrite && isListable(output)) {
    const held = await output.list(keyPrefix(outputPath), { signal });
    if (held.length > 0)
      throw new MigrationError(
        `the output store is not empty (it holds ${held[0]}${held.length > 1 ? `, and ${held.length - 1} more keys` : ""})`,
        {
          key: held[0],
        },
      );
  }
  const documents = await planMigration(store, path, options.registry, signal);
  const placed = documents.map((d) => {
    const relative = path === "" ? d.path : d.path === path ? "" : d.path.slice(path.length + 1);
    const at = options.output ? relative : d.path;
    return { ...d, key: zarrJsonKey(at) };
  });
  // Checked before the first write: zarr-python 3 refuses each one as it meets it.
  if (!(options.overwrite && options.dryRun)) {
    for (const d of placed) {
      if ((await output.get(d.key, { signal })) !== undefined)
        throw new MigrationError(
          `${d.key} already exists: the node has v3 metadata already (remove it with \`remove-metadata v3\`, or migrate with overwrite)`,
          { key: d.key },
        );
    }
  }
  options.onPlanned?.(placed);
  const encoder = new TextEncoder();
  for (const d of placed) {
    signal?.throwIfAborted();
    if (!options.dryRun) await (output as WritableStore).set(d.key, encoder.encode(d.text), { signal });
    options.onDocument?.(d);
  }
  return placed;
}

/**
 * The documents for the v2 node at `path` and its members, members first (as zarr-python 3's
 * `_convert_group` converts them before the group), in name order.
 */
async function planMigration(
  store: Store,
  path: string,
  registry: CodecRegistry,
  signal: AbortSignal | undefined,
): Promise<MigratedDocument[]> {
  const out: MigratedDocument[] = [];
  const visit = async (at: string, start: boolean): Promise<void> => {
    signal?.throwIfAborted();
    const zarray = await store.get(arrayMetaKey(at), { signal });
    if (zarray !== undefined) {
      out.push(await migratedArray(store, at, zarray, registry, signal));
      return;
    }
    const zgroup = await store.get(groupMetaKey(at), { signal });
    if (zgroup === undefined) {
      if (!start) return; // a directory that is no v2 node: no member of the group (zarr-python 3 skips it)
      const v3 = (await store.get(zarrJsonKey(at), { signal })) !== undefined;
      throw new MigrationError(
        v3
          ? `${zarrJsonKey(at)} is there but no ${ARRAY_META} or ${GROUP_META}: only arrays and groups with Zarr v2 metadata can be migrated`
          : `no Zarr v2 array or group at ${at === "" ? "the root" : JSON.stringify(at)} (no ${arrayMetaKey(at)} or ${groupMetaKey(at)})`,
        { key: groupMetaKey(at) },
      );
    }
    parseGroupMetadata(zgroup, groupMetaKey(at));
    for (const name of await memberNames(store, at, signal)) await visit(at === "" ? name : `${at}/${name}`, false);
    out.push({
      key: zarrJsonKey(at),
      path: at,
      nodeType: "group",
      source: groupMetaKey(at),
      text: serializeGroupMetadataV3({
        zarrFormat: 3,
        nodeType: "group",
        attributes: await attributesAt(store, at, signal),
      }),
    });
  };
  await visit(path, true);
  return out;
}

async function migratedArray(
  store: Store,
  path: string,
  bytes: Uint8Array,
  registry: CodecRegistry,
  signal: AbortSignal | undefined,
): Promise<MigratedDocument> {
  const key = arrayMetaKey(path);
  const meta = parseArrayMetadata(bytes, key);
  const separator = await separatorOf(store, path, meta, signal);
  const v3 = await arrayMetadataV3FromV2(meta, {
    attributes: await attributesAt(store, path, signal),
    separator,
    registry,
    key,
  });
  return { key: zarrJsonKey(path), path, nodeType: "array", source: key, text: serializeArrayMetadataV3(v3) };
}

/**
 * The separator the chunks are stored with: the `.zarray`'s; without one, `/` where they are found
 * nested (zarr-python < 2.8's NestedDirectoryStore, see nested-chunks.ts), else `.`. (zarr-python 3
 * takes `.` whenever `.zarray` names none, which would lose such chunks.)
 */
async function separatorOf(
  store: Store,
  path: string,
  meta: ArrayMetadata,
  signal: AbortSignal | undefined,
): Promise<DimensionSeparator> {
  if (meta.dimensionSeparator !== undefined) return meta.dimensionSeparator;
  const fromStore = (store as { dimensionSeparator?: unknown }).dimensionSeparator;
  if (fromStore === "." || fromStore === "/") return fromStore;
  return (await holdsNestedChunks(store, path, meta.shape.length, undefined, signal)) ? "/" : ".";
}

async function attributesAt(store: Store, path: string, signal: AbortSignal | undefined): Promise<JsonObject> {
  const bytes = await store.get(attrsKey(path), { signal });
  // floats stay floats (1.0), as zarr-python re-dumps what it loaded
  return bytes === undefined ? {} : parseAttributes(bytes, attrsKey(path), { keepFloats: true });
}

/** The names under `path` that may be members: sub-directories (as zarr-python 3 lists a group's members). */
async function memberNames(store: Store, path: string, signal: AbortSignal | undefined): Promise<string[]> {
  const prefix = keyPrefix(path);
  if (typeof store.listDir === "function") return (await store.listDir(prefix, { signal })).prefixes.sort();
  if (!isListable(store)) throw new ArgumentError("migrating a group needs a store that can list its keys");
  const names = new Set<string>();
  for (const key of await store.list(prefix, { signal })) {
    const slash = key.indexOf("/", prefix.length);
    if (slash !== -1) names.add(key.slice(prefix.length, slash));
  }
  return [...names].sort();
}

/**
 * The v3 metadata zarr-python 3's migration writes for a v2 array (`_convert_array_metadata`): the
 * same shape, chunk grid and data type; the `v2` chunk key encoding with `separator`; the codecs
 * of migrate-codecs-v3.ts; the fill value (a v2 `null` becomes the type's default, NaT for
 * datetimes, which is what zarr-python 3 reads a `null` fill as: its own migration fails on it);
 * `attributes`; no dimension names.
 */
export async function arrayMetadataV3FromV2(
  meta: ArrayMetadata,
  options: {
    readonly attributes?: JsonObject;
    readonly separator: DimensionSeparator;
    readonly registry: CodecRegistry;
    readonly key?: string;
  },
): Promise<ArrayMetadataV3> {
  const key = options.key ?? ARRAY_META;
  const v3Key = key.endsWith(ARRAY_META) ? key.slice(0, -ARRAY_META.length) + ZARR_JSON : ZARR_JSON;
  const type = parseDataTypeV3(dataTypeV3(meta, key) as JsonValue, key, "dtype");
  const codecs = await migratedCodecs({ meta, key, registry: options.registry });
  const fill = meta.fillValue === null ? defaultFill(meta.dtype) : meta.fillValue;
  const doc = arrayMetadataV3ToJson({
    zarrFormat: 3,
    nodeType: "array",
    shape: meta.shape,
    dataType: type.dataType,
    dtype: type.dtype,
    chunkGrid: { name: "regular", configuration: { chunk_shape: [...meta.chunks] } },
    chunkShape: meta.chunks,
    chunkKeyEncoding: { name: "v2", configuration: { separator: options.separator } },
    chunkKeys: { name: "v2", separator: options.separator },
    fillValue: fill,
    codecs,
    attributes: options.attributes ?? {},
    storageTransformers: [],
  });
  return parseArrayMetadataV3(doc, v3Key);
}

function dataTypeV3(meta: ArrayMetadata, key: string) {
  if (meta.dtype.kind === "O") {
    // zarr-python 3 keeps the object codec among the filters, and finds no v3 codec for it
    const codec = meta.filters?.[0]?.id ?? "none";
    throw new MigrationError(
      `${key}: an object array (dtype |O, object codec ${JSON.stringify(codec)}) cannot be migrated: zarr-python 3 finds no numcodecs.${codec} codec ("Couldn't find corresponding zarr.codecs.numcodecs codec for ${codec}"); copy it into a new v3 array instead`,
      { key },
    );
  }
  return dataTypeToV3(meta.dtype);
}

/** zarr-python 3's `default_scalar()`: zero, `""`, no bytes, NaT for datetimes. */
function defaultFill(dtype: DataType): FillValue {
  switch (dtype.kind) {
    case "M":
    case "m":
      return normalizeFillValue("NaT", dtype);
    case "U":
      return "";
    case "S":
    case "V":
    case "structured":
      return new Uint8Array(dtype.itemsize);
    default:
      return normalizeFillValue(0, dtype);
  }
}

const DOCUMENTS: Readonly<Record<2 | 3, readonly string[]>> = {
  2: [ARRAY_META, ATTRS, GROUP_META, CONSOLIDATED],
  3: [ZARR_JSON],
};
/** The documents whose presence makes a node of the format there (zarr-python 3's `_metadata_exists`). */
const NODE_DOCUMENTS: Readonly<Record<2 | 3, readonly string[]>> = { 2: [ARRAY_META, GROUP_META], 3: [ZARR_JSON] };

export interface RemoveMetadataOptions {
  /** The node below which (itself included) documents are removed; default the root. */
  readonly path?: string;
  /** Remove them even where the node has no metadata of the other format (it is then lost). */
  readonly force?: boolean;
  /** Say what would be removed (`onRemove`), remove nothing. */
  readonly dryRun?: boolean;
  /** Called for each document removed (or that would be). */
  readonly onRemove?: (key: string) => void;
  readonly signal?: AbortSignal;
}

/**
 * Removes one format's metadata documents below `path`, as zarr-python 3's `remove_metadata`:
 * v2's `.zarray`, `.zattrs`, `.zgroup` and `.zmetadata`, or v3's `zarr.json`. Each must have the
 * other format's node document beside it (`.zarray`/`.zgroup` for v3's, `zarr.json` for v2's)
 * unless `force`; one that does not is a `MigrationError`, raised before anything is removed.
 * Returns the keys removed, sorted.
 */
export async function removeMetadata(
  store: Store,
  zarrFormat: 2 | 3,
  options: RemoveMetadataOptions = {},
): Promise<string[]> {
  if (zarrFormat !== 2 && zarrFormat !== 3)
    throw new ArgumentError(`zarrFormat must be 2 or 3, got ${String(zarrFormat)}`);
  if (!isListable(store)) throw new ArgumentError("removing metadata needs a store that can list its keys");
  if (!options.dryRun && !isWritable(store)) throw new ReadOnlyError("the store");
  const other = zarrFormat === 2 ? 3 : 2;
  const signal = options.signal;
  const prefix = keyPrefix(normalizeStoragePath(options.path));
  const names = DOCUMENTS[zarrFormat];
  const keys = (await (store as ListableStore).list(prefix, { signal }))
    .filter((key) => names.includes(key.slice(key.lastIndexOf("/") + 1)))
    .sort();
  const alternative = new Map<string, boolean>();
  for (const key of keys) {
    const dir = key.slice(0, key.lastIndexOf("/") + 1);
    let has = alternative.get(dir);
    if (has === undefined) {
      has = false;
      for (const name of NODE_DOCUMENTS[other]) if ((await store.get(dir + name, { signal })) !== undefined) has = true;
      alternative.set(dir, has);
    }
    if (!has && !options.force) {
      throw new MigrationError(
        `cannot remove v${zarrFormat} metadata at ${key}: no v${other} metadata exists there (${NODE_DOCUMENTS[other].map((n) => dir + n).join(" or ")}); to remove it anyway, use force`,
        { key },
      );
    }
  }
  for (const key of keys) {
    signal?.throwIfAborted();
    if (!options.dryRun) await (store as WritableStore).delete(key, { signal });
    options.onRemove?.(key);
  }
  return keys;
}
