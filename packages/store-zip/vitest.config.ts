import { defineProject } from "vitest/config";
import { testServerSetup, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  // The HTTP server the tests run against (scripts/test-server/), in Node and in Chromium alike.
  test: { name: "store-zip", include: ["test/**/*.test.ts"], globalSetup: [testServerSetup] },
});
