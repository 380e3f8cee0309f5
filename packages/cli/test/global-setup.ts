import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildUnderLock } from "../../../scripts/test-setup/build-lock.js";

const CLI = fileURLToPath(new URL("..", import.meta.url));
const PACKAGES = join(CLI, "..");

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** The packages the CLI's dist/ loads. */
const DEPENDENCIES = [
  "core",
  "meta",
  "store-fs",
  "store-zip",
  "store-http",
  "store-s3",
  "codecs",
  "codecs-wasm",
  "indexing",
];

/**
 * Builds the CLI (and, through project references, what it depends on) for the subprocess tests,
 * unless dist/ is already newer than the CLI's sources: `tsc -b` checks every referenced package,
 * which takes long while other packages change.
 */
export default function setup(): void {
  const built = join(CLI, "tsconfig.tsbuildinfo");
  const fresh = (): boolean =>
    existsSync(join(CLI, "dist", "bin.js")) &&
    existsSync(built) &&
    DEPENDENCIES.every((p) => existsSync(join(PACKAGES, p, "dist", "index.js"))) &&
    statSync(built).mtimeMs >= newest(join(CLI, "src"));
  buildUnderLock(fresh, () => {
    const tsc = createRequire(join(CLI, "package.json")).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-b", CLI], { stdio: "inherit" });
  });
}
