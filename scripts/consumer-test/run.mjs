#!/usr/bin/env node
// pnpm test:consumer: the packages as a user gets them. Packs every package (pack.mjs), then for
// each kind of user (subsets.mjs) and each of npm and pnpm makes a fresh project outside the
// workspace, installs the tarballs there (third-party packages from the configured registry),
// and checks the install (scripts, what came, its size), the TypeScript (typescript.mjs), Node
// scripts (the S3 subset's against the loopback S3 server), the browser bundles in Chromium
// (browser.mjs) and the installed CLI (cli.mjs).
// Prints a table of installed packages and MB per subset; exits 1 when any check failed, after
// listing each with its subset, step and output.
//
//   node scripts/consumer-test/run.mjs [--only browser,node] [--pm npm,pnpm] [--keep] [--verbose]
//
// --keep leaves the projects (in a temporary directory it names) for a look; needs `pnpm build`.
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { browserChecks, closeBrowser } from "./browser.mjs";
import { cliChecks } from "./cli.mjs";
import { Checks, consumerEnv, freshTempDir, indent, inParallel, root, run, table } from "./lib.mjs";
import { packAll } from "./pack.mjs";
import { makeReferenceSet } from "./references.mjs";
import {
  diskMegabytes,
  install,
  installedPackages,
  installScripts,
  tarballSpecs,
  writeManifest,
  writeNpmrc,
} from "./project.mjs";
import {
  FIXTURES as FIXTURES_DIR,
  S3_CREDENTIALS,
  startDataServer,
  startPageServer,
  startS3Server,
} from "./servers.mjs";
import { BUCKET, cumulativeStages, FIXTURES, S3_ENDPOINT, subsets } from "./subsets.mjs";
import { typecheck, writeSources } from "./typescript.mjs";

const { values: options } = parseArgs({
  options: {
    only: { type: "string" },
    pm: { type: "string", default: "npm,pnpm" },
    keep: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const chosen = options.only ? subsets.filter((s) => options.only.split(",").includes(s.name)) : subsets;
const managers = options.pm.split(",");
const typesNode = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies["@types/node"];
const describeConfig = {
  nodenext: "tsc strict, module NodeNext",
  bundler: "tsc strict, moduleResolution bundler",
  "bundler-dom": 'tsc strict, bundler, types [], lib ["ES2022", "DOM"]',
};

const checks = new Checks();
checks.verbose = options.verbose;
const started = Date.now();
const work = freshTempDir("z-consumer-");
const sizes = [];
console.log(`consumer test in ${work} (${chosen.map((s) => s.name).join(", ")}; ${managers.join(", ")})`);

/**
 * One subset installed with one package manager, and everything checked in its project. The
 * TypeScript is checked in one of the projects (`typecheck`): the types are the same in both.
 */
async function consumer(subset, pm, { typecheck: checkTypes, ...context }) {
  const label = `${subset.name}/${pm}`;
  const dir = join(work, `${subset.name}-${pm}`);
  mkdirSync(dir);
  writeNpmrc(dir, pm);
  await writeSources(dir, subset.sources);
  const dependencies = {};
  const scripts = new Set();
  for (const stage of cumulativeStages(subset)) {
    const stageLabel = `${stage.label}/${pm}`;
    Object.assign(dependencies, tarballSpecs(stage.packages, context.packages));
    writeManifest(dir, dependencies, {}, context.packages);
    const installed = await install(dir, pm);
    if (!checks.command(stageLabel, `${pm} install ${stage.installed.join(" ")}`, installed)) return;
    const found = installedPackages(dir);
    // pnpm lists the builds it ignored in the install that ignored them: keep those of earlier stages.
    for (const name of installScripts(dir, pm)) scripts.add(name);
    sizes.push({ subset, stage, pm, found, megabytes: await diskMegabytes(dir), scripts: [...scripts] });
    if (subset.installScripts === false) {
      const ran = installed.output.split("\n").filter((line) => /^> .+ (pre|post)?install$/.test(line.trim()));
      checks.record(
        stageLabel,
        pm === "npm" ? "no install script ran" : "no install script to run",
        scripts.size === 0,
        `${pm === "npm" ? "ran" : "ignored"} the install scripts of ${[...scripts].join(", ")}\n${ran.join("\n")}`,
      );
    }
    if (stage.absent !== undefined) {
      const present = stage.absent.flatMap((name) => {
        const dependents = found.filter((p) => p.requires.includes(name)).map((p) => p.name);
        return found.some((p) => p.name === name) ? [`${name} (required by ${dependents.join(", ") || "?"})`] : [];
      });
      checks.record(
        stageLabel,
        `installs none of ${stage.absent.join(", ")}`,
        present.length === 0,
        `installed ${present.join(", ")}`,
      );
    }
    for (const [script, ...args] of stage.run ?? []) {
      const argv = args.map((arg) =>
        arg
          .replace(FIXTURES, join(root, FIXTURES_DIR))
          .replace(BUCKET, bucketOf(pm))
          .replace(S3_ENDPOINT, context.s3Endpoint ?? S3_ENDPOINT),
      );
      const env = subset.s3 ? consumerEnv(s3Environment(context.s3Endpoint)) : undefined;
      const result = await run(process.execPath, [join("out", script), ...argv], { cwd: dir, env, timeout: 60_000 });
      checks.command(stageLabel, `node ${[script, ...args].join(" ")}`, result);
    }
  }

  if (checkTypes) {
    if (subset.typesNode) {
      writeManifest(dir, dependencies, { "@types/node": typesNode }, context.packages);
      if (!checks.command(label, `${pm} install @types/node@${typesNode} (for tsc)`, await install(dir, pm))) return;
    }
    for (const config of subset.tsconfigs) checks.command(label, describeConfig[config], await typecheck(dir, config));
  }
  if (subset.browser) await browserChecks(checks, label, dir, subset.browser, { ...context, pm });
  if (subset.cli) await cliChecks(checks, label, dir, context);
}

/** The bucket of the S3 subset's scripts on the test S3 server: one per package manager (they run at once). */
const bucketOf = (pm) => `z-consumer-${pm}`;

/** AWS_* for a Node script of an `s3` subset: the test S3 server's endpoint and account, path-style. */
const s3Environment = (endpoint) => ({
  AWS_ENDPOINT_URL_S3: endpoint,
  AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
  AWS_REGION: "us-east-1",
  AWS_S3_FORCE_PATH_STYLE: "true",
});

let servers = [];
try {
  const packages = await packAll(checks, join(work, "tarballs"));
  if (packages !== undefined) {
    const data = await startDataServer(work);
    const pages = await startPageServer();
    servers = [data, pages];
    // Started only for a subset that needs it: it takes a few seconds.
    const s3 = chosen.some((subset) => subset.s3) ? await startS3Server(managers.map(bucketOf)) : undefined;
    if (s3 !== undefined) servers.push(s3);
    // A kerchunk reference set (Parquet) and what fsspec + zarr-python read, for a subset that reads one.
    let references;
    if (chosen.some((subset) => subset.references)) {
      const { files, expected } = makeReferenceSet(join(work, "references"));
      // One session per package manager, so that each page's requests are its own.
      const urls = {};
      for (const pm of managers) urls[pm] = await data.session({ values: files });
      references = { urls, expected, logUrl: data.logUrl };
    }
    const context = {
      packages,
      pages,
      dataUrl: data.dataUrl,
      xarrayUrl: data.xarrayUrl,
      forbiddenUrl: data.forbiddenUrl,
      s3Endpoint: s3?.endpoint,
      references,
    };
    const jobs = chosen.flatMap((subset) => managers.map((pm) => ({ subset, pm })));
    // Two at a time: installs wait on the network and disk, tsc and Chromium on the CPU. Types are
    // checked in pnpm's strict layout (or the only package manager chosen).
    await inParallel(jobs, 2, ({ subset, pm }) =>
      consumer(subset, pm, { ...context, typecheck: pm === managers.at(-1) }).catch((error) => {
        checks.record(`${subset.name}/${pm}`, "consumer test", false, error.stack ?? String(error));
      }),
    );
  }
} finally {
  await closeBrowser();
  for (const server of servers) await server.close();
  if (options.keep) console.log(`\nprojects kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

if (sizes.length > 0) {
  const key = ({ subset, stage, pm }) => [chosen.indexOf(subset), stage.index, managers.indexOf(pm)];
  sizes.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const first = x.findIndex((value, i) => value !== y[i]);
    return first === -1 ? 0 : x[first] - y[first];
  });
  const rows = sizes.map(({ stage, pm, found, megabytes, scripts }) => {
    const own = found.filter((p) => p.name.startsWith("@z/")).length;
    const others = found.filter((p) => !p.name.startsWith("@z/")).map((p) => `${p.name}@${p.version}`);
    const how = pm === "npm" ? "ran" : "ignored";
    return [
      stage.label,
      pm,
      found.length,
      own,
      others.join(" ") || "-",
      megabytes.toFixed(1),
      scripts.length ? `${scripts.join(" ")} (${how})` : "-",
    ];
  });
  console.log(`\ninstalled per subset (node_modules; MB on disk by du)\n`);
  console.log(table([["subset", "pm", "packages", "@z/*", "others", "MB", "install scripts"], ...rows]));
}

const seconds = ((Date.now() - started) / 1000).toFixed(0);
const failures = checks.failures;
console.log(`\n${checks.list.length - failures.length} of ${checks.list.length} checks passed in ${seconds} s`);
if (failures.length > 0) {
  console.log(`\n${failures.length} failed:`);
  for (const { subset, step, detail } of failures) console.log(`\n[${subset}] ${step}\n${indent(detail, 4, 25)}`);
  process.exitCode = 1;
}
