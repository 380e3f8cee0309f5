// What every Node runner shares: arguments, the checksum, and the one JSON line it prints.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median } from "../src/lib.mjs";

/** `--case R1 --data DIR [--out DIR] [--url URL]` */
export function runnerArgs(argv = process.argv.slice(2)) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i];
    if (!name?.startsWith("--") || argv[i + 1] === undefined)
      throw new Error(`bad runner arguments: ${argv.join(" ")}`);
    args[name.slice(2)] = argv[i + 1];
  }
  if (!args.case || !args.data) throw new Error("a runner needs --case and --data");
  return args;
}

export function readManifest(dataDir) {
  return JSON.parse(readFileSync(join(dataDir, "manifest.json"), "utf8"));
}

export function readWindows(dataDir) {
  return JSON.parse(readFileSync(join(dataDir, "windows.json"), "utf8"));
}

/** The source of the write cases: R1's elements, little-endian float32 in C order. */
export function readSource(dataDir) {
  const bytes = readFileSync(join(dataDir, "r1.f32"));
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** The bytes of a typed array's elements (the view, not the whole buffer). */
export function bytesOf(typed) {
  return new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
}

/**
 * The checksum every runner reports, the same definition in Python: SHA-256 (hex) of the elements
 * as little-endian bytes in C order, several parts (R6's windows) concatenated in order.
 */
export function checksum(parts) {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(ArrayBuffer.isView(part) ? bytesOf(part) : part);
  return hash.digest("hex");
}

/**
 * Times `fn`: wall-clock seconds, and the CPU seconds (user + system, all threads) the process
 * spent meanwhile, which a busy machine disturbs less than the wall clock.
 */
export async function timed(fn) {
  const cpu = process.cpuUsage();
  const clock = process.hrtime.bigint();
  const start = performance.now();
  const value = await fn();
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  lastTimedMicros = [Number(clock / 1000n), Number(process.hrtime.bigint() / 1000n)];
  lastHugePagesBytes = hugePagesBytes();
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6, value };
}

/**
 * The monotonic-clock microseconds the last `timed` call started and ended at: the clock of V8's
 * CPU profiles, so a profile (`node --cpu-prof`) can be cut to the timed part.
 */
let lastTimedMicros;
/** `hugePagesBytes()` at the end of the last `timed` call. */
let lastHugePagesBytes;

/**
 * Bytes of this process's memory in transparent huge pages now (`AnonHugePages` of
 * /proc/self/smaps_rollup; `undefined` where there is no such file). Read at the end of the timed
 * part, while the result is still held: an output in 2 MiB pages costs 512 times fewer page
 * faults, which is much of the difference between rounds on a machine where THP is `madvise`
 * (numpy asks for it; Node cannot).
 */
export function hugePagesBytes() {
  try {
    const match = /^AnonHugePages:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/smaps_rollup", "utf8"));
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/** Peak resident set size of this process so far, in bytes (`maxRSS` is in KiB). */
export const peakRssBytes = () => process.resourceUsage().maxRSS * 1024;

/** Prints the runner's result: one JSON line, the last line on stdout. */
export function report(result) {
  const timedMicros = lastTimedMicros && { timedMicros: lastTimedMicros };
  const huge = lastHugePagesBytes === undefined ? undefined : { hugePagesBytes: lastHugePagesBytes };
  process.stdout.write(`${JSON.stringify({ ...result, ...timedMicros, ...huge, peakRssBytes: peakRssBytes() })}\n`);
}

/** This process's resident set size now, in bytes. */
export const rssBytes = () => process.memoryUsage.rss();

/**
 * Runs one operation `repeat` times in this process, as a server or a notebook does, and folds the
 * results: the first operation's fields are the cold ones (`seconds`, `cpuSeconds`), the median of
 * operations 2..N the warm ones (`warmSeconds`, `warmCpuSeconds`), every operation's time is in
 * `opSeconds`, and `rssAfterBytes` is RSS after the last one (its result dropped, nothing forced).
 * Every operation must give the same checksum.
 */
export async function repeated(repeat, operation) {
  const ops = [];
  for (let i = 0; i < repeat; i++) {
    ops.push(await operation(i));
    if (ops[i].checksum !== ops[0].checksum)
      throw new Error(`operation ${i + 1} gave checksum ${ops[i].checksum}, operation 1 ${ops[0].checksum}`);
  }
  return foldOperations(ops, rssBytes());
}

/** The fields `repeated` reports for operations `ops` (see there); the same in the Python runners. */
export function foldOperations(ops, rssAfter) {
  const warm = ops.slice(1);
  return {
    ...ops[0],
    opSeconds: ops.map((o) => o.seconds),
    ...(warm.length > 0
      ? { warmSeconds: median(warm.map((o) => o.seconds)), warmCpuSeconds: median(warm.map((o) => o.cpuSeconds)) }
      : {}),
    rssAfterBytes: rssAfter,
  };
}

/**
 * Runs a runner's main: a thrown `Unsupported` is reported as such, anything else as an error
 * (exit 1). `--repeat N` (default 1) runs the case N times in this process (see `repeated`).
 */
export async function main(impl, body) {
  let args;
  try {
    args = runnerArgs();
    const repeat = Number(args.repeat ?? 1);
    if (!Number.isInteger(repeat) || repeat < 1)
      throw new Error(`--repeat must be a positive integer, got ${args.repeat}`);
    const result = await repeated(repeat, () => body(args));
    report({ impl, case: args.case, status: "ok", ...result });
  } catch (error) {
    if (error instanceof Unsupported) {
      report({ impl, case: args?.case, status: "unsupported", detail: error.message });
      return;
    }
    report({ impl, case: args?.case, status: "error", detail: String(error?.stack ?? error) });
    process.exitCode = 1;
  }
}

/** A case the implementation cannot run (a codec or store it lacks): reported, not a failure. */
export class Unsupported extends Error {}
