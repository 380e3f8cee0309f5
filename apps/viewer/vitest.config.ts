import { defineProject } from "vitest/config";
import { encodersSetup, generousTimeouts, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  // Generous limits: the test builds the page, writes a dataset with zarr-python and drives Chromium.
  test: {
    ...generousTimeouts,
    name: "viewer",
    include: ["test/**/*.test.ts"],
    setupFiles: [encodersSetup],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
