// TensorStore specs from the installed @z/spec: `openSpec` of @z/spec/node opens a spec's `file`
// and `zip` kvstores with the store packages installed (@z/store-fs, @z/store-zip, optional peers
// of @z/spec), and reads what zarr-python wrote; `specZarray` needs no store. Usage: node spec.js FIXTURES.
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { SpecError, specZarray } from "@z/spec";
import { openSpec } from "@z/spec/node";
import { expect, sameBytes, zarrPythonBytes } from "./check.js";

const fixtures = process.argv[2] ?? "";
const expected = zarrPythonBytes(fixtures, "lz4");

const directory = await openSpec({
  driver: "zarr2",
  kvstore: { driver: "file", path: join(fixtures, "hierarchy.zarr") },
  path: "lz4",
});
expect(sameBytes((await directory.get(null)).data as ArrayBufferView, expected), "lz4 from a file kvstore");
const zip = await openSpec(`${pathToFileURL(join(fixtures, "hierarchy.zip")).href}|zip:lz4/|zarr2:`);
expect(sameBytes((await zip.get(null)).data as ArrayBufferView, expected), "lz4 from a zip kvstore URL");

const zarray = JSON.parse(
  await specZarray({
    driver: "zarr2",
    kvstore: { driver: "memory" },
    create: true,
    metadata: { shape: [10], dtype: "<f8" },
  }),
) as { chunks: number[]; compressor: { id: string } | null };
expect(
  zarray.chunks[0] === 10 && zarray.compressor?.id === "blosc",
  `TensorStore's .zarray: ${JSON.stringify(zarray)}`,
);

try {
  await openSpec({ driver: "zarr2", kvstore: { driver: "memory" }, metadata: { dtype: "<f8", order: "X" } });
  throw new Error("a spec with order X opened");
} catch (error) {
  expect(error instanceof SpecError, `a SpecError, got ${String(error)}`);
}
console.log("@z/spec/node's openSpec: zarr-python's array from file and zip kvstores; specZarray");
