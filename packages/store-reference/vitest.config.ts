import { defineProject } from "vitest/config";
import { generousTimeouts, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: { ...generousTimeouts, name: "store-reference", include: ["test/**/*.test.ts"] },
});
