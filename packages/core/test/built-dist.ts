import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildUnderLock } from "../../../scripts/test-setup/build-lock.js";

const CORE = fileURLToPath(new URL("..", import.meta.url));
const PACKAGES = join(CORE, "..");
/** What `tsc -b` builds for @z/core (its project references), and @z/core. */
export const BUILT_PACKAGES = [
  "meta",
  "codecs",
  "codecs-wasm",
  "indexing",
  "store-fs",
  "store-http",
  "store-zip",
  "huge-pages",
  "core",
];

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * Builds @z/core's dist (with its thread bundle) and, through project references, the packages it
 * is built against, for packages.test.ts, which loads them as an installed package is loaded;
 * unless the thread bundle, built last, is newer than all their sources (after `pnpm build`).
 */
export function buildDist(): void {
  const bundle = join(CORE, "dist/node/worker/chunk-worker.js");
  const fresh = (): boolean => {
    const sources = Math.max(...BUILT_PACKAGES.map((name) => newest(join(PACKAGES, name, "src"))));
    return existsSync(bundle) && statSync(bundle).mtimeMs >= sources;
  };
  buildUnderLock(fresh, () => {
    const tsc = createRequire(join(CORE, "package.json")).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-b", CORE], { stdio: "inherit" });
    execFileSync(process.execPath, [join(CORE, "scripts/bundle-worker.mjs")], { stdio: "inherit", cwd: CORE });
  });
}
