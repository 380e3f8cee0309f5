/**
 * `openSpec` in Node: every kvstore a spec may name, from the store packages installed (loaded on
 * first use: `file` needs @z/store-fs, `http` @z/store-http, `zip` @z/store-zip).
 */
import type { JsonValue } from "@z/meta";
import {
  openSpec as openAnySpec,
  openSpecStore as openAnySpecStore,
  SpecUnsupportedError,
  type OpenSpecOptions,
  type SpecArray,
  type SpecStore,
} from "../spec/index.js";
import type { SpecStores } from "../spec/kvstore.js";

/** A store package, or undefined when it is not installed. */
async function load<T>(name: string, get: () => Promise<T>): Promise<T | (() => never)> {
  try {
    return await get();
  } catch {
    return () => {
      throw new SpecUnsupportedError(`this spec's kvstore needs ${name} (npm install ${name})`, { member: "kvstore" });
    };
  }
}

/** The openers of every store package installed (each missing one throws, naming the package). */
export async function nodeSpecStores(): Promise<SpecStores> {
  const [fs, http, zip] = await Promise.all([
    load("@z/store-fs", () => import("@z/store-fs")),
    load("@z/store-http", () => import("@z/store-http")),
    load("@z/store-zip", () => import("@z/store-zip")),
  ]);
  const missing = (m: unknown): m is () => never => typeof m === "function";
  return {
    openDirectory: (path) => (missing(fs) ? fs() : new fs.DirectoryStore(path)),
    openFile: (path, writable) => (missing(fs) ? fs() : fs.fileByteSource(path, { writable })),
    openHttp: (url, options) => (missing(http) ? http() : new http.HttpStore(url, options)),
    openHttpFile: (url) => (missing(http) ? http() : new http.HttpByteSource(url)),
    openZip: async (source, options) =>
      missing(zip) ? zip() : zip.ZipStore.open(source, { mode: options.writable ? "a" : "r" }),
  };
}

/**
 * `openSpec` with local directories, files, HTTP and zip files opened by the store packages
 * (see `@z/core`'s `openSpec`); openers in `options` take precedence.
 */
export async function openSpec(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecArray> {
  return openAnySpec(spec, { ...(await nodeSpecStores()), ...options });
}

/** `openSpecStore` with the Node store openers (see `openSpec`). */
export async function openSpecStore(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecStore> {
  return openAnySpecStore(spec, { ...(await nodeSpecStores()), ...options });
}
