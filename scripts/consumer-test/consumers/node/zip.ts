// Zip files from the Node user. Usage: node zip.js missing|present FIXTURES.
// - missing (@z/core and @z/store-fs installed, not @z/store-zip): opening a .zip is a
//   LocationError that names the package to install (design-18: an optional peer of @z/core);
// - present (@z/store-zip installed too): reads zarr-python's zip, writes one and reads it back.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, LocationError, openArray, slice } from "@z/core";
import { openLocation } from "@z/core/node";
import { expect, sameBytes, zarrPythonBytes } from "./check.js";

const [mode, fixtures = ""] = process.argv.slice(2);
const zip = join(fixtures, "hierarchy.zip");

if (mode === "missing") {
  let opened: { close(): Promise<void> } | undefined;
  try {
    opened = await openLocation(zip);
  } catch (error) {
    expect(error instanceof LocationError, `a LocationError, got ${String(error)}`);
    expect(/@z\/store-zip/.test(error.message), `the message to name @z/store-zip: ${error.message}`);
    console.log(`without @z/store-zip: ${error.message}`);
  }
  if (opened !== undefined) {
    await opened.close();
    throw new Error("opened a .zip file although this project does not depend on @z/store-zip");
  }
} else {
  const python = await openLocation(zip);
  const lz4 = await openArray(python.store, { path: "lz4", mode: "r" });
  expect(sameBytes((await lz4.get()).data as ArrayBufferView, zarrPythonBytes(fixtures, "lz4")), "lz4 from the zip");
  await python.close();
  console.log("read an array from zarr-python's zip file");

  const dir = mkdtempSync(join(tmpdir(), "z-consumer-"));
  try {
    const path = join(dir, "new.zip");
    const written = await openLocation(path, { writable: true });
    const z = await create({ store: written.store, shape: [4], chunks: [2], dtype: "<f8" });
    await z.set([slice(0, 4)], Float64Array.from([0.5, 1.5, 2.5, 3.5]));
    await written.close();
    const reopened = await openLocation(path);
    const back = await (await openArray(reopened.store, { mode: "r" })).get();
    expect(Array.from(back.data as Float64Array).join() === "0.5,1.5,2.5,3.5", `the values back, got ${back.data}`);
    await reopened.close();
    console.log("wrote a zip file and read it back");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
