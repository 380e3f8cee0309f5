/**
 * The URL of the module a thread imports to reopen a `DirectoryStore` (see thread-driver.ts): the
 * bundle in `dist/thread/` beside this package's `dist` files, or the source itself when running
 * from sources (this repository's tests, which load TypeScript).
 */
export function threadModule(): string {
  const here = import.meta.url;
  if (here.endsWith(".ts")) return new URL("./thread-driver.ts", here).href;
  // Inside the bundle itself this module is the bundle.
  return here.endsWith("/thread/thread-driver.js") ? here : new URL("./thread/thread-driver.js", here).href;
}
