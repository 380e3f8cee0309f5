// The Node user without @z/store-s3 (an optional peer of @z/core, design-18): opening an s3:// URL
// with @z/core/node's openLocation is a LocationError that names the package to install, before
// any request. Usage: node s3-missing.js
import { LocationError } from "@z/core";
import { openLocation } from "@z/core/node";
import { expect } from "./check.js";

let opened: { close(): Promise<void> } | undefined;
try {
  opened = await openLocation("s3://bucket/x.zarr");
} catch (error) {
  expect(error instanceof LocationError, `a LocationError, got ${String(error)}`);
  expect(error.packageName === "@z/store-s3", `packageName @z/store-s3, got ${error.packageName}`);
  expect(/npm install @z\/store-s3/.test(error.message), `the message to name @z/store-s3: ${error.message}`);
  console.log(`without @z/store-s3: ${error.message}`);
}
if (opened !== undefined) {
  await opened.close();
  throw new Error("opened an s3:// URL although this project does not depend on @z/store-s3");
}
