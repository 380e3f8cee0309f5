// Creates the skeleton of a workspace package: node scripts/new-package.mjs <dir> "<description>" [dep ...] [--node]
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const node = args.includes("--node");
const [dir, description, ...deps] = args.filter((a) => a !== "--node");
const root = join("packages", dir);
if (existsSync(join(root, "package.json"))) throw new Error(`${root} exists`);
mkdirSync(join(root, "src"), { recursive: true });
mkdirSync(join(root, "test"), { recursive: true });
mkdirSync(join(root, "etc"), { recursive: true });

const write = (file, value) =>
  writeFileSync(join(root, file), typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`);

write("package.json", {
  name: `@z/${dir}`,
  version: "0.0.0",
  description,
  license: "MIT",
  type: "module",
  sideEffects: false,
  exports: {
    ".": { "@z/source": "./src/index.ts", types: "./dist/index.d.ts", import: "./dist/index.js" },
  },
  files: ["dist", "src"],
  scripts: {
    build: "tsc -b",
    typecheck: "tsc -p tsconfig.test.json",
    api: "api-extractor run",
    "api:update": "api-extractor run --local",
  },
  dependencies: Object.fromEntries(deps.map((d) => [`@z/${d}`, "workspace:^"])),
});
write("tsconfig.json", {
  extends: "../../tsconfig.base.json",
  compilerOptions: { rootDir: "src", outDir: "dist", ...(node ? { types: ["node"] } : {}) },
  include: ["src"],
  references: deps.map((d) => ({ path: `../${d}` })),
});
write("tsconfig.test.json", {
  extends: "../../tsconfig.base.json",
  compilerOptions: { composite: false, noEmit: true, declaration: false, declarationMap: false, types: ["node"] },
  include: ["src", "test"],
});
write(
  "vitest.config.ts",
  `import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: { name: "${dir}", include: ["test/**/*.test.ts"] },
});
`,
);
write("api-extractor.json", {
  $schema: "https://developer.microsoft.com/json-schemas/api-extractor/v7/api-extractor.schema.json",
  extends: "../../api-extractor.base.json",
});
if (!existsSync(join(root, "src/index.ts"))) write("src/index.ts", "export {};\n");
