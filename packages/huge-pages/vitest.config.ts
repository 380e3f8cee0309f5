import { defineProject } from "vitest/config";
import { generousTimeouts, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    ...generousTimeouts,
    name: "huge-pages",
    include: ["test/**/*.test.ts"],
  },
});
