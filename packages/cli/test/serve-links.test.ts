import { mkdir, readFile, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { sameFile } from "../src/served-directory-store.js";
import { fixtureCopy, serving, tempDir } from "./helpers.js";

// `zarr serve` answers every origin: a page in the user's browser can read whatever it serves. A
// symbolic link in the store that leads outside its directory must not make that the rest of the
// disk; links that stay inside are the store's own business and keep working.

const SECRET = "the contents of a file outside the store";

/** A store (a copy of the fixture) and, beside it, a directory `outside` with a file `passwd`. */
async function storeBesideSecret(): Promise<{ store: string; outside: string }> {
  const store = await fixtureCopy();
  const outside = join(store, "..", "outside");
  await mkdir(outside);
  await writeFile(join(outside, "passwd"), SECRET);
  return { store, outside };
}

/** What the server answers for `key`: status and body. */
async function get(base: string, key: string): Promise<{ status: number; body: string }> {
  const response = await fetch(base + key);
  return { status: response.status, body: await response.text() };
}

/** The answer for a key the store does not have, which a link leading outside must be too. */
const missing = (key: string) => ({ status: 404, body: `no key ${key}\n` });

describe("zarr serve: symbolic links", () => {
  let store: string;
  let outside: string;
  let zarray: string;
  beforeAll(async () => {
    ({ store, outside } = await storeBesideSecret());
    zarray = await readFile(join(store, "grp/a/.zarray"), "utf8");
    await symlink(outside, join(store, "evil")); // a directory, absolute
    await symlink("../outside", join(store, "evil-relative")); // a directory, relative
    await symlink(join(outside, "passwd"), join(store, "grp/leak")); // a file, absolute
    await symlink("../../outside/passwd", join(store, "grp/leak-relative")); // a file, relative
    await symlink("leak", join(store, "grp/chain")); // inside, to a link that leaves
    await symlink("/nonexistent-target", join(store, "dangling"));
    await symlink("grp", join(store, "alias")); // a directory inside, relative
    await symlink(join(store, "grp/a/.zarray"), join(store, "grp/zarray-link")); // a file inside, absolute
    await symlink("../../grp", join(store, "grp/a/up")); // inside, through ..
  });

  it("answers keys reached through links that leave the store as missing keys", async () => {
    await serving(store, [], async (base) => {
      for (const key of ["evil/passwd", "evil-relative/passwd", "grp/leak", "grp/leak-relative", "grp/chain"])
        expect(await get(base, key), key).toEqual(missing(key));
      expect(await get(base, "dangling")).toEqual(missing("dangling"));
      // the answer names neither the link's target nor anything of what is there
      const { body } = await get(base, "evil/passwd");
      expect(body).not.toContain(outside);
      expect(body).not.toContain(SECRET);
      // HEAD and ranges are refused alike
      expect((await fetch(`${base}grp/leak`, { method: "HEAD" })).status).toBe(404);
      expect((await fetch(`${base}grp/leak`, { headers: { Range: "bytes=0-3" } })).status).toBe(404);
    });
  });

  it("follows links that stay inside the store", async () => {
    await serving(store, [], async (base) => {
      expect(await get(base, "alias/a/.zarray")).toEqual({ status: 200, body: zarray });
      expect(await get(base, "grp/zarray-link")).toEqual({ status: 200, body: zarray });
      expect(await get(base, "grp/a/up/a/.zarray")).toEqual({ status: 200, body: zarray });
      const part = await fetch(`${base}alias/a/.zarray`, { headers: { Range: "bytes=2-6" } });
      expect(part.status).toBe(206);
      expect(await part.text()).toBe(zarray.slice(2, 7));
    });
  });

  it("checks each request: links made, or files replaced by links, while serving", async () => {
    const { store: live, outside: secret } = await storeBesideSecret();
    await serving(live, [], async (base) => {
      expect((await get(base, "grp/a/.zattrs")).status).toBe(200);
      expect(await get(base, "late/passwd")).toEqual(missing("late/passwd"));
      await symlink(secret, join(live, "late"));
      await symlink("grp", join(live, "late-inside"));
      await rm(join(live, "grp/a/.zattrs"));
      await symlink(join(secret, "passwd"), join(live, "grp/a/.zattrs"));
      expect(await get(base, "late/passwd")).toEqual(missing("late/passwd"));
      expect(await get(base, "grp/a/.zattrs")).toEqual(missing("grp/a/.zattrs"));
      expect((await get(base, "late-inside/a/.zarray")).status).toBe(200);
      // and back: a link removed and the file put back is served again
      await rm(join(live, "grp/a/.zattrs"));
      await writeFile(join(live, "grp/a/.zattrs"), "{}");
      expect(await get(base, "grp/a/.zattrs")).toEqual({ status: 200, body: "{}" });
    });
  });

  it("serves a store named through a link, bounded by the directory it names", async () => {
    const dir = await tempDir();
    const named = join(dir, "named.zarr");
    await symlink(store, named);
    await serving(named, [], async (base) => {
      expect(await get(base, "grp/a/.zarray")).toEqual({ status: 200, body: zarray });
      expect(await get(base, "evil/passwd")).toEqual(missing("evil/passwd"));
    });
  });

  it("refuses them under --path, through file:// URLs and TensorStore specs too", async () => {
    await serving(store, ["--path", "grp"], async (base) => {
      expect(await get(base, "leak")).toEqual(missing("leak"));
      expect((await get(base, "zarray-link")).status).toBe(200);
    });
    await serving(`file://${store}`, [], async (base) => {
      expect(await get(base, "evil/passwd")).toEqual(missing("evil/passwd"));
    });
    const spec = JSON.stringify({ driver: "zarr2", kvstore: { driver: "file", path: `${store}/` }, path: "grp" });
    await serving(spec, [], async (base) => {
      expect(await get(base, "leak")).toEqual(missing("leak"));
      expect((await get(base, "a/.zarray")).status).toBe(200);
    });
  });

  it("follows every link with --follow-symlinks", async () => {
    const result = await serving(store, ["--follow-symlinks"], async (base) => {
      expect(await get(base, "evil/passwd")).toEqual({ status: 200, body: SECRET });
      expect(await get(base, "grp/leak-relative")).toEqual({ status: 200, body: SECRET });
      expect(await get(base, "alias/a/.zarray")).toEqual({ status: 200, body: zarray });
      expect(await get(base, "dangling")).toEqual(missing("dangling"));
    });
    expect(result.code).toBe(0);
  });

  it("serves a zip file's link entries as the bytes stored, never as what they name", async () => {
    // A zip entry with Unix symlink mode holds its target's path as its data: ZipStore, like
    // zarr-python's, gives those bytes; nothing on disk is read.
    const dir = await tempDir();
    const zip = join(dir, "links.zip");
    const linkMode = (0o120777 << 16) >>> 0;
    await writeFile(
      zip,
      zipSync({
        ".zgroup": new TextEncoder().encode('{"zarr_format": 2}'),
        evil: [new TextEncoder().encode(join(outside, "passwd")), { os: 3, attrs: linkMode }],
      }),
    );
    await serving(zip, [], async (base) => {
      expect(await get(base, "evil")).toEqual({ status: 200, body: join(outside, "passwd") });
    });
  });
});

describe("zarr serve: the check without /proc", () => {
  // Where /proc/self/fd cannot name the opened file (macOS), the path is resolved after the open
  // and must name the same inode inside the root.
  it("accepts the file opened only when the path still resolves to it, inside the root", async () => {
    const { store, outside } = await storeBesideSecret();
    const root = await realpath(store);
    const inode = async (path: string) => {
      const { dev, ino } = await stat(path);
      return { dev, ino };
    };
    const inside = join(store, "grp/a/.zarray");
    await symlink(join(outside, "passwd"), join(store, "leak"));
    expect(await sameFile(inside, await inode(inside), root)).toBe(true);
    expect(await sameFile(join(store, "leak"), await inode(join(outside, "passwd")), root)).toBe(false);
    // opened through a link to outside that was swapped back before the check: another inode
    expect(await sameFile(inside, await inode(join(outside, "passwd")), root)).toBe(false);
    expect(await sameFile(join(store, "gone"), await inode(inside), root)).toBe(false);
  });
});
