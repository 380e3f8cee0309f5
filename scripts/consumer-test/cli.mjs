// The zarr command as installed from @z/cli's tarball: node_modules/.bin/zarr on fixtures
// zarr-python wrote (a directory, a zip file, over HTTP), and a create/info round trip.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { root, run } from "./lib.mjs";
import { FIXTURES } from "./servers.mjs";

export async function cliChecks(checks, label, project, { dataUrl, packages }) {
  const zarr = (...args) => run(join(project, "node_modules/.bin/zarr"), args, { cwd: project, timeout: 60_000 });
  const fixtures = join(root, FIXTURES);
  const json = (result) => {
    try {
      return JSON.parse(result.stdout);
    } catch {
      return undefined;
    }
  };
  const shape = (want) => (result) => {
    const got = json(result)?.shape;
    return JSON.stringify(got) === JSON.stringify(want) ? undefined : `shape ${JSON.stringify(got)}, wanted [${want}]`;
  };

  checks.command(label, "zarr --help", await zarr("--help"), (r) =>
    /usage: zarr <command>/.test(r.stdout) ? undefined : "no usage line",
  );
  const { version } = packages.get("@z/cli");
  checks.command(label, "zarr --version", await zarr("--version"), (r) =>
    r.stdout.includes(version) ? undefined : `not the installed version ${version}`,
  );
  checks.command(
    label,
    "zarr info on a directory zarr-python wrote",
    await zarr("info", join(fixtures, "hierarchy.zarr"), "--path", "sub/zlib"),
    (r) => (/int16/.test(r.stdout) && /\(50, 20\)/.test(r.stdout) ? undefined : "no int16 (50, 20) in the info"),
  );
  checks.command(
    label,
    "zarr info on zarr-python's zip file",
    await zarr("info", join(fixtures, "hierarchy.zip"), "--path", "lz4", "--json"),
    shape([37, 45]),
  );
  checks.command(
    label,
    "zarr info over HTTP",
    await zarr("info", `${dataUrl}hierarchy.zarr|zarr2:zstd`, "--json"),
    shape([7, 9, 11]),
  );

  const dir = mkdtempSync(join(project, "cli-"));
  try {
    const store = join(dir, "new.zarr");
    const created = await zarr(
      "create",
      store,
      "--shape",
      "100,200",
      "--chunks",
      "10,10",
      "--dtype",
      "<f4",
      "--path",
      "a/b",
    );
    if (checks.command(label, "zarr create", created)) {
      checks.command(
        label,
        "zarr info on what zarr create wrote",
        await zarr("info", store, "--path", "a/b", "--json"),
        (r) => {
          const info = json(r);
          return JSON.stringify([info?.shape, info?.chunks]) === "[[100,200],[10,10]]"
            ? undefined
            : "not shape [100,200], chunks [10,10]";
        },
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
