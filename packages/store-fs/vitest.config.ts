import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: { name: "store-fs", include: ["test/**/*.test.ts"] },
});
