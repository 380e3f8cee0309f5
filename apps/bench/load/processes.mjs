// The load test's other processes: `zarr serve` (the built CLI), the fault proxy, and the memory
// (RSS) of a process by its pid.
import { fork, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../../packages/cli/dist/bin.js", import.meta.url));
const PROXY = fileURLToPath(new URL("./fault-proxy.mjs", import.meta.url));

/** Reads the first line a child prints and hands it to `parse`; rejects if it exits first. */
function firstLine(child, parse, what) {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr?.setEncoding("utf8").on("data", (text) => (err += text));
    child.stdout.setEncoding("utf8").on("data", (text) => {
      out += text;
      if (out.includes("\n")) resolve(parse(out.split("\n")[0]));
    });
    child.on("exit", (code) => reject(new Error(`${what} exited (${code}) before starting: ${err}`)));
  });
}

/** Closes a child and waits for it. */
function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.on("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** `zarr serve dir ...args` in a process of its own: `{ url, pid, close() }`. */
export async function startServe(dir, args = []) {
  const child = spawn(process.execPath, [CLI, "serve", dir, "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await firstLine(child, (line) => /http:\/\/\S+/.exec(line)?.[0], "zarr serve");
  return { url, pid: child.pid, close: () => stop(child) };
}

/** The fault proxy (fault-proxy.mjs) in a process of its own: `{ url, pid, stats(), close() }`. */
export async function startProxyProcess({ upstream, delayMs, cutEvery }) {
  const child = fork(PROXY, ["--upstream", upstream, "--delay", String(delayMs), "--cut-every", String(cutEvery)], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const { url } = await firstLine(child, JSON.parse, "the fault proxy");
  return {
    url,
    pid: child.pid,
    stats: () =>
      new Promise((resolve) => {
        child.once("message", (message) => resolve(message.stats));
        child.send("stats");
      }),
    close: () => stop(child),
  };
}

/** The resident memory of process `pid` in bytes (Linux /proc), or undefined where that cannot be read. */
export function rssOf(pid) {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kib === undefined ? undefined : Number(kib) * 1024;
  } catch {
    return undefined;
  }
}
