/// <reference types="node" />
/**
 * `@z/spec/node`: `openSpec` in Node. The openers a spec's kvstore needs that the caller did not
 * pass come from the store packages installed (optional peers of `@z/spec`, imported when first
 * needed: `file` needs `@z/store-fs`, `http` `@z/store-http`, `zip` `@z/store-zip`, `s3`
 * `@z/store-s3`).
 * Everything else is in `@z/spec`.
 *
 * @packageDocumentation
 */
import type { JsonValue } from "@z/meta";
import { LocationError } from "@z/core";
import { openersForKvStore, SPEC_OPENERS, type SpecStores } from "./kvstore.js";
import { parseSpec } from "./parse.js";
import {
  openSpec as openAnySpec,
  openSpecStore as openAnySpecStore,
  type OpenSpecOptions,
  type SpecArray,
  type SpecStore,
} from "./index.js";
import { importPeer } from "./node/peers.js";

/** One opener from the store package that has it, or `undefined` when that is not installed. */
async function installedOpener(name: keyof SpecStores): Promise<unknown> {
  switch (SPEC_OPENERS[name].pkg) {
    case "@z/store-fs":
      return (await importPeer("@z/store-fs"))?.fsLocations[name as "openDirectory" | "openFile"];
    case "@z/store-zip":
      return (await importPeer("@z/store-zip"))?.zipLocations.openZip;
    case "@z/store-http": {
      const http = await importPeer("@z/store-http");
      if (http === undefined) return undefined;
      if (name === "openHttpWithHeaders")
        return (url: string, headers: Record<string, string>) => new http.HttpStore(url, { headers });
      return http.httpLocations()[name as "openHttp" | "openHttpFile"];
    }
    case "@z/store-s3":
      // AWS_* given explicitly: the package's Node entry reads them too, but tests load its sources.
      return (await importPeer("@z/store-s3"))?.s3Locations({ environment: process.env }).openS3;
    default:
      return undefined;
  }
}

/**
 * The openers the kvstore of `spec` needs, from `options` or else the store packages installed; a
 * package that is not installed is a `LocationError` naming it.
 */
export async function nodeSpecStores(spec: JsonValue, options: SpecStores = {}): Promise<SpecStores> {
  const filled: Record<string, unknown> = { ...options };
  for (const name of openersForKvStore(parseSpec(spec).kvstore)) {
    if (typeof filled[name] === "function") continue;
    const opener = await installedOpener(name);
    const { pkg } = SPEC_OPENERS[name];
    if (opener === undefined)
      throw new LocationError(`this spec's kvstore needs ${pkg} (npm install ${pkg})`, { packageName: pkg });
    filled[name] = opener;
  }
  return filled as SpecStores;
}

/**
 * `openSpec` with local directories, files, HTTP, zip files and S3 buckets opened by the store packages
 * installed (see `@z/spec`'s `openSpec`); openers in `options` take precedence.
 */
export async function openSpec(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecArray> {
  return openAnySpec(spec, { ...options, ...(await nodeSpecStores(spec, options)) });
}

/** `openSpecStore` with the Node store openers (see `openSpec`). */
export async function openSpecStore(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecStore> {
  return openAnySpecStore(spec, { ...options, ...(await nodeSpecStores(spec, options)) });
}
