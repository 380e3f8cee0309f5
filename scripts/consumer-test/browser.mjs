// The browser reader's page: each entry of the consumer (src/browser/<entry>.ts) bundled with
// esbuild from the installed packages (as a site's build would: platform browser, code splitting,
// so WebAssembly codecs come in chunks of their own), loaded in headless Chromium against the
// fixtures zarr-python wrote, served over HTTP; the values read must be what zarr-python read (the
// dataset entry: a dataset xarray wrote, and what xarray read, dataset.mjs; the references entry: a
// Parquet reference set, and what fsspec + zarr-python read, references.mjs).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium } from "playwright";
import { compareWithXarray, describeDataset } from "./dataset.mjs";
import { root } from "./lib.mjs";
import { compareWithFsspec, describeRequests } from "./references.mjs";
import { FIXTURES } from "./servers.mjs";

let launched;
/** One headless Chromium for the run (scripts/ensure-chromium.sh installs it), offline and quiet. */
export function browser() {
  launched ??= chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
  return launched;
}

export async function closeBrowser() {
  if (launched !== undefined) await (await launched).close();
}

const expected = JSON.parse(readFileSync(join(root, FIXTURES, "expected.json"), "utf8"));

/** What zarr-python read for the array's first basic selection (the one the consumer reads). */
function zarrPythonSelection(path) {
  const spec = expected.arrays.find((array) => array.path === path).selections.find((s) => s.kind === "basic");
  return { shape: spec.shape, values: spec.values.map((v) => (typeof v === "string" ? Number(v) : v)) };
}

/** Differences between what the page read and zarr-python's values, per array. */
function compareReads(value) {
  const problems = [];
  for (const [path, got] of Object.entries(value ?? {})) {
    const want = zarrPythonSelection(path);
    if (JSON.stringify(got.shape) !== JSON.stringify(want.shape))
      problems.push(`${path}: shape [${got.shape}], zarr-python [${want.shape}]`);
    const wrong = want.values.findIndex((v, i) => !Object.is(v, got.values[i]));
    if (wrong !== -1 || got.values.length !== want.values.length)
      problems.push(`${path}: value ${wrong} is ${got.values[wrong]}, zarr-python read ${want.values[wrong]}`);
  }
  if (Object.keys(value ?? {}).length === 0) problems.push("no arrays read");
  return problems;
}

/**
 * Bundles the entries in `project`/src/browser, serves them, loads the page, and records a check
 * per entry (bundling, then its result in Chromium).
 */
export async function browserChecks(
  checks,
  label,
  project,
  entries,
  { pages, dataUrl, forbiddenUrl, xarrayUrl, references, pm },
) {
  const web = join(project, "web");
  const bundled = [];
  for (const entry of entries) {
    try {
      await build({
        entryPoints: [join(project, "src/browser", `${entry}.ts`)],
        outdir: join(web, entry),
        bundle: true,
        splitting: true,
        format: "esm",
        platform: "browser",
        target: "es2022",
        minify: true,
        logLevel: "silent",
      });
      bundled.push(entry);
      checks.record(label, `esbuild bundles ${entry} for the browser`, true);
    } catch (error) {
      const messages = (error.errors ?? []).map(
        (e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ""}${e.text}`,
      );
      checks.record(label, `esbuild bundles ${entry} for the browser`, false, messages.join("\n") || String(error));
    }
  }
  if (bundled.length === 0) return;
  mkdirSync(web, { recursive: true });
  const scripts = bundled.map((entry) => `<script type="module" src="./${entry}/${entry}.js"></script>`).join("\n");
  writeFileSync(
    join(web, "index.html"),
    `<!doctype html>\n<meta charset="utf-8">\n<title>z consumer</title>\n${scripts}\n`,
  );

  const context = await (await browser()).newContext();
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  try {
    const referencesUrl = references?.urls[pm] ?? "";
    const query = new URLSearchParams({
      data: dataUrl,
      forbidden: forbiddenUrl,
      xarray: xarrayUrl,
      references: referencesUrl,
    });
    await page.goto(`${pages.serve(web)}index.html?${query}`);
    const results = await page
      .waitForFunction(
        (names) => {
          const results = globalThis.consumerResults ?? {};
          return names.every((name) => name in results) && results;
        },
        bundled,
        { timeout: 30_000, polling: 100 },
      )
      .then((handle) => handle.jsonValue())
      .catch(async () => page.evaluate(() => globalThis.consumerResults ?? {}));
    for (const entry of bundled) {
      const result = results[entry];
      const step = `Chromium runs ${entry}`;
      if (result === undefined) checks.record(label, step, false, ["no result within 30 s", ...errors].join("\n"));
      else if (!result.ok) checks.record(label, step, false, [result.error, ...errors].join("\n"));
      else if (entry === "one-import") checks.record(label, step, true, result.value.join("\n"));
      else if (entry === "dataset") {
        const problems = compareWithXarray(result.value);
        checks.record(
          label,
          `${step}: the dataset as xarray read it`,
          problems.length === 0,
          problems.length === 0 ? describeDataset(result.value) : problems.join("\n"),
        );
      } else if (entry === "references") {
        const problems = compareWithFsspec(result.value, references.expected);
        checks.record(
          label,
          `${step}: the arrays as fsspec + zarr-python read them`,
          problems.length === 0,
          problems.length === 0
            ? await describeRequests(references.logUrl(referencesUrl), result.value)
            : problems.join("\n"),
        );
      } else {
        const problems = compareReads(result.value);
        checks.record(label, `${step}: values as zarr-python read them`, problems.length === 0, problems.join("\n"));
      }
    }
  } finally {
    await context.close();
  }
}
