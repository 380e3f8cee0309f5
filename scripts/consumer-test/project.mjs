// A consumer's project: a fresh directory outside the workspace, the packed tarballs installed
// with npm or pnpm (third-party packages from the machine's configured registry), and what the
// install did: which install scripts ran (or, with pnpm, were ignored), which packages came, how
// much disk they take.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "./lib.mjs";

/**
 * The project's package.json: `dependencies` as given, every @z/* name pointed at its tarball
 * (npm `overrides`, `pnpm.overrides`), so no @z/* package comes from a registry.
 */
export function writeManifest(dir, dependencies, devDependencies, packages) {
  const overrides = Object.fromEntries([...packages.values()].map(({ name, tarball }) => [name, `file:${tarball}`]));
  const manifest = {
    name: "z-consumer",
    version: "1.0.0",
    private: true,
    type: "module",
    dependencies,
    devDependencies,
    overrides,
    pnpm: { overrides },
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** `file:` specs for the given @z/* names. */
export const tarballSpecs = (names, packages) =>
  Object.fromEntries(names.map((name) => [name, `file:${packages.get(name).tarball}`]));

/**
 * pnpm's strictest layout: a package sees only what it declares (no hoisting into
 * node_modules/.pnpm/node_modules), so an undeclared import fails here as it would under Yarn PnP.
 */
export function writeNpmrc(dir, pm) {
  if (pm === "pnpm") writeFileSync(join(dir, ".npmrc"), "hoist=false\n");
}

/** Installs the project's package.json. */
export function install(dir, pm) {
  const args =
    pm === "npm"
      ? ["install", "--ignore-scripts=false", "--foreground-scripts", "--no-audit", "--no-fund", "--prefer-offline"]
      : // CI=true would make pnpm insist on a lockfile the fresh project cannot have.
        ["install", "--prefer-offline", "--no-frozen-lockfile", "--reporter=append-only"];
  return run(pm, args, { cwd: dir, timeout: 180_000 });
}

/**
 * Install scripts of the installed packages: with npm, those the lockfile marks (npm ran them,
 * in the foreground, into the log); with pnpm 10, those it ignored (it runs none it was not told to).
 */
export function installScripts(dir, pm) {
  if (pm === "npm") {
    const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
    return Object.entries(lock.packages ?? {})
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => path.replace(/^.*node_modules\//, ""));
  }
  const modules = join(dir, "node_modules", ".modules.yaml");
  if (!existsSync(modules)) return [];
  // pnpm writes this file as JSON.
  const ignored = JSON.parse(readFileSync(modules, "utf8")).ignoredBuilds ?? [];
  return ignored.map((id) => id.replace(/@(file:|\d).*$/, ""));
}

/**
 * Every package installed in the project's node_modules, once each (npm's nested copies and
 * pnpm's virtual store alike): `{ name, version, dir, requires }` by real path, `requires` the
 * names it depends on (dependencies, optional and peer).
 */
export function installedPackages(dir) {
  const found = new Map();
  const visitModules = (modules) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry === ".bin" || entry === ".cache" || entry.startsWith(".modules")) continue;
      if (entry === ".pnpm") {
        for (const stored of readdirSync(join(modules, entry)))
          if (!stored.startsWith(".") && !stored.endsWith(".yaml"))
            visitModules(join(modules, entry, stored, "node_modules"));
        continue;
      }
      if (entry.startsWith("@")) {
        for (const scoped of readdirSync(join(modules, entry))) visitPackage(join(modules, entry, scoped));
      } else visitPackage(join(modules, entry));
    }
  };
  const visitPackage = (path) => {
    const real = realpathSync(path);
    if (found.has(real) || !existsSync(join(real, "package.json")) || !lstatSync(real).isDirectory()) return;
    const manifest = JSON.parse(readFileSync(join(real, "package.json"), "utf8"));
    const { name, version, dependencies = {}, optionalDependencies = {}, peerDependencies = {} } = manifest;
    const requires = Object.keys({ ...dependencies, ...optionalDependencies, ...peerDependencies });
    found.set(real, { name, version, dir: real, requires });
    visitModules(join(real, "node_modules"));
  };
  visitModules(join(dir, "node_modules"));
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Disk used by node_modules in MB (du: blocks, each hard-linked file once). */
export async function diskMegabytes(dir) {
  const result = await run("du", ["-sk", join(dir, "node_modules")]);
  return result.code === 0 ? Number.parseInt(result.stdout, 10) / 1024 : Number.NaN;
}
