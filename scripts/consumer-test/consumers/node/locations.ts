// Opening locations with the openers of the store packages (design-18): @z/core's openLocation
// uses only those it is given (`fsLocations` from @z/store-fs, `zipLocations` from @z/store-zip)
// and, without them, names the package and the export to pass. Usage: node locations.js FIXTURES.
import { join } from "node:path";
import { LocationError, openArray, openLocation } from "@z/core";
import { fsLocations } from "@z/store-fs";
import { zipLocations } from "@z/store-zip";
import { expect, sameBytes, zarrPythonBytes } from "./check.js";

const fixtures = process.argv[2] ?? "";
const directory = join(fixtures, "hierarchy.zarr");

try {
  await openLocation(directory);
  throw new Error("@z/core's openLocation opened a directory without fsLocations");
} catch (error) {
  expect(error instanceof LocationError, `a LocationError, got ${String(error)}`);
  expect(
    /@z\/store-fs/.test(error.message) && /fsLocations/.test(error.message),
    `@z/store-fs and fsLocations named: ${error.message}`,
  );
}

for (const [where, opened] of [
  ["directory", await openLocation(directory, { ...fsLocations })],
  ["zip file", await openLocation(join(fixtures, "hierarchy.zip"), { ...fsLocations, ...zipLocations })],
] as const) {
  const lz4 = await openArray(opened.store, { path: "lz4", mode: "r" });
  expect(
    sameBytes((await lz4.get()).data as ArrayBufferView, zarrPythonBytes(fixtures, "lz4")),
    `lz4 from the ${where}`,
  );
  await opened.close();
}
console.log("@z/core's openLocation with fsLocations and zipLocations: zarr-python's directory and zip");
