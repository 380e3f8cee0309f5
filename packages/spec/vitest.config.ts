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
  // The HTTP server spec-behaviour.test.ts reads zarr-python's fixtures from (scripts/test-server/),
  // the S3 server spec-s3-tensorstore.test.ts writes to (scripts/test-s3/).
  test: {
    ...generousTimeouts,
    name: "spec",
    include: ["test/**/*.test.ts"],
    setupFiles: [encodersSetup],
    globalSetup: [testServerSetup, s3ServerSetup],
  },
});
