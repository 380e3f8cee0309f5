import { defineProject } from "vitest/config";
import {
  encodersSetup,
  generousTimeouts,
  s3ServerSetup,
  testServerSetup,
  workspaceAliases,
} from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  // The HTTP server the http-*.test.ts files read zarr-python's fixtures from (scripts/test-server/),
  // in Node and in Chromium alike; the S3 server the s3-*.test.ts files write to (scripts/test-s3/).
  test: {
    ...generousTimeouts,
    name: "core",
    include: ["test/**/*.test.ts"],
    setupFiles: [encodersSetup],
    globalSetup: ["test/global-setup.ts", testServerSetup, s3ServerSetup],
  },
});
