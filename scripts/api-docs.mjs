#!/usr/bin/env node
// pnpm run docs (plain `pnpm docs` is pnpm's own command): the API reference in docs/api/, generated
// by api-documenter from the doc models that api-extractor writes for every entry point (`pnpm api`:
// packages/<pkg>/temp/<pkg>.api.json for the main entry, temp/<pkg>-<entry>.api.json for
// `@z/<pkg>/<entry>`, one api-extractor.<entry>.json each).
// Fails on any warning of api-documenter (an unresolvable {@link}, say); api-extractor's own
// warnings (TSDoc syntax, unresolved links inside a package) already fail `pnpm api`.
//
//   node scripts/api-docs.mjs           writes docs/api/
//   node scripts/api-docs.mjs --check   generates into temp/ and fails when docs/api/ differs
//
// api-documenter documents one entry point per package, named by a valid npm package name, so a
// subpath entry's model is renamed `@z/<pkg>-<entry>` for the run (links between it and the main
// entry are rewritten to match) and the pages are then relabelled `@z/<pkg>/<entry>`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const check = process.argv.includes("--check");
const work = join(root, "temp/api-docs");
const input = join(work, "input");
const output = check ? join(work, "output") : join(root, "docs/api");

rmSync(work, { recursive: true, force: true });
mkdirSync(input, { recursive: true });

/** Every entry point: the package's main one and one per api-extractor.<entry>.json. */
const entries = [];
for (const dir of readdirSync(join(root, "packages")).sort()) {
  const pkgDir = join(root, "packages", dir);
  if (!existsSync(join(pkgDir, "api-extractor.json"))) continue;
  const name = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).name;
  for (const file of readdirSync(pkgDir).sort()) {
    const match = /^api-extractor(?:\.([a-z0-9-]+))?\.json$/.exec(file);
    if (!match) continue;
    const entry = match[1];
    const base = name.replace(/^@z\//, "");
    const model = join(pkgDir, "temp", entry ? `${base}-${entry}.api.json` : `${base}.api.json`);
    entries.push({
      name,
      entry,
      model,
      label: entry ? `${name}/${entry}` : name,
      alias: entry ? `${name}-${entry}` : name,
    });
  }
}

const missing = entries.filter((e) => !existsSync(e.model));
if (missing.length > 0) {
  console.error(`api-docs: no doc model for ${missing.map((e) => e.label).join(", ")}: run \`pnpm api\` first`);
  process.exit(1);
}

const read = (path) => JSON.parse(readFileSync(path, "utf8"));
const topNames = (model) => new Set(model.members.flatMap((entry) => entry.members.map((m) => m.name)));
const mains = new Map(entries.filter((e) => !e.entry).map((e) => [e.name, topNames(read(e.model))]));

/** Calls `fn` on every string under `key` in `node`, replacing it with the result. */
function rewriteStrings(node, key, fn) {
  if (Array.isArray(node)) for (const item of node) rewriteStrings(item, key, fn);
  else if (node && typeof node === "object") {
    for (const [k, value] of Object.entries(node)) {
      if (k === key && typeof value === "string") node[k] = fn(value);
      else rewriteStrings(value, key, fn);
    }
  }
}

/**
 * TSDoc has no lists: api-documenter joins a paragraph's lines into one. Doc comments here write
 * Markdown lists, so each item (a line starting `- ` or `1. `, outside code fences) becomes a
 * paragraph of its own, which Markdown then reads as a list item again.
 */
function separateListItems(comment) {
  const lines = comment.split("\n");
  const out = [];
  let fenced = false;
  for (const line of lines) {
    const body = line.replace(/^\s*\*\s?/, "");
    if (body.startsWith("```")) fenced = !fenced;
    const previous = (out.at(-1) ?? "").replace(/^\s*\/?\*+\s?/, "");
    if (!fenced && /^(?:[-*]|\d+\.) /.test(body) && previous.trim() !== "") out.push(" *");
    out.push(line);
  }
  return out.join("\n");
}

for (const e of entries) {
  const model = read(e.model);
  const own = topNames(model);
  const main = mains.get(e.name);
  const prefix = `${e.name}!`;
  // api-extractor renames a declaration whose name is also a global's (core's `Location`, as the
  // DOM's) to `Location_2` in the model, though it is exported as `Location`: give it its name back.
  for (const member of model.members[0].members) {
    const base = member.name.replace(/_\d+$/, "");
    if (base !== member.name && !own.has(base)) {
      const from = `${prefix}${member.name}:`;
      rewriteStrings(model, "canonicalReference", (ref) =>
        ref.startsWith(from) ? `${prefix}${base}:${ref.slice(from.length)}` : ref,
      );
      member.name = base;
    }
  }
  // A subpath entry's own exports move to its alias; a type it uses from the main entry (a
  // "forgotten export" `~Name`: its .d.ts imports it from a module of the package) links there.
  if (e.entry) {
    rewriteStrings(model.members, "canonicalReference", (ref) => {
      if (!ref.startsWith(prefix)) return ref;
      const rest = ref.slice(prefix.length);
      const top = rest.replace(/^~/, "").split(/[#.:]/)[0];
      if (own.has(top) && !rest.startsWith("~")) return `${e.alias}!${rest}`;
      if (main?.has(top)) return `${prefix}${rest.replace(/^~/, "")}`;
      return ref;
    });
  }
  // `{@link Name}` in doc comments names the package it means, so that it resolves wherever
  // api-documenter renders it (the index page renders each package's summary out of its context,
  // and a subpath entry's comments link to its main entry's exports).
  const home = (name) => (own.has(name) ? e.alias : main?.has(name) ? e.name : undefined);
  rewriteStrings(model, "docComment", (text) =>
    separateListItems(text).replace(/\{@link\s+([A-Za-z_$][\w$]*)(?=[\s.#|}])/g, (whole, name) => {
      const pkg = home(name);
      return pkg === undefined ? whole : `{@link ${pkg}#${name}`;
    }),
  );
  if (e.entry) {
    model.name = e.alias;
    model.canonicalReference = `${e.alias}!`;
  }
  writeFileSync(join(input, `${e.alias.replace(/^@z\//, "")}.api.json`), JSON.stringify(model, null, 2));
}

const bin = join(root, "node_modules/@microsoft/api-documenter/bin/api-documenter");
const run = spawnSync(process.execPath, [bin, "markdown", "--input-folder", input, "--output-folder", output], {
  encoding: "utf8",
  env: { ...process.env, FORCE_COLOR: "0" },
});
// biome-ignore lint/suspicious/noControlCharactersInRegex: its messages are coloured
const log = `${run.stdout}${run.stderr}`.replace(/\u001b\[[0-9;]*m/g, "");
const warnings = log.split("\n").filter((line) => /warning|error/i.test(line));
if (run.status !== 0 || warnings.length > 0) {
  console.error(log);
  console.error(`api-docs: api-documenter ${run.status !== 0 ? `exited with ${run.status}` : "warned"}:`);
  for (const line of warnings) console.error(`  ${line.trim()}`);
  process.exit(1);
}

// LF line ends (api-documenter writes CRLF), and the pages of a subpath entry say its import path.
for (const file of readdirSync(output)) {
  const path = join(output, file);
  let text = readFileSync(path, "utf8").replaceAll("\r\n", "\n");
  for (const e of entries) {
    if (!e.entry) continue;
    text = text.replace(`## ${e.alias.slice("@z/".length)} package`, `## ${e.label} entry point`);
    text = text.replaceAll(e.alias, e.label);
  }
  writeFileSync(path, text);
}

if (check) {
  const committed = join(root, "docs/api");
  const list = (dir) => (existsSync(dir) ? readdirSync(dir).sort() : []);
  const fresh = list(output);
  const old = list(committed);
  const stale = [
    ...fresh.filter((f) => !old.includes(f)).map((f) => `missing ${f}`),
    ...old.filter((f) => !fresh.includes(f)).map((f) => `extra ${f}`),
    ...fresh
      .filter((f) => old.includes(f))
      .filter((f) => readFileSync(join(output, f), "utf8") !== readFileSync(join(committed, f), "utf8"))
      .map((f) => `changed ${f}`),
  ];
  if (stale.length > 0) {
    console.error(`api-docs: ${relative(root, committed)}/ is stale (run \`pnpm docs\` and commit it):`);
    for (const line of stale.slice(0, 30)) console.error(`  ${line}`);
    if (stale.length > 30) console.error(`  ... and ${stale.length - 30} more`);
    process.exit(1);
  }
  console.log(`api-docs: ${relative(root, committed)}/ is up to date (${fresh.length} pages)`);
} else {
  console.log(`api-docs: wrote ${readdirSync(output).length} pages to ${relative(root, output)}/`);
}
