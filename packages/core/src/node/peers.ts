import { importOptional } from "@z/meta";

/**
 * The optional peer dependencies of `@z/core`, imported by its Node side when first needed (never
 * by the browser entry): the store packages `openLocation` of `@z/core/node` opens locations with,
 * and `@z/huge-pages`. Installing `@z/core` installs none of them.
 */
const importers = {
  "@z/store-fs": () => import("@z/store-fs"),
  "@z/store-http": () => import("@z/store-http"),
  "@z/store-zip": () => import("@z/store-zip"),
  "@z/store-s3": () => import("@z/store-s3"),
  "@z/store-reference": () => import("@z/store-reference"),
  "@z/huge-pages": () => import("@z/huge-pages"),
};

export type PeerName = keyof typeof importers;
export type PeerModule<K extends PeerName> = Awaited<ReturnType<(typeof importers)[K]>>;

/** The package `name`, or `undefined` when it is not installed (see `importOptional` of `@z/meta`). */
export function importPeer<K extends PeerName>(name: K): Promise<PeerModule<K> | undefined> {
  return importOptional<PeerModule<K>>(name, importers[name] as () => Promise<PeerModule<K>>);
}
