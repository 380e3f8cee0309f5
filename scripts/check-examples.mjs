#!/usr/bin/env node
// pnpm examples: the code in the READMEs and guides compiles and runs, and their relative links lead
// somewhere, so the docs cannot rot.
//
// A ```ts block preceded by an HTML comment `<!-- example ... -->` is an example:
//   <!-- example -->                     type-checked, then run in Node (its working directory a fresh
//                                        temporary directory, which is removed afterwards)
//   <!-- example typecheck -->           type-checked only (browser code, servers, the network)
//   <!-- example vitest -->              type-checked, then run by vitest (a test file)
//   <!-- example ... file=xor.ts -->     the block's file name, so that later blocks of the same
//                                        document can import it ("./xor.js"); with `typecheck` it is
//                                        a module only imported by others
//   <!-- example file=x.cjs -->          before a ```js block: JavaScript, run as it is (`require`)
// The blocks of one document share a directory, temp/examples/<document>/; each block is a module.
// They import the packages as a user would: by name, through each package's `exports` (built
// `dist/`, so run `pnpm build` first), from temp/examples/node_modules/@z/<pkg> (links to
// packages/<pkg>). Errors name the Markdown file and line. Relative links ([x](../y.md#heading)) must
// lead to a file, and to a heading of it.
//
//   node scripts/check-examples.mjs [file.md ...]   (default: README.md, packages/*/README.md, docs/*.md)
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const work = join(root, "temp/examples");

const documents =
  process.argv.length > 2
    ? process.argv.slice(2).map((f) => resolve(f))
    : [
        join(root, "README.md"),
        ...readdirSync(join(root, "packages"))
          .sort()
          .map((p) => join(root, "packages", p, "README.md")),
        ...(existsSync(join(root, "docs"))
          ? readdirSync(join(root, "docs"))
              .filter((f) => f.endsWith(".md"))
              .sort()
              .map((f) => join(root, "docs", f))
          : []),
      ].filter((f) => existsSync(f));

/** The examples of one Markdown document. */
function extract(document) {
  const lines = readFileSync(document, "utf8").split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!--\s*example\b(.*?)-->\s*$/.exec(lines[i].trim());
    if (!marker) continue;
    const words = marker[1].trim().split(/\s+/).filter(Boolean);
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === "") j++;
    const fence = /^```(ts|typescript|js|javascript)\s*$/.exec(lines[j] ?? "");
    if (!fence) {
      throw new Error(
        `${relative(root, document)}:${i + 1}: an example marker must precede a \`\`\`ts or \`\`\`js block`,
      );
    }
    const start = j + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    const file = words.find((w) => w.startsWith("file="))?.slice(5);
    const mode = words.find((w) => !w.startsWith("file=")) ?? "run";
    if (!["run", "typecheck", "vitest"].includes(mode)) {
      throw new Error(`${relative(root, document)}:${i + 1}: unknown example mode ${JSON.stringify(mode)}`);
    }
    const javascript = fence[1].startsWith("j");
    if (javascript && (mode !== "run" || !/\.(c|m)?js$/.test(file ?? ""))) {
      throw new Error(`${relative(root, document)}:${i + 1}: a JavaScript example is run as is: name it (file=x.cjs)`);
    }
    blocks.push({ line: start + 1, code: lines.slice(start, end).join("\n"), file, mode });
    i = end;
  }
  return blocks;
}

rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, "node_modules/@z"), { recursive: true });
for (const pkg of readdirSync(join(root, "packages"))) {
  if (existsSync(join(root, "packages", pkg, "package.json"))) {
    symlinkSync(join(root, "packages", pkg), join(work, "node_modules/@z", pkg), "dir");
  }
}
writeFileSync(join(work, "package.json"), `${JSON.stringify({ private: true, type: "module" }, null, 2)}\n`);
writeFileSync(
  join(work, "tsconfig.json"),
  `${JSON.stringify(
    {
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        moduleDetection: "force",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
        typeRoots: [join(root, "node_modules/@types")],
      },
      include: ["**/*.ts"],
    },
    null,
    2,
  )}\n`,
);

/** Every example, with where it came from and where it is written. */
const examples = [];
for (const document of documents) {
  const name = relative(root, document).replace(/\.md$/, "").replaceAll("/", "-");
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [index, block] of extract(document).entries()) {
    const file = block.file ?? (block.mode === "vitest" ? `example-${index + 1}.test.ts` : `example-${index + 1}.ts`);
    if (block.mode === "vitest" && !file.endsWith(".test.ts")) {
      throw new Error(`${relative(root, document)}:${block.line}: a vitest example's file must end in .test.ts`);
    }
    const path = join(dir, file);
    writeFileSync(path, `${block.code}\n`);
    examples.push({ ...block, document, path });
  }
}

const where = (example, line = 1, column) =>
  `${relative(root, example.document)}:${example.line + line - 1}${column === undefined ? "" : `:${column}`}`;
const byPath = new Map(examples.map((e) => [e.path, e]));
const failed = new Set();

// 0. Relative links in the documents lead to files that exist, and anchors to their headings.
const brokenLinks = [];
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replaceAll(" ", "-");
const anchors = (file) => {
  const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1])));
};
for (const document of documents) {
  const lines = readFileSync(document, "utf8").split("\n");
  let fenced = false;
  for (const [index, line] of lines.entries()) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split("#");
      const file = path === "" ? document : resolve(dirname(document), path);
      const bad = !existsSync(file)
        ? "no such file"
        : anchor !== undefined && file.endsWith(".md") && !anchors(file).has(anchor)
          ? "no such heading"
          : undefined;
      if (bad) brokenLinks.push(`${relative(root, document)}:${index + 1}: ${target}: ${bad}`);
    }
  }
}
for (const line of brokenLinks) console.error(line);

// 1. Type-check them all at once.
const tsc = examples.some((e) => e.path.endsWith(".ts"))
  ? spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", work, "--pretty", "false"], {
      cwd: work,
      encoding: "utf8",
    })
  : { status: 0, stdout: "", stderr: "" };
for (const line of `${tsc.stdout}${tsc.stderr}`.split("\n")) {
  const m = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line);
  if (m) {
    const example = byPath.get(resolve(work, m[1]));
    if (example) {
      failed.add(example);
      console.error(`${where(example, Number(m[2]), Number(m[3]))}: ${m[4]}`);
      continue;
    }
  }
  if (line.trim() !== "") console.error(line);
}
if (tsc.status !== 0 && failed.size === 0) {
  console.error("check-examples: tsc failed");
  process.exit(1);
}

// 2. Run the Node examples, each in a fresh working directory.
for (const example of examples) {
  if (example.path.endsWith(".ts") && (example.mode === "run" || (example.mode === "typecheck" && example.file))) {
    // Modules imported by others are transpiled too, next to them.
    const { code } = await transform(readFileSync(example.path, "utf8"), {
      loader: "ts",
      format: "esm",
      target: "es2022",
    });
    writeFileSync(example.path.replace(/\.ts$/, ".js"), code);
  }
}
let ran = 0;
for (const example of examples) {
  if (example.mode !== "run" || failed.has(example)) continue;
  const cwd = mkdtempSync(join(tmpdir(), "z-example-"));
  try {
    const run = spawnSync(process.execPath, [example.path.replace(/\.ts$/, ".js")], {
      cwd,
      encoding: "utf8",
      timeout: 120_000,
    });
    ran++;
    if (run.status !== 0) {
      failed.add(example);
      console.error(`${where(example)}: the example failed when run (${run.signal ?? `exit ${run.status}`}):`);
      console.error(`${run.stdout}${run.stderr}`.replace(/^/gm, "    "));
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

// 3. Run the test examples with vitest (its JSON report says which passed).
const tests = examples.filter((e) => e.mode === "vitest" && !failed.has(e));
let testsPassed = 0;
if (tests.length > 0) {
  writeFileSync(
    join(work, "vitest.config.mjs"),
    `export default { test: { include: ["**/*.test.ts"], exclude: ["node_modules/**"], testTimeout: 120000 } };\n`,
  );
  const report = join(work, "vitest-report.json");
  const vitest = spawnSync(
    process.execPath,
    [
      join(root, "node_modules/vitest/vitest.mjs"),
      "run",
      "--root",
      work,
      "--config",
      join(work, "vitest.config.mjs"),
      "--reporter=json",
      `--outputFile=${report}`,
      ...tests.map((t) => relative(work, t.path)),
    ],
    { encoding: "utf8", cwd: work, env: { ...process.env, FORCE_COLOR: "0" } },
  );
  const results = existsSync(report) ? JSON.parse(readFileSync(report, "utf8")).testResults : [];
  for (const t of tests) {
    const result = results.find((r) => resolve(r.name) === t.path);
    const passed = result?.status === "passed" && result.assertionResults.length > 0;
    testsPassed += result?.assertionResults.filter((a) => a.status === "passed").length ?? 0;
    if (!passed) {
      failed.add(t);
      console.error(`${where(t)}: the test example ${result ? "failed" : "did not run"}:`);
      const messages = result
        ? [result.message, ...result.assertionResults.flatMap((a) => a.failureMessages)].filter(Boolean)
        : [`${vitest.stdout}${vitest.stderr}`];
      console.error(messages.join("\n").replace(/^/gm, "    "));
    }
  }
}

const count = (mode) => examples.filter((e) => e.mode === mode).length;
console.log(
  `check-examples: ${examples.length} examples in ${documents.length} documents ` +
    `(${count("run")} run in Node, ${count("vitest")} run by vitest, ${count("typecheck")} type-checked only; ` +
    `${ran} ran, ${testsPassed} tests passed)`,
);
if (brokenLinks.length > 0) console.error(`check-examples: ${brokenLinks.length} broken links`);
if (failed.size > 0) {
  console.error(`check-examples: ${failed.size} failed:`);
  for (const e of examples.filter((x) => failed.has(x))) console.error(`  ${where(e)} (${e.mode})`);
}
if (failed.size > 0 || brokenLinks.length > 0) process.exit(1);
