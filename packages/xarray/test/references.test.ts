/**
 * A NetCDF4 file opened as a dataset through kerchunk-style reference sets (made by
 * packages/store-reference/test/python/make_refs.py: time, lat, lon coordinates, `temp` int16 with
 * scale_factor/add_offset/_FillValue and a `coordinates` attribute naming `area`, `precip` float32 with a NaN fill and chunks never written,
 * zlib + shuffle, `_ARRAY_DIMENSIONS` as kerchunk writes them, CF times) in the three forms fsspec
 * reads (JSON v0, v1 with templates, Parquet): openDataset gives what xarray gives through fsspec's
 * ReferenceFileSystem and `xr.open_zarr` (python/xarray_refs.py): dims, coords, attrs, encoding
 * and values bit for bit, with the reference file and its target on disk and over HTTP.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openLocation } from "@z/core/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_FILES, type Form, makeReferences, refsPython } from "../../store-reference/test/fixtures.js";
import { type RangeServer, startRangeServer } from "../../store-reference/test/range-server.js";
import { openDataset } from "../src/index.js";
import { type ExpectedDataset, expectDataset } from "./expected.js";

const { dir } = makeReferences();
const run = spawnSync(refsPython(), [new URL("./python/xarray_refs.py", import.meta.url).pathname, dir], {
  encoding: "utf8",
  timeout: 300_000,
});
if (run.status !== 0) throw new Error(`xarray_refs.py failed:\n${run.stderr.slice(-3000)}`);
const xarray = JSON.parse(readFileSync(join(dir, "xarray.json"), "utf8")) as Record<Form, ExpectedDataset>;

let server: RangeServer;
beforeAll(async () => {
  server = await startRangeServer(dir);
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(Object.keys(FORM_FILES) as Form[])("openDataset on references (%s) reads what xarray reads", (form) => {
  const file = FORM_FILES[form];

  it("on disk, from the plain path of the reference file, consolidated: false as in Python", async () => {
    const opened = await openLocation(join(dir, file));
    try {
      await expectDataset(await openDataset(opened, { consolidated: false }), xarray[form], `${form} on disk`);
    } finally {
      await opened.close();
    }
  });

  it("over HTTP, from a location openLocation opened, with consolidated metadata left to openDataset", async () => {
    const opened = await openLocation(`reference://${server.url}/${file}`);
    try {
      // A Parquet set's .zmetadata is fsspec's (record_size and the metadata), not Zarr's
      // consolidated metadata: openDataset reads it only when it is Zarr's.
      const ds = await openDataset(opened);
      await expectDataset(ds, xarray[form], `${form} over HTTP`);
    } finally {
      await opened.close();
    }
  });

  it("decodes the CF times and the packed temperatures as xarray does", async () => {
    const opened = await openLocation(`reference://${join(dir, file)}`);
    const ds = await openDataset(opened);
    expect(ds.dims).toEqual(xarray[form].dim_order);
    expect(ds.coords).toEqual(["area", "lat", "lon", "time"]);
    expect(ds.get("time").dtype).toBe("datetime64[ns]");
    expect(ds.get("temp").encoding.scale_factor).toBe(0.01);
    expect(ds.get("temp").dtype).toBe("float32");
    await opened.close();
  });
});
