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

/**
 * The package `name`, or `undefined` when it is not installed. Any other failure to load it (one
 * of its own imports missing, a broken build) is thrown as it is.
 */
export async function importPeer<K extends PeerName>(name: K): Promise<PeerModule<K> | undefined> {
  try {
    return (await importers[name]()) as PeerModule<K>;
  } catch (error) {
    if (notInstalled(error, name)) return undefined;
    throw error;
  }
}

/**
 * True for Node's error for importing a package that is not installed ("Cannot find package
 * '@z/store-zip' imported from ..."), and only for `name` itself.
 */
function notInstalled(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    String((error as { message?: unknown }).message).includes(`'${name}'`)
  );
}
