import { defineProject } from "vitest/config";
import { encodersSetup, generousTimeouts, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    ...generousTimeouts,
    name: "bench",
    include: ["test/**/*.test.ts"],
    setupFiles: [encodersSetup],
    // the load test runs `zarr serve` from the CLI's dist/, built here when stale as for the CLI's own tests
    globalSetup: ["../../packages/cli/test/global-setup.ts"],
  },
});
