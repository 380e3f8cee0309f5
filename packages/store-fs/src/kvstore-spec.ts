/*
 * TensorStore's `file` kvstore (tensorstore/kvstore/file/file_key_value_store.cc) in a spec:
 * `{"driver": "file", "path": ...}` and `file://` URLs, opened as a directory (`openDirectory`) or,
 * under a zip kvstore, as one file (`openFile`). The kvstore spec hook of `fsStoreDriver`, which
 * `@z/spec` loads when a spec names `file`.
 */
import type { KvStoreSpecHook } from "@z/meta";
import { SpecError } from "@z/meta/spec";

/** A `file` kvstore spec. */
export interface FileKvStoreSpec {
  readonly driver: "file";
  /** The directory (or, under a zip kvstore, the file). */
  readonly path: string;
}

/** The context resources a file kvstore may name; z's directory stores have no such settings. */
const RESOURCES = ["file_io_concurrency", "file_io_sync", "file_io_locking", "file_io_mode", "file_io_memmap"];

const trim = (p: string): string => p.replace(/\/+$/, "");

/** The hook `fsStoreDriver.kvstoreSpec()` gives. */
export const fileKvStoreSpec: KvStoreSpecHook<FileKvStoreSpec> = {
  drivers: ["file"],
  urlSchemes: ["file"],
  parse: (m, path) => {
    for (const r of RESOURCES) m.take(r);
    return { driver: "file", path };
  },
  parseUrl: (root, member, tools) => {
    if (!root.startsWith("file://")) throw new SpecError(`Invalid file URL: ${JSON.stringify(root)}`, { member });
    return { driver: "file", path: tools.decode(root.slice("file://".length), member) };
  },
  toJson: (spec) => ({ driver: "file", path: spec.path }),
  describe: (spec) => `file://${spec.path}`,
  openers: () => ["openDirectory"],
  open: async (spec, { stores }) => {
    const root = trim(spec.path) || (spec.path.startsWith("/") ? "/" : ".");
    return { store: await stores.openDirectory!(root), path: "" };
  },
  sourceOpeners: () => ["openFile"],
  openSource: async (spec, { stores }) => await stores.openFile!(spec.path, false),
};
