import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: { name: "conformance", include: ["test/**/*.test.ts"], testTimeout: 60_000 },
});
