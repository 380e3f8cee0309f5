// The packages as a user installs them: from their built dist/ (built first when older than their
// sources), in child Node processes that resolve them as Node does, without the workspace's
// "@z/source" condition.
// - Every `exports` entry of the packages @z/core is built with loads through require() too: their
//   "default" condition, which Node >= 20.19 (and 22.12) follows to load an ES module with
//   require(). (@z/cli's entry: packages/cli/test/subprocess.test.ts.)
// - @z/core installs none of the stores nor @z/huge-pages (optional peers): without them it still
//   loads and reads, and @z/core/node's openLocation names the package a location needs.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_PACKAGES, buildDist } from "./built-dist.js";

const PACKAGES = fileURLToPath(new URL("../../", import.meta.url));

interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` in `cwd`, without the options vitest's own process has. */
function node(args: string[], cwd: string): Promise<Done> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env: { ...process.env, NODE_OPTIONS: "" } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? 1), stdout, stderr }),
    );
  });
}

beforeAll(buildDist, 600_000);

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("every package entry loads through require()", { timeout: 60_000 }, () => {
  it.each(BUILT_PACKAGES)("@z/%s", async (name) => {
    const pkg = JSON.parse(await readFile(join(PACKAGES, name, "package.json"), "utf8")) as {
      exports: Record<string, Record<string, string>>;
    };
    const entries = Object.keys(pkg.exports).map((sub) => `@z/${name}${sub.slice(1)}`);
    // Each entry by its name, from inside its package (a package resolves its own name through its
    // exports): require() and import() must give the same module.
    const script = `
      const { createRequire } = require("node:module");
      const require2 = createRequire(${JSON.stringify(join(PACKAGES, name, "package.json"))});
      (async () => {
        const out = {};
        for (const entry of ${JSON.stringify(entries)}) {
          const required = require2(entry);
          const imported = await import(entry);
          out[entry] = { exports: Object.keys(required).length, same: required === imported };
        }
        console.log(JSON.stringify(out));
      })();`;
    const done = await node(["-e", script], join(PACKAGES, name));
    expect(done.stderr).toBe("");
    expect(done.code).toBe(0);
    const out = JSON.parse(done.stdout) as Record<string, { exports: number; same: boolean }>;
    expect(Object.keys(out)).toEqual(entries);
    for (const entry of entries) {
      expect(out[entry]!.same, `${entry}: require() gave another module than import()`).toBe(true);
      expect(out[entry]!.exports, entry).toBeGreaterThan(0);
    }
  });
});

/**
 * A directory whose node_modules holds @z/core as npm installs it (a copy of its package.json and
 * dist/), its dependencies, and `peers`: names of packages to link, or to copy without their own
 * dependencies (`copy:@z/store-zip`, a broken install).
 */
async function install(peers: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "z-core-install-"));
  dirs.push(dir);
  const scope = join(dir, "node_modules/@z");
  await mkdir(join(scope, "core"), { recursive: true });
  await cp(join(PACKAGES, "core/package.json"), join(scope, "core/package.json"));
  await cp(join(PACKAGES, "core/dist"), join(scope, "core/dist"), { recursive: true });
  const core = JSON.parse(await readFile(join(PACKAGES, "core/package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  for (const dep of Object.keys(core.dependencies))
    await symlink(join(PACKAGES, dep.slice(3)), join(scope, dep.slice(3)));
  for (const peer of peers) {
    const [copy, name] = peer.startsWith("copy:") ? [true, peer.slice(8)] : [false, peer.slice(3)];
    if (!copy) await symlink(join(PACKAGES, name), join(scope, name));
    else {
      await mkdir(join(scope, name));
      await cp(join(PACKAGES, name, "package.json"), join(scope, name, "package.json"));
      await cp(join(PACKAGES, name, "dist"), join(scope, name, "dist"), { recursive: true });
    }
  }
  return dir;
}

interface Outcome {
  opened?: string;
  error?: { name: string; code: string; packageName?: string; location: boolean; message: string };
}

/**
 * In a child process of the installation `dir`: what @z/core/node's openLocation does with each of
 * `locations`, and a large read of an array in memory (16 MiB, where huge pages would be advised).
 */
async function tryLocations(dir: string, locations: string[]): Promise<{ outcomes: Outcome[]; read: number }> {
  const script = join(dir, "main.mjs");
  await writeFile(
    script,
    `import { create, LocationError, MemoryStore } from "@z/core";
     import { openLocation } from "@z/core/node";
     const outcomes = [];
     for (const location of ${JSON.stringify(locations)}) {
       try {
         const { store } = await openLocation(location);
         outcomes.push({ opened: store.constructor.name });
       } catch (e) {
         const { name, code, packageName, message } = e;
         outcomes.push({ error: { name, code, packageName, location: e instanceof LocationError, message } });
       }
     }
     const z = await create({ store: new MemoryStore(), shape: [2048, 2048], chunks: [1024, 2048], dtype: "<f4", compressor: null });
     await z.set(null, 1.5, { pool: false });
     const { data } = await z.get(undefined, { pool: false });
     console.log(JSON.stringify({ outcomes, read: data.reduce((a, b) => a + b, 0) }));`,
  );
  const done = await node([script], dir);
  expect(done.stderr).toBe("");
  expect(done.code).toBe(0);
  return JSON.parse(done.stdout);
}

describe("@z/core without its optional peers", { timeout: 60_000 }, () => {
  // Nothing needs to exist at these: each fails before any I/O, or opens lazily.
  const where = (dir: string) => ({
    directory: join(dir, "data.zarr"),
    zip: join(dir, "data.zip"),
    http: "http://127.0.0.1:9/data.zarr",
    remoteZip: "http://127.0.0.1:9/data.zip",
  });
  const missing = (location: string, kind: string, pkg: string): Outcome => ({
    error: {
      name: "LocationError",
      code: "ZARR_LOCATION",
      packageName: pkg,
      location: true,
      message: `${location}: ${kind} need ${pkg} (npm install ${pkg})`,
    },
  });

  it("alone: it reads (no huge-page advice), and openLocation names the package each location needs", async () => {
    const dir = await install([]);
    const at = where(dir);
    const { outcomes, read } = await tryLocations(dir, [at.directory, at.zip, at.http, at.remoteZip]);
    expect(read).toBe(2048 * 2048 * 1.5);
    expect(outcomes).toEqual([
      missing(at.directory, "local directories", "@z/store-fs"),
      missing(at.zip, "local zip files", "@z/store-fs"),
      missing(at.http, "http(s) URLs", "@z/store-http"),
      missing(at.remoteZip, "zip files over http(s)", "@z/store-http"),
    ]);
  });

  it("with @z/store-fs and @z/store-http: directories and URLs open; zip files need @z/store-zip", async () => {
    const dir = await install(["@z/store-fs", "@z/store-http"]);
    const at = where(dir);
    const { outcomes } = await tryLocations(dir, [at.directory, at.zip, at.http, at.remoteZip]);
    expect(outcomes).toEqual([
      { opened: "DirectoryStore" },
      missing(at.zip, "local zip files", "@z/store-zip"),
      { opened: "HttpStore" },
      missing(at.remoteZip, "zip files over http(s)", "@z/store-zip"),
    ]);
  });

  it("a store package that is installed but cannot load is its own error, not 'install it'", async () => {
    // @z/store-zip without its dependency fflate.
    const dir = await install(["@z/store-fs", "copy:@z/store-zip"]);
    const [outcome] = (await tryLocations(dir, [where(dir).zip])).outcomes;
    expect(outcome!.error).toMatchObject({ code: "ERR_MODULE_NOT_FOUND", location: false });
    expect(outcome!.error!.message).toContain("'fflate'");
  });
});
