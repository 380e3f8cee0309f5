import { defineProject } from "vitest/config";
import { generousTimeouts, testServerSetup, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  // The HTTP server the tests run against (scripts/test-server/), in Node and in Chromium alike.
  test: {
    ...generousTimeouts,
    name: "store-http",
    include: ["test/**/*.test.ts"],
    globalSetup: [testServerSetup],
  },
});
