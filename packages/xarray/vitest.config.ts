import { configDefaults, defineProject } from "vitest/config";
import { encodersSetup, generousTimeouts, workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    ...generousTimeouts,
    name: "xarray",
    include: ["test/**/*.test.ts"],
    // Steps of a run that sets Z_XARRAY_OUT (see the files): never part of a plain `vitest run`.
    exclude: [...configDefaults.exclude, ...(process.env.Z_XARRAY_OUT ? [] : ["test/live-*.test.ts"])],
    setupFiles: [encodersSetup],
  },
});
