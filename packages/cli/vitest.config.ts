import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: "cli",
    include: ["test/**/*.test.ts"],
    // builds dist/ for the few tests that run `node dist/bin.js` as a subprocess
    globalSetup: ["test/global-setup.ts"],
  },
});
