import { normalizeStoragePath, type Store } from "@z/meta";

/** A target file: the store it is in, and its key there. */
export interface ReferenceTarget {
  readonly store: Store;
  readonly key: string;
}

/**
 * Opens the file a reference's URL names (`https://host/data.nc`, `s3://bucket/data.nc`,
 * `file:///data/x.h5`, `/data/x.h5`): the store to read it from and its key there. The store
 * should offer `getRange` (else each chunk reads the whole file).
 */
export type OpenTarget = (url: string) => ReferenceTarget | Promise<ReferenceTarget>;

/** Whether `url` is absolute: it has a scheme (`https:`, `s3:`, `file:`) or is an absolute path. */
export const isAbsoluteUrl = (url: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("/");

/**
 * The key of the relative target `url` (`data.nc`, `../nc/data.nc`) beside the reference set at
 * `dir` (a key prefix, `""` for the root) of its store; `undefined` when it leads above the root.
 */
export function relativeKey(dir: string, url: string): string | undefined {
  const parts = dir === "" ? [] : dir.split("/");
  for (const part of url.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return normalizeStoragePath(parts.join("/"));
}
