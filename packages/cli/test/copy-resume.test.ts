// A `zarr copy` that is stopped goes on: a copy killed (SIGKILL) after its N-th store write, into a
// directory and into the loopback S3 server (scripts/test-s3/), leaves no node where it was going,
// refuses to start over it unasked, and `--resume` finishes it: every key equal to the source's,
// byte for byte, and nothing else there (no temporary file, no stray key). A `--resume` over a
// finished copy writes nothing. The kill comes from the child itself, after a given count of
// completed writes (test/children/copy-child.ts), so each kill point is the same on every run.
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { S3Store } from "@z/store-s3";
import { beforeAll, describe, expect, it } from "vitest";
import { bundleChild } from "../../../scripts/test-child/child.js";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { sessionPool } from "../../../scripts/test-server/client.js";
import { FIXTURES, fixtureCopy, run, STORE, tempDir } from "./helpers.js";

let bundle = "";
beforeAll(async () => {
  bundle = await bundleChild(new URL("./children/copy-child.ts", import.meta.url));
}, 60_000);

interface ChildResult {
  signal: NodeJS.Signals | null;
  /** What the child printed when it ended by itself: its exit code and how many writes it made. */
  done?: { code: number; writes: number };
  stderr: string;
}

/** `zarr ...args` in a child process; with `killAfter`, it SIGKILLs itself after that many completed writes. */
function zarr(args: readonly string[], options: { killAfter?: number; env?: Record<string, string> } = {}) {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  if (options.killAfter !== undefined) env.ZARR_TEST_KILL_AFTER = String(options.killAfter);
  return new Promise<ChildResult>((resolve, reject) => {
    const child = spawn(process.execPath, [bundle, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => void (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => void (stderr += text));
    child.on("error", reject);
    child.on("close", (_code, signal) => {
      const last = stdout.trim().split("\n").pop() ?? "";
      resolve({ signal, stderr, done: last.startsWith("{") ? JSON.parse(last) : undefined });
    });
  });
}

/** Every file below `root` (hidden ones too), by its path from `root` with `/`. */
async function files(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.set(relative(root, path).split(sep).join("/"), await readFile(path));
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Each file's identity and last change: a file written again (renamed into place) gets a new inode. */
async function fingerprints(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await files(root)).keys()) {
    const s = await stat(join(root, name));
    out[name] = `${s.ino} ${s.mtimeMs} ${s.size}`;
  }
  return out;
}

const source = await files(STORE);
const KEYS = source.size; // 61: 44 chunks, then 17 metadata documents
const DATA_KEYS = [...source.keys()].filter((k) => !/(^|\/)\.z(array|group|attrs)$/.test(k)).length;
// first write; mid-chunks; the last chunk's (others in flight); among the documents; before the root's .zgroup
const KILL_POINTS = [1, 20, DATA_KEYS, DATA_KEYS + 5, KEYS - 1];

describe("zarr copy killed part way, then --resume", { timeout: 120_000 }, () => {
  it("has the fixture the kill points are chosen for", () => {
    expect([KEYS, DATA_KEYS]).toEqual([61, 44]);
  });

  it.each(KILL_POINTS)("into a directory, killed after write %i: finished with every file equal", async (n) => {
    const dst = join(await tempDir(), "copy.zarr");
    const killed = await zarr(["copy", STORE, dst], { killAfter: n });
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    const written = await files(dst);
    expect(written.size).toBeGreaterThanOrEqual(n);
    // no node yet (the root's .zgroup is the last write), and a plain copy says what to do
    expect(written.has(".zgroup")).toBe(false);
    expect((await run(["info", dst])).code).toBe(1);
    const again = await run(["copy", STORE, dst]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(
      /holds \d+ keys at the root but no array or group: a copy that was stopped part way\? Pass --resume/,
    );

    const resumed = await zarr(["copy", STORE, dst, "--resume"]);
    expect(resumed.done, resumed.stderr).toMatchObject({ code: 0 });
    // at least the keys already there were not written again (the writes in flight at the kill may have landed too)
    expect(resumed.done!.writes).toBeLessThanOrEqual(KEYS - n);
    expect(await files(dst)).toEqual(source);

    const before = await fingerprints(dst);
    const second = await zarr(["copy", STORE, dst, "--resume"]);
    expect(second.done).toEqual({ code: 0, writes: 0 });
    expect(second.stderr).toBe(`copied 0 keys (0 bytes) to ${dst}, kept ${KEYS} it held already\n`);
    expect(await fingerprints(dst)).toEqual(before);
  });

  it.each([1, DATA_KEYS - 3, KEYS - 1])(
    "into S3, killed after write %i: finished with every object equal",
    async (n) => {
      const bucket = await createBucket("cli-resume");
      const url = `s3://${bucket}/up/store.zarr`;
      const env = {
        AWS_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
        AWS_ENDPOINT_URL_S3: s3Endpoint(),
        AWS_REGION: "us-east-1",
      };
      const killed = await zarr(["copy", STORE, url, "--concurrency", "4"], { killAfter: n, env });
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      const bucketStore = new S3Store({
        bucket,
        prefix: "up/store.zarr",
        endpoint: s3Endpoint(),
        credentials: S3_TEST_CREDENTIALS,
        environment: {},
      });
      expect(await bucketStore.get(".zgroup")).toBeUndefined();

      const resumed = await zarr(["copy", STORE, url, "--resume", "--concurrency", "4"], { env });
      expect(resumed.done, resumed.stderr).toMatchObject({ code: 0 });
      const keys = (await bucketStore.list()).sort();
      expect(keys).toEqual([...source.keys()]);
      for (const key of keys) expect(Buffer.from((await bucketStore.get(key))!), key).toEqual(source.get(key));

      // a second run, through the logging test server: it lists and reads, and writes nothing
      const sessions = sessionPool();
      try {
        const session = await sessions.open({ proxy: s3Endpoint() });
        const second = await zarr(["copy", STORE, url, "--resume"], {
          env: { ...env, AWS_ENDPOINT_URL_S3: session.url },
        });
        expect(second.done, second.stderr).toEqual({ code: 0, writes: 0 });
        const { requests } = await session.log();
        expect(requests.length).toBeGreaterThan(0);
        expect(requests.filter((r) => r.method !== "GET" && r.method !== "HEAD")).toEqual([]);
      } finally {
        await sessions.endAll();
      }
    },
  );
});

describe("zarr copy --resume", () => {
  it("removes what the source lacks and the temporary files of killed writes, and rewrites changed documents", async () => {
    const dst = join(await tempDir(), "copy.zarr");
    expect((await run(["copy", STORE, dst])).code).toBe(0);
    await writeFile(join(dst, "big", "9.9"), "stray");
    await writeFile(join(dst, "nested", `.0.0.${"ab".repeat(16)}.partial`), "half");
    await writeFile(join(dst, "grp", "a", ".zattrs"), '{"units": "km"}');
    await rm(join(dst, "big", "0.0"));
    const { code, err } = await run(["copy", STORE, dst, "--resume"]);
    expect(code, err).toBe(0);
    expect(err).toBe(
      `copied 2 keys (${source.get("big/0.0")!.length + source.get("grp/a/.zattrs")!.length} bytes) to ${dst}, kept ${KEYS - 2} it held already, removed 1 keys the source lacks and 1 temporary files\n`,
    );
    expect(await files(dst)).toEqual(source);
  });

  it("keeps a chunk of the same name unless --verify, which compares and rewrites it", async () => {
    const dst = join(await tempDir(), "copy.zarr");
    expect((await run(["copy", STORE, dst])).code).toBe(0);
    const changed = Buffer.from(source.get("b/0")!).fill(7);
    await writeFile(join(dst, "b", "0"), changed);
    expect((await run(["copy", STORE, dst, "--resume"])).err).toMatch(/^copied 0 keys/);
    expect(await readFile(join(dst, "b", "0"))).toEqual(changed);
    // at a terminal, both the comparison and the copy show their progress
    const verified = await run(["copy", STORE, dst, "--resume", "--verify"], { interactive: true });
    expect(verified.code).toBe(0);
    expect(verified.err).toMatch(/verifying .*100% {2}61\/61.*copying .*100% {2}1\/1.*copied 1 keys/s);
    expect(verified.err).toMatch(/verifying \[[#.]+\] {3}1% {2}1\/61/); // counted against all 61 from the first
    expect(await files(dst)).toEqual(source);
  });

  it("refuses a node that is not a copy of the source, and flags that do not go together", async () => {
    const dst = join(await tempDir(), "copy.zarr");
    expect((await run(["copy", STORE, dst, "--path", "grp/a"])).code).toBe(0);
    const other = await run(["copy", STORE, dst, "--path", "nested", "--dest-path", "grp/a", "--resume"]);
    expect(other.code).toBe(1);
    expect(other.err).toMatch(
      /grp\/a\/\.zarray differs from the source's nested\/\.zarray: the destination holds another node, not a copy of this one \(pass --overwrite instead of --resume/,
    );
    expect((await run(["copy", STORE, dst, "--resume", "--overwrite"])).code).toBe(2);
    expect((await run(["copy", STORE, dst, "--verify"])).code).toBe(2);
    const plain = await run(["copy", STORE, dst, "--path", "grp/a"]);
    expect(plain.err).toMatch(/already has a node at "grp\/a" \(pass --overwrite to replace it, or --resume/);
  });

  it("finishes an interrupted copy of one node into a group, leaving its siblings alone", async () => {
    const dst = await fixtureCopy();
    await rm(join(dst, "big"), { recursive: true });
    // what a stopped copy of big leaves: some chunks, no .zarray
    await mkdir(join(dst, "big"));
    for (const key of ["0.0", "3.4"]) await writeFile(join(dst, "big", key), source.get(`big/${key}`)!);
    const plain = await run(["copy", STORE, dst, "--path", "big"]);
    expect(plain.err).toMatch(/holds 2 keys at "big" but no array or group/);
    expect((await run(["copy", STORE, dst, "--path", "big", "--resume"])).err).toMatch(
      /^copied 19 keys .* kept 2 it held already\n$/,
    );
    expect(await files(dst)).toEqual(await files(join(FIXTURES, "store")));
  });
});
