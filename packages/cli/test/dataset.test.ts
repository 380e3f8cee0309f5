// `zarr info --dataset` and `zarr export --decode-cf` on datasets xarray wrote (the fixtures of
// @z/xarray, with what xarray printed and read from each, recorded by its xarray_fixtures.py).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readNpy } from "../src/npy/index.js";
import { run, tempDir } from "./helpers.js";

const XARRAY_FIXTURES = fileURLToPath(new URL("../../xarray/test/fixtures/", import.meta.url));

interface Recorded {
  repr: string;
  dataset: { variables: Record<string, { dtype: string; shape: number[]; values: { base64?: string } }> };
}

const recorded = async (name: string): Promise<Recorded> =>
  JSON.parse(await readFile(join(XARRAY_FIXTURES, `${name}.json`), "utf8")) as Recorded;

describe("zarr info --dataset", () => {
  for (const name of ["packed-small-plain", "noleap", "curvilinear", "strings", "selection", "times"]) {
    it(`prints ${name} as xarray prints it`, async () => {
      const result = await run(["info", join(XARRAY_FIXTURES, `${name}.zarr`), "--dataset"]);
      expect(result).toEqual({ code: 0, out: `${(await recorded(name)).repr}\n`, err: "" });
    });
  }

  it("refuses --json with it, and a group that is not a dataset", async () => {
    expect((await run(["info", join(XARRAY_FIXTURES, "noleap.zarr"), "--dataset", "--json"])).code).toBe(2);
    const store = fileURLToPath(new URL("./fixtures/store", import.meta.url));
    const result = await run(["info", store, "--dataset"]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/no _ARRAY_DIMENSIONS attribute/);
  });
});

describe("zarr export --decode-cf", () => {
  it("writes the values xarray decodes (packed int16 to float32, masked as NaN) to .npy", async () => {
    const out = join(await tempDir(), "t2m.npy");
    const store = join(XARRAY_FIXTURES, "packed-small-plain.zarr");
    const result = await run(["export", store, "--path", "t2m", "--out", out, "--decode-cf"]);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/shape \[12, 10, 16\], dtype float32/);
    const { header, data } = readNpy(new Uint8Array(await readFile(out)));
    expect(header.dtype).toMatchObject({ kind: "f", itemsize: 4, byteOrder: "<" });
    expect(header.shape).toEqual([12, 10, 16]);
    const want = (await recorded("packed-small-plain")).dataset.variables.t2m!.values.base64!;
    expect(Buffer.from(data).toString("base64")).toBe(want);
  });

  it("writes times as datetime64[ns], and a selection of the decoded dimensions", async () => {
    const dir = await tempDir();
    const store = join(XARRAY_FIXTURES, "packed-small-plain.zarr");
    expect((await run(["export", store, "--path", "time", "--out", join(dir, "t.npy"), "--decode-cf"])).code).toBe(0);
    const { header, data } = readNpy(new Uint8Array(await readFile(join(dir, "t.npy"))));
    expect(header.dtype).toMatchObject({ kind: "M", unit: "ns" });
    const want = (await recorded("packed-small-plain")).dataset.variables.time!.values.base64!;
    expect(Buffer.from(data).toString("base64")).toBe(want);

    const json = join(dir, "t.json");
    const args = ["export", store, "--path", "time", "--out", json, "--decode-cf", "--selection", "1:3"];
    expect((await run(args)).code).toBe(0);
    expect(JSON.parse(await readFile(json, "utf8"))).toEqual({
      dtype: "datetime64[ns]",
      shape: [2],
      values: ["1999-12-30T06:00:00.000", "1999-12-30T12:00:00.000"],
    });
  });

  it("joins character arrays, and refuses dates of other calendars in .npy", async () => {
    const dir = await tempDir();
    const strings = join(XARRAY_FIXTURES, "strings.zarr");
    expect((await run(["export", strings, "--path", "chars", "--out", join(dir, "c.json"), "--decode-cf"])).code).toBe(
      0,
    );
    expect(JSON.parse(await readFile(join(dir, "c.json"), "utf8"))).toEqual({
      dtype: "|S4",
      shape: [6],
      // bytes, as base64 (as for every |S value in the JSON form)
      values: ["ab  ", "cd  ", "e   ", "    ", "fgh ", "ijkl"].map((t) => Buffer.from(t).toString("base64")),
    });
    const noleap = join(XARRAY_FIXTURES, "noleap.zarr");
    const refused = await run(["export", noleap, "--path", "time", "--out", join(dir, "n.npy"), "--decode-cf"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/decodes to object values .* export them as JSON/);
    expect((await run(["export", noleap, "--path", "time", "--out", join(dir, "n.json"), "--decode-cf"])).code).toBe(0);
    const doc = JSON.parse(await readFile(join(dir, "n.json"), "utf8")) as { values: string[] };
    expect(doc.values.slice(0, 2)).toEqual(["2001-01-01T00:00:00", "2001-02-01T00:00:00"]);
  });
});
