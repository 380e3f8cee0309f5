import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { commands } from "../src/main.js";
import { FIXTURES, fixtureCopy, run, STORE, tempDir } from "./helpers.js";

describe("help and usage", () => {
  it("lists the commands, with exit 2 when no command is given", async () => {
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^usage: zarr <command>/);
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    for (const c of commands) expect(help.out).toContain(`  ${c.name} `);
    expect((await run(["help", "get"])).out).toMatch(/^usage: zarr get STORE/);
  });

  it.each(commands.map((c) => c.name))("zarr %s --help", async (name) => {
    const { code, out } = await run([name, "--help"]);
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^usage: zarr ${name}`));
    expect((await run([name, "-h"])).out).toBe(out);
  });

  it("zarr --version prints the version in the package's package.json", async () => {
    const { version } = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(await run(["--version"])).toMatchObject({ code: 0, out: `zarr (@z/cli) ${version}\n` });
  });

  it("refuses an unknown command", async () => {
    const { code, err } = await run(["frobnicate"]);
    expect(code).toBe(2);
    expect(err).toMatch(/^zarr: unknown command "frobnicate"/);
  });

  it("refuses unknown options, and values for boolean ones", async () => {
    expect(await run(["tree", STORE, "--colour"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown option --colour \(options: --path, --level, --json\)\nusage: zarr tree/),
    });
    expect(await run(["tree", STORE, "--json=yes"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--json takes no value/),
    });
    expect(await run(["info", STORE, "--path"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--path needs a value/),
    });
    expect(await run(["tree", STORE, "--level", "x"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--level must be an integer/),
    });
    expect(await run(["info", STORE, "extra"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unexpected argument "extra"/),
    });
    expect(await run(["info"])).toMatchObject({ code: 2, err: expect.stringMatching(/missing STORE/) });
  });
});

describe("stores that are not there", () => {
  it.each(["info", "tree", "get", "digest", "validate", "consolidate", "attrs"])(
    "zarr %s on a missing store: exit 1 naming it",
    async (name) => {
      const missing = join(await tempDir(), "nope.zarr");
      const args = name === "attrs" ? ["attrs", "get", missing] : [name, missing];
      const { code, err } = await run(args);
      expect(code).toBe(1);
      expect(err).toBe(`zarr ${name}: no such store: ${missing}\n`);
    },
  );

  it("a file is not a directory store", async () => {
    const file = join(await tempDir(), "file.txt");
    await writeFile(file, "x");
    expect(await run(["info", file])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/is not a directory store/),
    });
  });

  it("a path with no node: exit 1 naming the keys", async () => {
    expect(await run(["get", STORE, "--path", "grp/missing"])).toMatchObject({
      code: 1,
      err: 'zarr get: no array or group at path "grp/missing" (no grp/missing/zarr.json, grp/missing/.zarray or grp/missing/.zgroup)\n',
    });
  });

  it("a group is not an array", async () => {
    expect(await run(["get", STORE, "--path", "grp"])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/"grp" is a group, not an array/),
    });
    expect(await run(["export", STORE, "--out", "x.npy"])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/the root is a group, not an array/),
    });
  });

  it("missing zip files, read-only URLs and unknown schemes", async () => {
    expect(await run(["info", "no-such-data.zip"])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^zarr info: no such store: no-such-data\.zip/),
    });
    expect(await run(["info", FIXTURES])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/no array or group at the root/),
    });
    expect(await run(["info", join(FIXTURES, "store-blosc-digest.txt|zip:")])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/is not a readable zip file/),
    });
    expect(await run(["attrs", "set", "https://example.com/data.zarr", "a", "1"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/HTTP stores are read-only\nusage: zarr attrs/),
    });
    expect(await run(["copy", STORE, "https://example.com/x.zip"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/zip files over HTTP are read-only/),
    });
    expect(await run(["info", "gs://bucket/data.zarr"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unsupported URL scheme/),
    });
    expect(await run(["info", `${pathToFileURL(STORE).href}|n5:`])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown part "n5:" \(expected zip:PATH, zarr2:PATH or zarr3:PATH\)/),
    });
  });
});

describe("bad selections and data errors", () => {
  it.each([
    ["1:2:3:4", 2, /item 1 "1:2:3:4" has more than two colons/],
    ["a", 2, /item 1 "a" is not an integer, a slice/],
    ["1,,2", 2, /item 2 "" is empty/],
    ["::0", 2, /slice step of zero/],
    ["1:x", 2, /slice bound "x" that is not an integer/],
    ["99999999999999999999", 2, /too large/],
    ["10", 1, /index 10 is out of bounds for dimension 0 with length 10/],
    ["-11", 1, /index -11 is out of bounds for dimension 0 with length 10/],
    ["0,0,0", 1, /too many indices for array; expected 2, got 3/],
    ["...,...", 1, /a single ellipsis/],
  ] as const)("get %s: exit %i", async (selection, code, message) => {
    const { code: actual, err } = await run(["get", STORE, "--path", "grp/a", selection]);
    expect(actual).toBe(code);
    expect(err).toMatch(message);
    if (code === 2) expect(err).toMatch(/\nusage: zarr get/);
  });

  it("a chunk that does not decode names its key", async () => {
    const { fixtureCopy } = await import("./helpers.js");
    const store = await fixtureCopy();
    await writeFile(join(store, "grp/a/1.1"), "garbage");
    const { code, err } = await run(["get", store, "--path", "grp/a"]);
    expect(code).toBe(1);
    expect(err).toMatch(/^zarr get: corrupt zlib data in chunk grp\/a\/1\.1.*\[ZARR_/);
  });

  it("a summarized repr reads only the chunks it shows", async () => {
    const { fixtureCopy } = await import("./helpers.js");
    const store = await fixtureCopy();
    await writeFile(join(store, "big/1.1"), "garbage"); // rows 10-19, columns 10-19: not shown
    const shown = await run(["get", store, "--path", "big"]);
    expect(shown.code).toBe(0);
    expect(shown.out).toBe((await run(["get", STORE, "--path", "big"])).out);
    const all = await run(["get", store, "--path", "big", "--json"]);
    expect(all.code).toBe(1);
    expect(all.err).toMatch(/big\/1\.1/);
  });

  it("an array whose codec this build lacks names the codec and the key", async () => {
    expect(await run(["get", join(FIXTURES, "store-blosc")])).toEqual({
      code: 0,
      out: "array([1, 2, 3, 4])\n",
      err: "",
    });
    const store = await fixtureCopy("store-blosc");
    const zarray = join(store, ".zarray");
    await writeFile(zarray, (await readFile(zarray, "utf8")).replace('"id": "blosc"', '"id": "nope"'));
    const { code, err } = await run(["get", store]);
    expect(code).toBe(1);
    expect(err).toMatch(/unknown codec "nope" in \.zarray/);
  });

  it("export checks its arguments before writing", async () => {
    const dir = await tempDir();
    expect(await run(["export", STORE, "--path", "b"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--out FILE is required/),
    });
    expect(await run(["export", STORE, "--path", "b", "--out", join(dir, "x.csv")])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/cannot tell the format/),
    });
    expect(await run(["export", STORE, "--path", "b", "--out", join(dir, "no/such/dir/x.npy")])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/cannot write .*x\.npy/),
    });
    expect(await run(["export", STORE, "--path", "b", "--out", join(dir, "x.npy"), "--selection", "7"])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/out of bounds/),
    });
  });

  it("bad JSON in an option is a usage error naming the option", async () => {
    const { code, err } = await run(["attrs", "set", STORE, "k", "[1,"]);
    expect(code).toBe(2);
    expect(err).toMatch(/^zarr attrs: value of k: is not valid JSON: expected a value at line 1 column 4/);
  });
});
