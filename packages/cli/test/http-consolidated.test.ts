// A hierarchy published over plain HTTP (which cannot list keys) after `zarr consolidate`: its
// .zmetadata says what every group holds, so the commands that walk the hierarchy need no listing.
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, type Session } from "../../../scripts/test-server/client.js";
import { run, tempDir } from "./helpers.js";

/** Every file below `dir`, by its path inside it, in base64 (a test-server session's `values`). */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else out[`/${relative(dir, join(d, e.name))}`] = (await readFile(join(d, e.name))).toString("base64");
    }
  };
  await walk(dir);
  return out;
}

let local: string;
let session: Session;
let plain: Session;
beforeAll(async () => {
  local = join(await tempDir(), "h.zarr");
  const ok = async (argv: string[]): Promise<void> => expect((await run(argv)).code).toBe(0);
  await ok([
    "create",
    local,
    "--path",
    "g/a",
    "--shape",
    "4,6",
    "--chunks",
    "2,3",
    "--dtype",
    "<i2",
    "--fill-value",
    "7",
    "--compressor",
    '{"id": "zlib", "level": 1}',
  ]);
  await ok(["create", local, "--path", "g/sub/b", "--shape", "3", "--dtype", "<f8", "--compressor", "null"]);
  await ok(["create", local, "--path", "c", "--shape", "2", "--dtype", "|b1"]);
  await ok(["attrs", "set", local, "--path", "g", "title", '"grp"']);
  const before = await filesOf(local);
  await ok(["consolidate", local]);
  session = await openSession({ values: await filesOf(local) });
  plain = await openSession({ values: before });
});
afterAll(async () => {
  await session.end();
  await plain.end();
});

describe("a consolidated hierarchy over HTTP", () => {
  it("zarr tree draws it from .zmetadata, as it draws the directory", async () => {
    const expected = await run(["tree", local]);
    expect(await run(["tree", session.url])).toEqual(expected);
    expect(await run(["tree", session.url, "--path", "g", "--level", "1"])).toEqual(
      await run(["tree", local, "--path", "g", "--level", "1"]),
    );
    expect(await run(["tree", session.url, "--json"])).toEqual(await run(["tree", local, "--json"]));
    // one document says it all: no .zarray or .zgroup is asked for
    const asked = (await session.log()).requests.map((r) => r.path);
    expect(asked.filter((p) => /\.z(array|group|attrs)$/.test(p))).toEqual([]);
  });

  it("zarr info lists a group's members; an array's stored chunks stay unknown (HTTP cannot list them)", async () => {
    const group = await run(["info", local, "--path", "g"]);
    expect(await run(["info", session.url, "--path", "g"])).toEqual({
      ...group,
      out: group.out.replace("DirectoryStore", "ConsolidatedStore"),
    });
    const array = await run(["info", session.url, "--path", "g/a"]);
    expect(array.code).toBe(0);
    expect(array.out).toMatch(/Chunks initialized : \?\/4\n$/);
    const json = JSON.parse((await run(["info", session.url, "--path", "g/a", "--json"])).out) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ nchunks: 4, nchunks_initialized: null, nbytes_stored: null });
  });

  it("zarr digest of a group digests every array below it", async () => {
    expect(await run(["digest", session.url])).toEqual(await run(["digest", local]));
  });

  it("reads values through it", async () => {
    expect(await run(["get", session.url, "--path", "g/a", "--json"])).toEqual(
      await run(["get", local, "--path", "g/a", "--json"]),
    );
  });

  it("commands that need every key still say the store cannot list them", async () => {
    const validate = await run(["validate", session.url]);
    expect(validate.code).toBe(2);
    expect(validate.err).toMatch(/cannot list its keys/);
    const copy = await run(["copy", session.url, join(await tempDir(), "x.zarr")]);
    expect(copy.code).toBe(2);
    expect(copy.err).toMatch(/cannot list its keys/);
  });

  it("published with .zmetadata only: chunks are not counted as missing", async () => {
    const values = Object.fromEntries(
      Object.entries(await filesOf(local)).filter(([path]) => !/\.z(array|group|attrs)$/.test(path)),
    );
    const only = await openSession({ values });
    try {
      expect((await run(["tree", only.url])).out).toBe((await run(["tree", local])).out);
      expect((await run(["info", only.url, "--path", "g/a"])).out).toMatch(/Chunks initialized : \?\/4\n$/);
    } finally {
      await only.end();
    }
  });

  it("without .zmetadata, walking a hierarchy over HTTP still needs a listing", async () => {
    const tree = await run(["tree", plain.url]);
    expect(tree.code).toBe(1);
    expect(tree.err).toMatch(/the store cannot list its keys/);
  });
});
