// What each kind of user installs, and what the consumer test checks in their project.
//
// - `stages`: the packages installed, in order; each stage is installed on top of the one before
//   and measured (packages in node_modules, MB on disk). `absent`: packages that stage must not
//   have installed anywhere in the tree (design-18: @z/core's store packages and @z/huge-pages are
//   optional peers). `run`: the consumer scripts run after the stage (paths under out/, with args).
// - `installScripts: false`: installing the subset must run no install script.
// - `sources`: files of consumers/ the project gets (in src/); .ts files are type-checked with
//   each of `tsconfigs` (typescript.mjs) and transpiled to out/ to run.
// - `typesNode`: the project adds @types/node (after measuring), as a Node user has it.
// - `browser`: entries bundled with esbuild and loaded in Chromium (browser.mjs); `dataset` reads
//   a dataset xarray wrote and is compared with what xarray read (dataset.mjs).
// - `cli`: the installed zarr command is run (cli.mjs).
// - `references: true`: the run makes a Parquet reference set with fsspec (references.mjs), served
//   from memory by a test server session per package manager (the page's `?references=`).
// - `s3: true`: the run starts the loopback S3 server (servers.mjs: scripts/test-s3, s3rver from the
//   workspace) and the subset's Node scripts get AWS_* pointing at it (its account, path-style)
//   and a bucket of their own per package manager (`{bucket}`; `{s3}`: the endpoint).
//
// | subset  | installs                                | checks                                                   |
// |---------|-----------------------------------------|----------------------------------------------------------|
// | browser | @z/core @z/store-http                   | tsc x3 (1 without @types/node); Chromium reads arrays    |
// | dataset | @z/core @z/store-http @z/xarray         | tsc x3 (1 without @types/node); Chromium reads a dataset |
// | references | @z/core @z/store-http @z/store-reference | tsc (DOM, no @types/node); Chromium reads a Parquet reference set |
// | node    | @z/core @z/store-fs, +@z/store-zip, +@z/spec | missing peers named; files, zips, specs; tsc x2     |
// | s3      | @z/core @z/store-s3                     | s3:// write/read with AWS_* env; tsc x2                  |
// | plugin  | @z/meta @z/codecs, +@z/core @z/spec @z/cli | the /testing kits, require(); a store's own scheme; tsc x2 |
// | cli     | @z/cli                                  | the installed zarr command; tsc x2                       |

/** `{fixtures}` in a run's arguments: the zarr-python fixture directory (packages/core/test/fixtures/http). */
export const FIXTURES = "{fixtures}";

/** `{bucket}` in a run's arguments: the subset's bucket on the test S3 server (one per package manager). */
export const BUCKET = "{bucket}";

/** `{s3}` in a run's arguments: the test S3 server's endpoint (`http://127.0.0.1:<port>`). */
export const S3_ENDPOINT = "{s3}";

export const subsets = [
  {
    name: "browser",
    title: "browser reader (@z/core + @z/store-http)",
    stages: [
      {
        packages: ["@z/core", "@z/store-http"],
        absent: ["@z/store-fs", "@z/store-zip", "@z/store-s3", "@z/huge-pages", "@types/node"],
      },
    ],
    installScripts: false,
    sources: [
      "common/one-import.ts",
      "browser/report.ts",
      "browser/read.ts",
      "browser/locations.ts",
      "browser/one-import.ts",
    ],
    tsconfigs: ["nodenext", "bundler", "bundler-dom"],
    typesNode: false,
    browser: ["read", "locations", "one-import"],
  },
  {
    name: "dataset",
    title: "dataset reader in the browser (@z/core + @z/store-http + @z/xarray)",
    stages: [
      {
        packages: ["@z/core", "@z/store-http", "@z/xarray"],
        absent: ["@z/store-fs", "@z/store-zip", "@z/store-s3", "@z/huge-pages", "@types/node"],
      },
    ],
    installScripts: false,
    sources: ["browser/report.ts", "browser/dataset.ts"],
    tsconfigs: ["nodenext", "bundler", "bundler-dom"],
    typesNode: false,
    browser: ["dataset"],
  },
  {
    name: "references",
    title: "reference sets in the browser (@z/core + @z/store-http + @z/store-reference)",
    stages: [
      {
        packages: ["@z/core", "@z/store-http", "@z/store-reference"],
        absent: ["@z/store-fs", "@z/store-zip", "@z/store-s3", "@z/huge-pages", "@types/node"],
      },
    ],
    installScripts: false,
    sources: ["browser/report.ts", "browser/references.ts"],
    // One configuration: the browser subsets check the other two for @z/core and @z/store-http.
    tsconfigs: ["bundler-dom"],
    typesNode: false,
    browser: ["references"],
    references: true,
  },
  {
    name: "node",
    title: "Node user (@z/core + @z/store-fs, then + @z/store-zip, then + @z/spec)",
    stages: [
      {
        packages: ["@z/core", "@z/store-fs"],
        absent: ["@z/store-zip", "@z/store-http", "@z/store-s3", "@z/huge-pages"],
        run: [["node/zip.js", "missing", FIXTURES], ["node/s3-missing.js"]],
      },
      {
        packages: ["@z/store-zip"],
        run: [
          ["node/write-read.js", FIXTURES],
          ["node/zip.js", "present", FIXTURES],
          ["node/locations.js", FIXTURES],
          ["node/one-import.js"],
          ["node/require.cjs"],
        ],
      },
      {
        packages: ["@z/spec"],
        absent: ["@z/store-http", "@z/store-s3", "@z/huge-pages"],
        run: [["node/spec.js", FIXTURES]],
      },
    ],
    sources: [
      "common/one-import.ts",
      "node/check.ts",
      "node/write-read.ts",
      "node/zip.ts",
      "node/locations.ts",
      "node/one-import.ts",
      "node/s3-missing.ts",
      "node/spec.ts",
      "node/require.cjs",
    ],
    tsconfigs: ["nodenext", "bundler"],
    typesNode: true,
  },
  {
    name: "s3",
    title: "S3 in Node (@z/core + @z/store-s3)",
    stages: [
      {
        packages: ["@z/core", "@z/store-s3"],
        // s3rver and the signer belong to the test S3 server, run from the workspace.
        absent: ["@z/store-fs", "@z/store-http", "@z/store-zip", "@z/huge-pages", "s3rver", "@smithy/signature-v4"],
        run: [["s3/write-read.js", `s3://${BUCKET}/x.zarr`, S3_ENDPOINT]],
      },
    ],
    sources: ["node/check.ts", "s3/write-read.ts"],
    tsconfigs: ["nodenext", "bundler"],
    typesNode: true,
    s3: true,
  },
  {
    name: "plugin",
    title:
      "plugin author (@z/meta + @z/codecs, their /testing kits; then + @z/core @z/spec @z/cli, a store's own scheme)",
    stages: [
      {
        packages: ["@z/meta", "@z/codecs"],
        absent: ["@z/core", "@types/node"],
        run: [["plugin/codec.js"], ["plugin/store.js"], ["plugin/require.cjs"]],
      },
      {
        // A store of the author's registered for a URL scheme and a kvstore driver: openLocation,
        // specs and the installed zarr command (ZARR_STORES) open it.
        packages: ["@z/core", "@z/spec", "@z/cli"],
        run: [["plugin/scheme.js"], ["plugin/scheme-node.mjs"]],
      },
    ],
    sources: [
      "plugin/codec.ts",
      "plugin/store.ts",
      "plugin/require.cjs",
      "plugin/scheme-driver.ts",
      "plugin/scheme.ts",
      "plugin/scheme-node.mjs",
    ],
    tsconfigs: ["nodenext", "bundler"],
    // Nothing of Node in the types of @z/meta and @z/codecs, or in the author's code.
    typesNode: false,
  },
  {
    name: "cli",
    title: "CLI (@z/cli alone)",
    stages: [{ packages: ["@z/cli"], run: [["cli/main.js", `${FIXTURES}/hierarchy.zarr/sub/zlib`]] }],
    sources: ["cli/main.ts"],
    tsconfigs: ["nodenext", "bundler"],
    typesNode: true,
    cli: true,
  },
];

/** The subset's stages, each with every package installed up to it. */
export function cumulativeStages(subset) {
  const installed = [];
  return subset.stages.map((stage, index) => {
    installed.push(...stage.packages);
    return {
      ...stage,
      index,
      installed: [...installed],
      label: index === 0 ? subset.name : `${subset.name} +${stage.packages.map((name) => name.slice(3)).join(" +")}`,
    };
  });
}
