// Packs every publishable package (packages/*) once, as `pnpm publish` would, and checks what a
// registry would get:
// - no `workspace:` range is left (pnpm pack rewrites them to the versions);
// - every `exports` target and `bin` is in the tarball;
// - each `exports` entry lists `types` first and `default` last, after `import` (design-18:
//   `require()` of ESM on Node >= 20.19 takes `default`);
// - everything the packed JavaScript imports is declared: a Node built-in, the package itself, a
//   dependency or a peer dependency (never only a devDependency); an optional peer only by
//   dynamic import(), so a project without it still loads; the same for the .d.ts files' imports,
//   which may not name an optional peer at all.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";
import { root, run } from "./lib.mjs";

const builtins = new Set(builtinModules);
const isBuiltin = (spec) => spec.startsWith("node:") || builtins.has(spec) || builtins.has(spec.split("/")[0]);
/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (spec) =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");
const relative = (target) => target.replace(/^\.\//, "");

/**
 * Packs into `dir`; returns the packed packages by name (`{ name, version, tarball, dir, manifest }`,
 * `dir` the tarball's contents), or undefined when packing failed.
 */
export async function packAll(checks, dir) {
  const missingBuild = readdirSync(join(root, "packages")).filter(
    (name) => !statSync(join(root, "packages", name, "dist"), { throwIfNoEntry: false })?.isDirectory(),
  );
  if (missingBuild.length > 0) {
    checks.record("pack", "packages are built", false, `no dist/ in ${missingBuild.join(", ")}: run pnpm build first`);
    return undefined;
  }
  const result = await run("pnpm", ["-r", "--filter", "./packages/*", "pack", "--pack-destination", dir, "--json"], {
    cwd: root,
    env: process.env,
  });
  if (!checks.command("pack", "pnpm pack every package", result)) return undefined;
  const packages = new Map();
  for (const { name, version, filename } of JSON.parse(result.stdout)) {
    const contents = join(dir, "contents", name.replace("/", "+"));
    const untar = await run("sh", ["-c", `mkdir -p "$1" && tar -xzf "$2" -C "$1"`, "sh", contents, filename]);
    if (untar.code !== 0) return void checks.command("pack", `${name}: unpack`, untar);
    const packageDir = join(contents, "package");
    const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
    packages.set(name, { name, version, tarball: filename, dir: packageDir, manifest });
  }
  for (const pkg of packages.values()) await checkPacked(checks, pkg);
  return packages;
}

async function checkPacked(checks, { name, dir, manifest }) {
  const text = JSON.stringify(manifest);
  checks.record(
    "pack",
    `${name}: no workspace: ranges`,
    !text.includes("workspace:"),
    text.match(/"[^"]*":"workspace:[^"]*"/g)?.join(", "),
  );

  const files = new Set(listFiles(dir));
  const targets = exportTargets(manifest);
  const missing = targets.filter(({ target }) => !files.has(relative(target)));
  checks.record(
    "pack",
    `${name}: exports and bin are in the tarball`,
    missing.length === 0,
    missing.map(({ where, target }) => `${where}: ${target} is not packed`).join("\n"),
  );

  const order = Object.entries(exportsMap(manifest)).flatMap(([subpath, conditions]) => {
    if (typeof conditions !== "object" || conditions === null) return [`"${subpath}": no conditions object`];
    const keys = Object.keys(conditions).filter((key) => key !== "@z/source");
    const problems = [];
    if (keys[0] !== "types") problems.push(`"types" is not first`);
    if (!keys.includes("import")) problems.push(`no "import"`);
    if (keys.at(-1) !== "default") problems.push(`no "default" last (require() on Node >= 20.19 needs it)`);
    return problems.length === 0 ? [] : [`"${subpath}": ${problems.join(", ")} (${keys.join(", ")})`];
  });
  checks.record(
    "pack",
    `${name}: exports conditions types, ..., import, default`,
    order.length === 0,
    order.join("\n"),
  );

  const declared = {
    dependencies: new Set(Object.keys(manifest.dependencies ?? {})),
    peers: new Set(Object.keys(manifest.peerDependencies ?? {})),
    optional: new Set(
      Object.entries(manifest.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta?.optional === true)
        .map(([peer]) => peer),
    ),
    dev: new Set(Object.keys(manifest.devDependencies ?? {})),
  };
  const problems = [];
  for (const { importer, spec, kind } of await runtimeImports(dir, files)) {
    const problem = undeclared(name, spec, declared);
    if (problem) problems.push(`${importer}: ${problem}`);
    else if (declared.optional.has(packageOf(spec)) && kind !== "dynamic-import")
      problems.push(`${importer}: imports the optional peer ${spec} statically (only import() lets it be missing)`);
  }
  checks.record(
    "pack",
    `${name}: its JavaScript imports only declared packages`,
    problems.length === 0,
    unique(problems).join("\n"),
  );

  const typeProblems = [];
  for (const file of [...files].filter((file) => file.endsWith(".d.ts"))) {
    for (const spec of declarationImports(readFileSync(join(dir, file), "utf8"))) {
      const problem = undeclared(name, spec, declared);
      if (problem) typeProblems.push(`${file}: ${problem}`);
      else if (declared.optional.has(packageOf(spec)))
        typeProblems.push(`${file}: imports the optional peer ${spec} (a project without it gets a type error)`);
    }
  }
  checks.record(
    "pack",
    `${name}: its .d.ts import only declared packages`,
    typeProblems.length === 0,
    unique(typeProblems).join("\n"),
  );
}

/** Why importing `spec` from package `name` breaks for a consumer, or undefined when it is declared. */
function undeclared(name, spec, declared) {
  if (isBuiltin(spec)) return undefined;
  const target = packageOf(spec);
  if (target === name || declared.dependencies.has(target) || declared.peers.has(target)) return undefined;
  return declared.dev.has(target)
    ? `imports ${spec}, which is only a devDependency`
    : `imports ${spec}, which is not a dependency`;
}

const unique = (list) => [...new Set(list)];

function listFiles(dir, prefix = "") {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? listFiles(dir, path) : [path];
  });
}

function exportsMap(manifest) {
  const map = manifest.exports;
  if (map === undefined) return {};
  if (typeof map === "string" || !Object.keys(map).some((key) => key.startsWith("."))) return { ".": map };
  return map;
}

/** Every file the manifest points at: exports targets (any condition), main, types, bin. */
function exportTargets(manifest) {
  const targets = [];
  const walk = (where, value) => {
    if (typeof value === "string") targets.push({ where, target: value });
    else if (value !== null && typeof value === "object")
      for (const [key, inner] of Object.entries(value)) walk(`${where} ${key}`, inner);
  };
  for (const [subpath, conditions] of Object.entries(exportsMap(manifest))) walk(`exports "${subpath}"`, conditions);
  for (const field of ["main", "module", "types"]) if (manifest[field]) walk(field, manifest[field]);
  const bin = typeof manifest.bin === "string" ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {});
  for (const [command, target] of Object.entries(bin)) walk(`bin ${command}`, target);
  return targets;
}

/**
 * The bare imports of every packed JavaScript file, with how each is made (`import-statement`,
 * `dynamic-import`, `require-call`): esbuild reads each file and reports what it would resolve.
 */
async function runtimeImports(dir, files) {
  const entryPoints = [...files].filter((file) => /\.(c|m)?js$/.test(file)).map((file) => join(dir, file));
  if (entryPoints.length === 0) return [];
  const found = [];
  await build({
    entryPoints,
    bundle: true,
    write: false,
    outdir: join(dir, "..", "scan"),
    platform: "neutral",
    format: "esm",
    logLevel: "silent",
    plugins: [
      {
        name: "bare-imports",
        setup(b) {
          b.onResolve({ filter: /.*/ }, ({ path, importer, kind }) => {
            if (kind === "entry-point" || path.startsWith(".") || path.startsWith("/")) return undefined;
            found.push({ importer: importer.slice(dir.length + 1), spec: path, kind });
            return { path, external: true };
          });
        },
      },
    ],
  });
  return found;
}

/** Bare module specifiers a .d.ts imports (`from "x"`, `import("x")`), doc comments left out. */
function declarationImports(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const specs = [];
  for (const match of code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) {
    const spec = match[1] ?? match[2];
    if (!spec.startsWith(".") && !spec.startsWith("/")) specs.push(spec);
  }
  return specs;
}
