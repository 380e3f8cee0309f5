// Starts the test S3 server (server.ts) as a child process: bundled by esbuild next to the
// workspace's node_modules (where s3rver and @smithy/signature-v4 resolve), run by this Node with
// --openssl-legacy-provider (see server.ts). For vitest's globalSetup and for scripts.
import { spawn } from "node:child_process";
import { mkdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../../", import.meta.url));

export interface SpawnedS3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** The server process's id (the load test reads its memory). */
  pid: number | undefined;
  close(): Promise<void>;
}

export interface SpawnS3ServerOptions {
  /** Each bucket's own CORS configuration decides cross-origin requests, as on S3 (server.ts). */
  bucketCors?: boolean;
}

export async function spawnS3Server(options: SpawnS3ServerOptions = {}): Promise<SpawnedS3Server> {
  const dir = `${root}node_modules/.cache/z-test-s3`;
  await mkdir(dir, { recursive: true });
  const outfile = `${dir}/server-${process.pid}.mjs`;
  await build({
    entryPoints: [fileURLToPath(new URL("./server.ts", import.meta.url))],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
  });
  // stdin is a pipe the child watches: if this process dies, the server goes too.
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", outfile, "--serve", ...(options.bucketCors ? ["--bucket-cors"] : [])],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => void (stderr += text));
  const endpoint = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`the S3 server did not start: ${stderr}`)), 120_000);
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line !== undefined) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { endpoint: string }).endpoint);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the S3 server exited (${code}): ${stderr}`));
    });
  });
  // Loaded: the bundle is not needed any more.
  await rm(outfile, { force: true });
  return {
    endpoint,
    pid: child.pid,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
