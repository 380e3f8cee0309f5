import { defineProject } from "vitest/config";
import { encodersSetup, generousTimeouts, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    ...generousTimeouts,
    name: "codecs",
    include: ["test/**/*.test.ts"],
    setupFiles: [encodersSetup],
  },
});
