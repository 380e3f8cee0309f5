import { defineProject } from "vitest/config";
import { encodersSetup, testServerSetup, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  // The HTTP server the http-*.test.ts files read zarr-python's fixtures from (scripts/test-server/),
  // in Node and in Chromium alike.
  test: { name: "core", include: ["test/**/*.test.ts"], setupFiles: [encodersSetup], globalSetup: [testServerSetup] },
});
