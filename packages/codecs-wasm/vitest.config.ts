import { defineProject } from "vitest/config";
import { encodersSetup, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: { name: "codecs-wasm", include: ["test/**/*.test.ts"], setupFiles: [encodersSetup] },
});
