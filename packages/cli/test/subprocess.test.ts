import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { FIXTURES, STORE } from "./helpers.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
}

function zarr(
  args: string[],
  options: {
    onStdout?: (text: string, kill: (signal: NodeJS.Signals) => void, child: ReturnType<typeof spawn>) => void;
  } = {},
): Promise<Done> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      options.onStdout?.(stdout, (signal) => child.kill(signal), child);
    });
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the zarr command", () => {
  it("prints values and exits 0", async () => {
    const expected = JSON.parse(await readFile(join(FIXTURES, "store-expected.json"), "utf8")) as {
      gets: { path: string; selection: string; repr: string }[];
    };
    const g = expected.gets.find((x) => x.path === "grp/a" && x.selection === "-3:,1:11:4")!;
    expect(await zarr(["get", STORE, "--path", "grp/a", "-3:,1:11:4"])).toEqual({
      code: 0,
      stdout: `${g.repr}\n`,
      stderr: "",
    });
  });

  it("exits 1 for data errors and 2 for usage errors, without stack traces", async () => {
    const missing = await zarr(["info", join(FIXTURES, "nope")]);
    expect(missing).toEqual({ code: 1, stdout: "", stderr: `zarr info: no such store: ${join(FIXTURES, "nope")}\n` });
    const unknown = await zarr(["nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^zarr: unknown command "nope"/);
    const bad = await zarr(["get", STORE, "--path", "grp/a", "1:2:3:4"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  it("reads a zip file through a TensorStore URL", async () => {
    const expected = JSON.parse(await readFile(join(FIXTURES, "store-expected.json"), "utf8")) as {
      gets: { path: string; selection: string; repr: string }[];
    };
    const g = expected.gets.find((x) => x.path === "u" && x.selection === "")!;
    expect(await zarr(["get", `${pathToFileURL(join(FIXTURES, "store.zip")).href}|zarr2:u`])).toEqual({
      code: 0,
      stdout: `${g.repr}\n`,
      stderr: "",
    });
  });

  it("runs the demo", async () => {
    const { code, stdout } = await zarr(["demo"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^wrote and read back 1200000 values in .*\/example\nrows 997-999, cols 0-2 \(unwritten, fill value -1\): -1 -1 -1 -1 -1 -1 -1 -1 -1\n\nName +: \/example\n/,
    );
    expect(stdout).toContain("Chunks initialized : 16/16\n");
  }, 20_000);

  it("stops quietly when its reader goes away (| head)", async () => {
    const done = await zarr(["get", STORE, "--path", "big"], { onStdout: (_, __, child) => child.stdout?.destroy() });
    expect(done.stderr).toBe("");
    expect(done.code === 0 || done.code === null).toBe(true);
  });

  it("serves until Ctrl-C", async () => {
    let status: number | undefined;
    let started = false;
    const done = await zarr(["serve", STORE], {
      onStdout: (text, kill) => {
        const url = /http:\/\/\S+/.exec(text)?.[0];
        if (url === undefined || started) return;
        started = true;
        void fetch(`${url}grp/a/.zarray`).then((response) => {
          status = response.status;
          kill("SIGINT");
        });
      },
    });
    expect(status).toBe(200);
    expect(done.code).toBe(0);
    expect(done.stderr).toBe("stopped\n");
  });

  it("its package entry loads through require() too (the exports' default condition)", async () => {
    const script = `const m = require("@z/cli"); console.log(typeof m.main);`;
    const done = await new Promise<Done>((resolve, reject) => {
      const child = spawn(process.execPath, ["-e", script], { cwd: fileURLToPath(new URL("..", import.meta.url)) });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(done).toEqual({ code: 0, stdout: "function\n", stderr: "" });
  });
});
