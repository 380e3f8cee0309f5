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
  test: {
    ...generousTimeouts,
    name: "cli",
    include: ["test/**/*.test.ts"],
    setupFiles: [encodersSetup],
    // builds dist/ for the few tests that run `node dist/bin.js` as a subprocess; the shared HTTP
    // test server (scripts/test-server/) for stores read over HTTP; the S3 server (scripts/test-s3/)
    globalSetup: ["test/global-setup.ts", testServerSetup, s3ServerSetup],
  },
});
