/*
 * TensorStore's `zip` kvstore (tensorstore/kvstore/zip/zip_key_value_store.cc) in a spec:
 * `{"driver": "zip", "base": <kvstore>, "path": ...}` and the `|zip:path` URL adapter, opened
 * read-only (as TensorStore's is) over the base kvstore opened as one file by its own hook. The
 * kvstore spec hook of `zipStoreDriver`, which `@z/spec` loads when a spec names `zip`.
 */
import { normalizeStoragePath, type KvStoreSpecHook, type ParsedKvStore, type Store } from "@z/meta";
import { SpecError } from "@z/meta/spec";

/** A `zip` kvstore spec. */
export interface ZipKvStoreSpec {
  readonly driver: "zip";
  /** The kvstore of the zip file. */
  readonly base: ParsedKvStore;
  /** The node's path inside the zip file. */
  readonly path: string;
}

/** A store without its writing methods (TensorStore's zip kvstore only reads). */
function readOnlyStore(store: Store): Store {
  const { get, getRange, list, listDir } = store;
  return {
    get: get.bind(store),
    ...(getRange === undefined ? {} : { getRange: getRange.bind(store) }),
    ...(list === undefined ? {} : { list: list.bind(store) }),
    ...(listDir === undefined ? {} : { listDir: listDir.bind(store) }),
  };
}

/** The hook `zipStoreDriver.kvstoreSpec()` gives. */
export const zipKvStoreSpec: KvStoreSpecHook<ZipKvStoreSpec> = {
  drivers: ["zip"],
  urlAdapters: ["zip"],
  parse: (m, path, tools) => {
    const base = m.take("base");
    if (base === undefined)
      throw new SpecError("Expected kvstore spec, but member is missing", { member: m.at("base") });
    m.take("cache_pool");
    m.take("data_copy_concurrency");
    return { driver: "zip", base: tools.parseKvStore(base, m.at("base")), path };
  },
  adapt: (base, path) => ({ driver: "zip", base, path }),
  toJson: (spec, tools) => ({ driver: "zip", base: tools.kvstoreJson(spec.base), path: spec.path }),
  describe: (spec, tools) => `${tools.describeKvStore(spec.base)}|zip:${spec.path}`,
  openers: (spec, tools) => [...tools.sourceOpeners(spec.base), "openZip"],
  open: async (spec, tools) => {
    const source = await tools.openSource(spec.base, "kvstore.base");
    const zip = await tools.stores.openZip!(source, { writable: false });
    const close = async (): Promise<void> => {
      await zip.close();
      await (source as { close?: () => Promise<void> }).close?.();
    };
    return { store: readOnlyStore(zip), path: normalizeStoragePath(spec.path.replace(/\/+$/, "")), close };
  },
};
