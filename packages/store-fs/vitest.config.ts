import { defineProject } from "vitest/config";
import { generousTimeouts, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    ...generousTimeouts,
    name: "store-fs",
    include: ["test/**/*.test.ts"],
  },
});
