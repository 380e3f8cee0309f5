import { defineProject } from "vitest/config";
import { generousTimeouts, s3ServerSetup, testServerSetup, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  // The S3 server (s3rver behind a SigV4 check, scripts/test-s3/) and the fault-injecting HTTP
  // server (scripts/test-server/), which the fault tests put in front of it as a proxy.
  test: {
    ...generousTimeouts,
    name: "store-s3",
    include: ["test/**/*.test.ts"],
    globalSetup: [s3ServerSetup, testServerSetup],
    testTimeout: 30_000,
  },
});
