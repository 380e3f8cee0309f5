#!/usr/bin/env node
// Compiles native/huge-pages.c into build/huge-pages.node with the system C compiler, against the
// running Node's own N-API headers (no node-gyp, no download). Run on install. Without Linux, a C
// compiler or the headers it builds nothing and says why in build/unavailable.txt: the package
// then advises nothing and everything works as before, only with small pages. Set
// Z_REQUIRE_HUGE_PAGES=1 to make that an error instead (CI does).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = join(root, "build");
const required = process.env.Z_REQUIRE_HUGE_PAGES === "1";

function headerDirs() {
  const dirs = [];
  if (process.env.Z_NODE_INCLUDE) dirs.push(process.env.Z_NODE_INCLUDE);
  dirs.push(join(dirname(process.execPath), "..", "include", "node"));
  dirs.push("/usr/include/node", "/usr/local/include/node");
  dirs.push(join(homedir(), ".cache", "node-gyp", process.versions.node, "include", "node"));
  return dirs;
}

function build() {
  if (process.platform !== "linux") return "transparent huge pages are a Linux feature";
  const include = headerDirs().find((dir) => existsSync(join(dir, "node_api.h")));
  if (include === undefined) return `no node_api.h in ${headerDirs().join(", ")} (set Z_NODE_INCLUDE)`;
  const temporary = join(out, `huge-pages.${process.pid}.node`);
  const args = [
    "-O2",
    "-shared",
    "-fPIC",
    "-Wall",
    "-Wextra",
    "-I",
    include,
    join(root, "native", "huge-pages.c"),
    "-o",
    temporary,
  ];
  const failures = [];
  for (const cc of process.env.CC ? [process.env.CC] : ["cc", "gcc", "clang"]) {
    try {
      execFileSync(cc, args, { stdio: ["ignore", "pipe", "pipe"] });
      renameSync(temporary, join(out, "huge-pages.node"));
      return undefined;
    } catch (error) {
      rmSync(temporary, { force: true });
      failures.push(`${cc}: ${String(error.code === "ENOENT" ? "not found" : error.stderr || error.message).trim()}`);
    }
  }
  return `no C compiler built it (${failures.join("; ")})`;
}

mkdirSync(out, { recursive: true });
rmSync(join(out, "unavailable.txt"), { force: true });
const why = build();
if (why === undefined) {
  console.log("@z/huge-pages: built build/huge-pages.node");
} else {
  rmSync(join(out, "huge-pages.node"), { force: true });
  writeFileSync(join(out, "unavailable.txt"), `${why}\n`);
  console.log(`@z/huge-pages: not built (${why}); large buffers use small pages`);
  if (required) process.exit(1);
}
