import type { LocationStores, Store } from "@z/meta";
import { ReferenceStoreError } from "./errors.js";
import { ReferenceStore, type ReferenceStoreOptions } from "./reference-store.js";
import type { OpenTarget, ReferenceTarget } from "./targets.js";

/** Options of {@link referenceLocations}. */
export interface ReferenceLocationOptions extends Omit<ReferenceStoreOptions, "openTarget" | "baseUrl"> {
  /**
   * The openers the targets are read with, per kind of URL (fsspec's `remote_options`): e.g.
   * `{ ...httpLocations({ headers }), ...s3Locations({ credentials }) }`; default those that open
   * the reference file itself.
   */
  readonly targets?: LocationStores;
}

/**
 * Reference sets for `openLocation` of `@z/core` (the `openReference` of `LocationStores`):
 * `openLocation("reference://refs.json", { ...referenceLocations(), ...httpLocations(), ...fsLocations })`
 * reads the reference file and its targets through the other openers given (`openHttp` for
 * `https://`, `openS3` for `s3://`, `openDirectory` for paths and `file://`).
 */
export function referenceLocations(options: ReferenceLocationOptions = {}): LocationStores {
  return {
    openReference: async (file, stores) => {
      const { store, key } = await fileIn(file, stores);
      const targets = options.targets ?? stores;
      return ReferenceStore.open(store, key, {
        ...options,
        openTarget: locationTargets(targets),
        ...(/^[a-z][a-z0-9+.-]*:\/\//i.test(file) ? { baseUrl: file } : {}),
      });
    },
  };
}

/**
 * An {@link OpenTarget} over `stores`: a target URL opens the store of its directory (once per
 * directory) and reads the file's name there.
 */
export function locationTargets(stores: LocationStores): OpenTarget {
  const opened = new Map<string, Promise<Store>>();
  return (url) => {
    const slash = url.lastIndexOf("/");
    const dir = url.slice(0, slash + 1);
    let store = opened.get(dir);
    if (store === undefined) {
      store = directoryStore(dir, url, stores);
      opened.set(dir, store);
    }
    return store.then((store) => ({ store, key: decodeName(url.slice(slash + 1), url) }));
  };
}

/** The store of the directory holding `file` (a path or URL), and the file's name in it. */
async function fileIn(file: string, stores: LocationStores): Promise<ReferenceTarget> {
  const trimmed = file.replace(/\/+$/, "");
  const slash = trimmed.lastIndexOf("/");
  const dir = slash === -1 ? "" : trimmed.slice(0, slash + 1);
  const name = trimmed.slice(slash + 1);
  const store = await directoryStore(dir, file, stores);
  const key = /^[a-z][a-z0-9+.-]*:\/\//i.test(file) ? decodeName(name, file) : name;
  return { store, key };
}

/** The store of the directory `dir` (a path or URL ending in `/`, or `""`), for `file` in it. */
async function directoryStore(dir: string, file: string, stores: LocationStores): Promise<Store> {
  const need = <K extends keyof LocationStores>(opener: K, what: string): NonNullable<LocationStores[K]> => {
    const f = stores[opener];
    if (typeof f !== "function")
      throw new ReferenceStoreError(
        "Z_REFERENCE_TARGET",
        `${file}: ${what} need the ${opener} opener (see LocationStores)`,
        {
          target: file,
        },
      );
    return f as NonNullable<LocationStores[K]>;
  };
  if (/^https?:\/\//i.test(dir)) return need("openHttp", "http(s) URLs")(dir);
  if (/^s3:\/\//i.test(dir)) return need("openS3", "s3:// URLs")(dir.replace(/\/$/, ""));
  if (/^file:/i.test(dir) || !/^[a-z][a-z0-9+.-]*:/i.test(dir)) {
    const path = /^file:/i.test(dir) ? decodeURIComponent(new URL(dir).pathname) : dir;
    return need("openDirectory", "local files")(path === "" ? "." : path);
  }
  throw new ReferenceStoreError(
    "Z_REFERENCE_TARGET",
    `${file}: unsupported URL scheme (expected a path, file://, http(s):// or s3://)`,
    {
      target: file,
    },
  );
}

function decodeName(name: string, url: string): string {
  try {
    return decodeURIComponent(name);
  } catch (cause) {
    throw new ReferenceStoreError("Z_REFERENCE_TARGET", `${url}: bad percent-encoding in ${JSON.stringify(name)}`, {
      target: url,
      cause,
    });
  }
}
