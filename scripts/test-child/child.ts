// For tests that run z in a child Node process and kill it part way through a write: `bundleChild`
// bundles a TypeScript entry with esbuild into one ES module that plain `node` runs (`@z/…` imports
// resolved to the workspace sources, as vitest.shared.ts's aliases resolve them), and
// `killAfterReady` runs it and kills it (SIGKILL) at a chosen moment.
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const packages = fileURLToPath(new URL("../../packages/", import.meta.url));

const workspaceSources: Plugin = {
  name: "workspace-sources",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^@z\// }, (args) => {
      const [, name, sub] = /^@z\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(args.path) ?? [];
      if (name === undefined) return undefined;
      return { path: join(packages, name, "src", `${sub ?? "index"}.ts`) };
    });
  },
};

/** Bundles the TypeScript file `entry` (a path or `file:` URL) into a new temporary directory; returns the bundle's path. */
export async function bundleChild(entry: string | URL): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "z-child-"));
  const outfile = join(dir, "child.mjs");
  await build({
    entryPoints: [entry instanceof URL ? fileURLToPath(entry) : entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
    plugins: [workspaceSources],
    // Bundled CommonJS dependencies may call require() for Node built-ins.
    banner: {
      js: 'import { createRequire as __zCreateRequire } from "node:module"; const require = __zCreateRequire(import.meta.url);',
    },
  });
  return outfile;
}

/** What a child said before it was killed. */
export interface KilledChild {
  /** Its standard output up to the kill. */
  stdout: string;
  /** How long after it printed the line waited for ("ready") it was killed, in milliseconds. */
  killedAfter: number;
}

/**
 * Runs `node bundle ...args`, waits for the child to print `line` ("ready" unless told) on a line
 * of its own, then kills it with SIGKILL `delay` milliseconds later (from `delay()` when a
 * function: a random moment, say), and resolves once it has exited. Waiting for a line the child
 * prints as it gets on ("committed 2") kills it at a point of its work, however slowly a loaded
 * machine runs it; a delay alone lands wherever the machine had got to. A child that exits by
 * itself or fails to print the line within 60 s is an error carrying its standard error.
 */
export function killAfterReady(
  bundle: string,
  args: readonly string[],
  delay: number | (() => number),
  line = "ready",
): Promise<KilledChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let killedAfter: number | undefined;
    const timeout = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the child never said ${JSON.stringify(line)}: ${stderr}`));
    }, 60_000);
    /** Whether `line` came, as a whole line. */
    const said = () => stdout.split("\n").slice(0, -1).includes(line);
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      const waiting = !said();
      stdout += text;
      if (waiting && said()) {
        clearTimeout(timeout);
        const ms = typeof delay === "function" ? delay() : delay;
        setTimeout(() => {
          killedAfter = ms;
          child.kill("SIGKILL");
        }, ms);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => void (stderr += text));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timeout);
      if (signal === "SIGKILL" && killedAfter !== undefined) resolve({ stdout, killedAfter });
      else reject(new Error(`the child exited by itself (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}
