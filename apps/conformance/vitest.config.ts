import { defineProject } from "vitest/config";
import { encodersSetup, generousTimeouts, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    ...generousTimeouts,
    name: "conformance",
    include: ["test/**/*.test.ts"],
    setupFiles: [encodersSetup],
    testTimeout: 60_000,
  },
});
