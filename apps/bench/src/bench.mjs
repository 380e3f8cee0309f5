#!/usr/bin/env node
// `pnpm bench`: z against zarrita and zarr-python on identical data (issue 7). See README.md.
import { spawn } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, freemem, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CASES, needsShardedData, overHttp } from "./cases.mjs";
import { formatHttpTable } from "./http-requests.mjs";
import { serveDirectory } from "./http-server.mjs";
import { deletePrefix, formatS3Table, startProxy, startS3Server, uploadDirectory } from "./s3.mjs";
import { CODEC_ROWS, formatCodecTable, summarizeCodecs } from "./codec-rows.mjs";
import {
  BASELINE,
  CODECS_PART,
  FLOORS,
  checksumProblems,
  formatSeconds,
  formatTables,
  markdownTable,
  median,
  parseArgs,
  stamp,
  summarize,
} from "./lib.mjs";
import { summarizeProfile } from "./profile.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const app = join(here, "..");
const repo = join(app, "..", "..");
const PYTHON = "/usr/bin/python3";
/** The Python of the reference-set case (H3): the venv of scripts/ensure-python-refs.sh, filled in by ensureRefsPython(). */
let refsPython;

const RUNNERS = {
  z: [process.execPath, join(app, "runners/z.mjs")],
  zarrita: [process.execPath, join(app, "runners/zarrita.mjs")],
  "zarr-python": [PYTHON, join(app, "runners/zarr_python.py")],
  // The venv's python, filled in by ensureTensorStore() when the run includes TensorStore.
  tensorstore: [undefined, join(app, "runners/tensorstore_runner.py")],
  "floor-read": [process.execPath, join(app, "runners/floor.mjs"), "--mode", "read"],
  "floor-copy": [process.execPath, join(app, "runners/floor.mjs"), "--mode", "copy"],
};

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const cases = CASES.filter((c) => options.cases.includes(c.id));
const floors = options.floors ? FLOORS : [];
const log = (text) => console.error(text);

/** Runs a command; resolves to its exit code, stdout and stderr (killed after `timeoutSeconds`). */
function run(command, args, { timeoutSeconds = options.timeoutSeconds, cwd = app, env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutSeconds * 1000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}${error.message}`, timedOut });
    });
  });
}

/** One runner process for one case: its JSON line, or an error result. */
async function runCase(impl, c, round, context) {
  const [runner, ...base] = RUNNERS[impl];
  // zarr-python reads reference sets through a newer fsspec than Debian's (ReferenceFileSystem
  // over HTTP): the refs venv, made over Debian's Python, so the same zarr-python 2.13.
  const command = c.kind === "references" && impl === BASELINE ? refsPython : runner;
  const args = [...base, "--case", c.id, "--data", context.data, "--repeat", String(repeatFor(impl, c))];
  if (overHttp(c)) {
    args.push("--url", context.url);
    context.server.reset();
    context.server.setDelay(c.delayMs ?? 0);
  }
  const s3 = c.kind.startsWith("s3") ? context.s3 : undefined;
  let s3Prefix;
  if (s3) {
    s3Prefix = c.kind === "s3-write" ? `out-${impl}-${c.id}-${round}` : c.array;
    args.push("--url", s3.proxy.url, "--bucket", s3.bucket, "--prefix", s3Prefix);
    s3.proxy.setDelay(c.delayMs ?? 0);
    s3.proxy.reset();
  }
  let out;
  if (c.kind === "write") {
    out = join(context.data, `out-${impl}-${c.id}-${round}`);
    rmSync(out, { recursive: true, force: true });
    args.push("--out", out);
  }
  const result = await run(command, args);
  let parsed;
  try {
    parsed = JSON.parse(result.stdout.trim().split("\n").at(-1));
  } catch {
    parsed = {
      impl,
      case: c.id,
      status: "error",
      detail: result.timedOut
        ? `timed out after ${options.timeoutSeconds} s`
        : `exit ${result.code ?? result.signal}, no result line; stderr: ${result.stderr.trim().slice(-2000)}`,
    };
  }
  parsed = { ...parsed, impl, case: c.id, round };
  if (overHttp(c)) parsed.http = context.server.stats();
  if (s3) parsed.s3 = s3.proxy.stats();
  if (s3 && c.kind === "s3-write") {
    // Read back with zarr-python through boto3, straight from the server (not counted).
    if (parsed.status === "ok") {
      parsed.sourceChecksum = parsed.checksum;
      const verify = await run(PYTHON, [RUNNERS["zarr-python"][1], "--verify-s3", s3.endpoint, s3.bucket, s3Prefix]);
      try {
        const v = JSON.parse(verify.stdout.trim().split("\n").at(-1));
        parsed.checksum = v.checksum;
        parsed.writtenCompressor = v.compressor;
      } catch {
        parsed.status = "error";
        parsed.detail = `zarr-python could not read what ${impl} wrote to S3: ${verify.stderr.trim().slice(-1500)}`;
      }
    }
    await deletePrefix(s3.endpoint, s3.bucket, s3Prefix);
  }
  if (result.stderr.trim() && parsed.status === "ok") parsed.stderr = result.stderr.trim().slice(-2000);
  if (out && parsed.status === "ok") {
    // A write is checked by reading it back (outside the timing): with zarr-python, or for the v3
    // (sharded) write with TensorStore, since zarr-python 2.13 cannot read v3.
    parsed.sourceChecksum = parsed.checksum;
    parsed.storedBytes = storedBytes(out);
    const [reader, readerName] =
      c.zarrFormat === 3 ? [RUNNERS.tensorstore, "TensorStore"] : [RUNNERS["zarr-python"], "zarr-python"];
    const verify = await run(reader[0], [reader[1], "--verify", out]);
    try {
      const v = JSON.parse(verify.stdout.trim().split("\n").at(-1));
      parsed.checksum = v.checksum;
      parsed.writtenCompressor = v.compressor;
    } catch {
      parsed.status = "error";
      parsed.detail = `${readerName} could not read what ${impl} wrote: ${verify.stderr.trim().slice(-1500)}`;
    }
  }
  if (out) rmSync(out, { recursive: true, force: true });
  return parsed;
}

/**
 * The codec rows for one round: z's runner, then numcodecs', which also decodes z's encodings.
 * Each side's line, or an error line.
 */
async function runCodecs(round, context) {
  const out = join(context.data, `codecs-z-${round}`);
  rmSync(out, { recursive: true, force: true });
  const lines = [];
  const sides = [
    ["z", process.execPath, [join(app, "runners/codecs.mjs"), "--data", context.data, "--out", out]],
    [
      "numcodecs",
      PYTHON,
      [
        join(app, "runners/codecs_numcodecs.py"),
        "--data",
        context.data,
        "--codecs",
        JSON.stringify(CODEC_ROWS),
        "--check",
        out,
      ],
    ],
  ];
  for (const [impl, command, args] of sides) {
    if (!options.impls.includes(impl === "z" ? "z" : BASELINE)) continue;
    const result = await run(command, args);
    let line;
    try {
      line = JSON.parse(result.stdout.trim().split("\n").at(-1));
    } catch {
      line = {
        impl,
        status: "error",
        detail: `exit ${result.code ?? result.signal}, no result line; stderr: ${result.stderr.trim().slice(-2000)}`,
      };
    }
    lines.push({ ...line, impl, round });
  }
  rmSync(out, { recursive: true, force: true });
  return lines;
}

/**
 * Operations per process: `--repeat`, except zarrita's R6 (2,000 windows take it about a minute),
 * which runs twice (one cold, one warm) so that a full bench stays under an hour.
 */
function repeatFor(impl, c) {
  return impl === "zarrita" && c.kind === "windows" ? Math.min(2, options.repeat) : options.repeat;
}

/** TensorStore's runner needs the venv python/ensure-tensorstore.sh makes (installing it the first time). */
async function ensureTensorStore() {
  log("tensorstore: its venv (python/ensure-tensorstore.sh) …");
  const result = await run("bash", [join(app, "python/ensure-tensorstore.sh")], { timeoutSeconds: 900 });
  if (result.code !== 0) throw new Error(`installing TensorStore failed:\n${result.stderr}`);
  RUNNERS.tensorstore[0] = result.stdout.trim().split("\n").at(-1);
  const version = await run(RUNNERS.tensorstore[0], [
    "-c",
    "import importlib.metadata as m; print(m.version('tensorstore'))",
  ]);
  tensorstoreVersion = version.stdout.trim() || undefined;
}
let tensorstoreVersion;

/** zarr-python reads HTTP through fsspec with aiohttp: Debian's python3-aiohttp, installed when missing (as root). */
async function ensureAiohttp() {
  if ((await run(PYTHON, ["-c", "import aiohttp, fsspec"])).code === 0) return;
  if (process.getuid?.() !== 0)
    return log("H1: python3-aiohttp is missing (not root: zarr-python's H1 will be unsupported)");
  log("H1: installing python3-aiohttp (Debian) for zarr-python's HTTP reads …");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  await run("apt-get", ["install", "-y", "-qq", "python3-aiohttp", "python3-fsspec"], { timeoutSeconds: 600, env });
}

/** Bytes of the chunk (or shard) files under `dir`, metadata left out (v3's keys are in subdirectories). */
function storedBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += storedBytes(path);
    else if (!entry.name.startsWith(".") && entry.name !== "zarr.json") total += statSync(path).size;
  }
  return total;
}

function dataRoot() {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

async function prepareData() {
  const { n, windows, r7n } = options.sizes;
  const dir = options.data ?? join(dataRoot(), `z-bench-${options.quick ? "quick" : "full"}-${process.pid}`);
  const manifestPath = join(dir, "manifest.json");
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (m.n === n && m.windows === windows && m.r7n === r7n) {
      log(`data: reusing ${dir}`);
      return { dir, manifest: await prepareReferenceData(dir, await prepareShardedData(dir, m)) };
    }
    log(`data: ${dir} holds other sizes, writing it again`);
  }
  log(`data: zarr-python writes ${n}x${n} float32 (+ R7 ${r7n}x${r7n} int16, ${windows} windows) into ${dir} …`);
  mkdirSync(dir, { recursive: true });
  const result = await run(PYTHON, [
    join(app, "python/generate.py"),
    dir,
    String(n),
    String(windows),
    String(r7n),
    "7",
  ]);
  if (result.code !== 0) throw new Error(`generating the data failed:\n${result.stderr}`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  log(`data: written in ${manifest.generateSeconds} s`);
  return { dir, manifest: await prepareReferenceData(dir, await prepareShardedData(dir, manifest)) };
}

/**
 * The reference-set case's data (H3: `refs/`, a NetCDF4 file and its kerchunk-style references),
 * written by python/generate_refs.py in the refs venv when the run has that case and the data has
 * none yet; its expected checksum recorded in the manifest.
 */
async function prepareReferenceData(dir, manifest) {
  if (!cases.some((c) => c.kind === "references")) return manifest;
  const expectedPath = join(dir, "refs", "expected.json");
  if (!existsSync(expectedPath)) {
    log("data: netCDF4 writes refs/data.nc and its references (python/generate_refs.py) …");
    const result = await run(refsPython, [join(app, "python/generate_refs.py"), dir, String(options.sizes.n)]);
    if (result.code !== 0) throw new Error(`generating the reference set failed:\n${result.stderr}`);
  }
  const written = JSON.parse(readFileSync(expectedPath, "utf8"));
  manifest.expected.H3 = written.checksum;
  manifest.stored.refs = { chunks: written.chunks, bytes: written.bytes, writtenBy: "netCDF4 (generate_refs.py)" };
  return manifest;
}

/**
 * Points the reference set's file template at the file server (its URL is known only once it
 * listens): the references hold absolute URLs, as published ones do.
 */
function setReferenceBase(dir, url) {
  const path = join(dir, "refs", "refs.json");
  const refs = JSON.parse(readFileSync(path, "utf8"));
  refs.templates.u = `${url}/refs/data.nc`;
  writeFileSync(path, JSON.stringify(refs));
}

/** The refs venv (scripts/ensure-python-refs.sh: netCDF4, h5py, fsspec over Debian's zarr-python 2.13). */
async function ensureRefsPython() {
  log("H3: the refs venv (scripts/ensure-python-refs.sh) …");
  const result = await run("bash", [join(repo, "scripts/ensure-python-refs.sh")], { timeoutSeconds: 900 });
  if (result.code !== 0) throw new Error(`scripts/ensure-python-refs.sh failed:\n${result.stderr}`);
  refsPython = result.stdout.trim().split("\n").at(-1);
}

/**
 * The sharded cases' array (R8, R9, H2: `r8.zarr`), written from R1's elements by TensorStore's
 * zarr3 driver (python/generate_sharded.py) when the run has those cases and the data has no such
 * array yet; recorded in the manifest. Their expected checksums are R1's and R6's (the same
 * elements), W3's the source's.
 */
async function prepareShardedData(dir, manifest) {
  manifest.expected.R8 ??= manifest.expected.R1;
  manifest.expected.R9 ??= manifest.expected.R6;
  manifest.expected.H2 ??= manifest.expected.R1;
  manifest.expected.W3 ??= manifest.expected.W1;
  if (!needsShardedData(cases) || existsSync(join(dir, "r8.zarr", "zarr.json"))) return manifest;
  if (!RUNNERS.tensorstore[0]) await ensureTensorStore();
  log("data: TensorStore writes r8.zarr, R1's elements as a sharded v3 array (python/generate_sharded.py) …");
  const result = await run(RUNNERS.tensorstore[0], [join(app, "python/generate_sharded.py"), dir]);
  if (result.code !== 0) throw new Error(`generating the sharded data failed:\n${result.stderr}`);
  const written = JSON.parse(result.stdout.trim().split("\n").at(-1));
  manifest.stored["r8.zarr"] = { ...written, writtenBy: `TensorStore ${tensorstoreVersion}` };
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 1));
  log(`data: ${written.shards} shards written in ${written.seconds} s`);
  return manifest;
}

async function build() {
  log("build: the packages the z runner uses (turbo, @z/bench's dependencies) …");
  const result = await run(
    "pnpm",
    ["exec", "turbo", "run", "build", "--filter=@z/bench^...", "--output-logs=errors-only"],
    {
      cwd: repo,
      timeoutSeconds: 900,
    },
  );
  if (result.code !== 0)
    throw new Error(`the build failed, so z's dist would be stale:\n${result.stdout}\n${result.stderr}`);
}

function machine() {
  const cpu = cpus();
  return {
    cores: cpu.length,
    cpuModel: cpu[0]?.model,
    totalMemBytes: totalmem(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

function zarritaVersion() {
  try {
    return JSON.parse(readFileSync(join(app, "node_modules/zarrita/package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

async function profile(context) {
  const dir = join(app, "bench-results", `profile-${stamp()}`);
  mkdirSync(dir, { recursive: true });
  const summaries = {};
  for (const c of cases) {
    const args = [
      "--cpu-prof",
      "--cpu-prof-dir",
      dir,
      "--cpu-prof-name",
      `z-${c.id}.cpuprofile`,
      RUNNERS.z[1],
      "--case",
      c.id,
      "--data",
      context.data,
    ];
    const out = c.kind === "write" ? join(context.data, `out-profile-${c.id}`) : undefined;
    if (out) args.push("--out", out);
    if (overHttp(c)) args.push("--url", context.url);
    if (overHttp(c)) context.server.setDelay(c.delayMs ?? 0);
    log(`profile: z ${c.id} …`);
    const result = await run(process.execPath, args);
    if (out) rmSync(out, { recursive: true, force: true });
    if (result.code !== 0) {
      log(`profile: z ${c.id} failed: ${result.stdout}${result.stderr}`);
      continue;
    }
    const file = join(dir, `z-${c.id}.cpuprofile`);
    const profileData = JSON.parse(readFileSync(file, "utf8"));
    // Only the timed part (open + read), not the process start and imports.
    const window = JSON.parse(result.stdout.trim().split("\n").at(-1)).timedMicros;
    const inWindow = window && window[0] >= profileData.startTime && window[1] <= profileData.endTime;
    const text = summarizeProfile(profileData, { top: 20, root: repo, window: inWindow ? window : undefined });
    summaries[c.id] = text;
    console.log(`\nz ${c.id}: top self time${inWindow ? " in the timed part" : " (whole process)"} (${file})\n${text}`);
  }
  return { dir, summaries };
}

/**
 * The S3 cases' server: the loopback S3 server of the tests (scripts/test-s3/), a bucket holding
 * R1's array (uploaded before any timing), and the counting, delaying proxy the runners talk to.
 */
async function startS3(dir) {
  log("s3: starting the loopback S3 server (scripts/test-s3/) and uploading r1.zarr …");
  const server = await startS3Server();
  const bucket = "z-bench";
  const objects = await uploadDirectory(server.endpoint, bucket, "r1.zarr", join(dir, "r1.zarr"));
  const proxy = await startProxy(server.endpoint);
  log(`s3: ${objects} objects in s3://${bucket}/r1.zarr at ${server.endpoint}, the runners' proxy at ${proxy.url}`);
  return { server, proxy, bucket, endpoint: server.endpoint };
}

/** The header and tables of a run (fresh, or saved in a results file). */
function render(results) {
  const { options: o, machine: info, versions, data: manifest, loadAverage: loads, runs } = results;
  const shownCases = CASES.filter((c) => o.cases.includes(c.id));
  const shownFloors = o.floors ? FLOORS : [];
  const summary = summarize(runs, { cases: shownCases.map((c) => c.id), impls: [...o.impls, ...shownFloors] });
  const header = [
    `z bench ${results.date}  ${o.quick ? "QUICK " : ""}${o.rounds} round(s) of ${o.repeat ?? 1} operation(s) per process, median wall time (open + read/write; process start excluded)`,
    `machine: ${info.cores} cores (${info.cpuModel}), ${Math.round(info.totalMemBytes / 2 ** 30)} GiB, Node ${info.node}; Python ${versions.python}, zarr ${versions.zarr}, numcodecs ${versions.numcodecs}, numpy ${versions.numpy}; zarrita ${versions.zarrita}${versions.tensorstore ? `; TensorStore ${versions.tensorstore}` : ""}`,
    `data: ${manifest.n}x${manifest.n} float32 in ${manifest.chunk}x${manifest.chunk} chunks, ${manifest.windows} windows of ${manifest.windowSize}x${manifest.windowSize}, R7 ${manifest.r7n}x${manifest.r7n} int16 in ${manifest.r7Chunk}x${manifest.r7Chunk}${results.dataDir ? `; in ${results.dataDir}` : ""}`,
    `load average (1 min) at each round's start/end: ${loads.map((l) => `${l.start[0].toFixed(1)}/${l.end?.[0]?.toFixed(1)}`).join(", ")}`,
  ].join("\n");
  let tables = formatTables(summary, shownCases, { impls: o.impls, floors: shownFloors, baseline: BASELINE });
  const s3Table = formatS3Table(runs, shownCases, o.impls, { markdownTable, median });
  if (s3Table)
    tables += `\n\nS3 requests, as the proxy in front of the loopback S3 server counted them per operation (medians over rounds):\n\n${s3Table}`;
  const httpTable = formatHttpTable(runs, shownCases, o.impls);
  if (httpTable)
    tables += `\n\nHTTP requests, as the bench's file server counted them per operation (medians over rounds):\n\n${httpTable}`;
  if (results.codecRuns?.length) {
    summary.codecs = summarizeCodecs(results.codecRuns, median);
    const codecTables = formatCodecTable(summary.codecs, markdownTable);
    const intro =
      "Codec rows: one 1024x1024 float32 chunk of the data (4 MiB), each encoded and decoded at least 3 times and 0.4 s; median MB/s (of uncompressed bytes) over rounds; z ÷ numcodecs above 1 means z is faster or compresses more; numcodecs' Blosc on 1 thread, as z's codecs.";
    tables = shownCases.length ? `${tables}\n\n${intro}\n\n${codecTables}` : `${intro}\n\n${codecTables}`;
  }
  return { text: `${header}\n\n${tables}`, summary, tables };
}

async function main() {
  if (options.report) {
    console.log(render(JSON.parse(readFileSync(options.report, "utf8"))).text);
    return;
  }
  const started = new Date();
  const check = await run(PYTHON, ["-c", "import zarr, numcodecs"]);
  if (check.code !== 0)
    throw new Error("zarr-python is missing: run bash scripts/ensure-python-zarr.sh (Debian's python3-zarr)");
  if (options.build && options.impls.includes("z")) await build();
  // TensorStore also writes the sharded data and reads W3's output back.
  if (options.impls.includes("tensorstore") || needsShardedData(cases) || cases.some((c) => c.id === "W3"))
    await ensureTensorStore();
  if (options.impls.includes(BASELINE) && cases.some(overHttp)) await ensureAiohttp();
  if (cases.some((c) => c.kind === "references")) await ensureRefsPython();
  const { dir, manifest } = await prepareData();
  // The S3 cases read R1's array and write R1's data.
  manifest.expected.S1 ??= manifest.expected.R1;
  manifest.expected.S2 ??= manifest.expected.W1;
  manifest.expected.S3 ??= manifest.expected.R1;
  const cleanup = () => {
    if (!options.keepData && !options.data) rmSync(dir, { recursive: true, force: true });
  };
  process.on("SIGINT", () => {
    cleanup();
    process.exit(130);
  });
  const server = cases.some(overHttp) ? await serveDirectory(dir) : undefined;
  if (server && cases.some((c) => c.kind === "references")) setReferenceBase(dir, server.url);
  const s3 = cases.some((c) => c.kind.startsWith("s3")) ? await startS3(dir) : undefined;
  const context = { data: dir, url: server?.url, server, s3 };
  const runs = [];
  const codecRuns = [];
  const loads = [];
  let profiled;
  try {
    for (let round = 1; round <= options.rounds; round++) {
      loads.push({ round, start: loadavg() });
      for (const c of cases) {
        // The floors read v2 arrays' chunk files (runners/floor.mjs), not the v3 cases' shards.
        const caseFloors =
          c.zarrFormat === 3
            ? []
            : c.kind === "read"
              ? floors
              : c.kind === "http"
                ? floors.filter((f) => f === "floor-read")
                : [];
        const impls = [...options.impls, ...caseFloors];
        for (const impl of impls) {
          const result = await runCase(impl, c, round, context);
          runs.push(result);
          const shown = result.status === "ok" ? formatSeconds(result.seconds) : result.status;
          log(`round ${round}/${options.rounds}  ${c.id}  ${impl.padEnd(12)} ${shown}`);
        }
      }
      if (options.cases.includes(CODECS_PART)) {
        for (const line of await runCodecs(round, context)) {
          codecRuns.push(line);
          const shown = line.status === "ok" ? `${line.rows.length} codecs` : `error: ${line.detail}`;
          log(`round ${round}/${options.rounds}  codecs  ${line.impl.padEnd(12)} ${shown}`);
        }
      }
      loads.at(-1).end = loadavg();
    }
    profiled = options.profile ? await profile(context) : undefined;
  } finally {
    await server?.close();
    await s3?.proxy.close();
    await s3?.server.close();
    cleanup();
  }

  const info = machine();
  const versions = { ...manifest.versions, zarrita: zarritaVersion(), tensorstore: tensorstoreVersion };
  const { sizes, ...shownOptions } = options;
  const results = {
    date: started.toISOString(),
    machine: info,
    versions,
    options: shownOptions,
    sizes,
    dataDir: dir,
    data: manifest,
    loadAverage: loads,
    freeMemBytes: freemem(),
    runs,
    codecRuns,
  };
  const { text, summary, tables } = render(results);
  const problems = checksumProblems(runs, manifest.expected);
  const errors = [...runs, ...codecRuns.map((r) => ({ ...r, case: CODECS_PART }))].filter((r) => r.status === "error");
  for (const s of summary.codecs ?? []) {
    for (const [impl, side] of [
      ["z", s.z],
      ["numcodecs", s.numcodecs],
    ]) {
      if (side.error) errors.push({ case: `${CODECS_PART} ${s.name}`, impl, round: "-", detail: side.error });
    }
  }
  console.log(`\n${text}`);

  const resultsDir = join(app, "bench-results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${stamp(started)}${options.quick ? "-quick" : ""}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ ...results, summary, problems, profile: profiled, table: tables }, null, 1)}\n`,
  );
  console.log(`\nresults: ${file}`);

  if (problems.length > 0) {
    console.error(
      `\n*** CHECKSUM MISMATCH: the implementations did not read or write the same values ***\n${problems.join("\n")}`,
    );
  }
  if (errors.length > 0) {
    console.error(`\n*** ${errors.length} run(s) failed ***`);
    for (const e of errors) console.error(`${e.case} ${e.impl} round ${e.round}: ${e.detail}`);
  }
  if (problems.length > 0 || errors.length > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error?.stack ?? error);
  process.exit(1);
});
