/**
 * An optional peer dependency, imported when first needed: `importer()`'s module, or `undefined`
 * when the package `name` is not installed. Any other failure to load it (one of its own imports
 * missing, a broken build) is thrown as it is. The Node entries of `@z/core` and `@z/spec` load
 * the store packages they do not depend on with it; `importer` stays in the package that names
 * the peer (a dynamic import of its name), where resolvers and bundlers look for it.
 */
export async function importOptional<T>(name: string, importer: () => Promise<T>): Promise<T | undefined> {
  try {
    return await importer();
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
