import { readFileSync } from "node:fs";
import { ZarrError } from "@z/meta";
import { checkFlags, CommandError, parseArgs, UsageError, type Command, type Io } from "./command.js";
import { attrs } from "./commands/attrs.js";
import { consolidate } from "./commands/consolidate.js";
import { copy } from "./commands/copy.js";
import { createCommand } from "./commands/create.js";
import { demo } from "./commands/demo.js";
import { digest } from "./commands/digest.js";
import { exportCommand } from "./commands/export.js";
import { get } from "./commands/get.js";
import { importCommand } from "./commands/import.js";
import { info } from "./commands/info.js";
import { migrate } from "./commands/migrate.js";
import { removeMetadataCommand } from "./commands/remove-metadata.js";
import { resize } from "./commands/resize.js";
import { serve } from "./commands/serve.js";
import { tree } from "./commands/tree.js";
import { validate } from "./commands/validate.js";

export const commands: readonly Command[] = [
  demo,
  info,
  tree,
  get,
  exportCommand,
  importCommand,
  createCommand,
  attrs,
  resize,
  digest,
  copy,
  consolidate,
  migrate,
  removeMetadataCommand,
  validate,
  serve,
];

const STORE_HELP = `STORE is a directory (data.zarr), a zip file (data.zip), a file:// or http(s):// URL, an
s3://bucket/path URL (credentials, region and endpoint from AWS_*), or a TensorStore-style URL naming
a node inside it: file:///abs/data.zarr|zarr2:group/array, s3://bucket/x.zarr|zarr3:group,
https://host/data.zip|zarr2:group. Zarr v2 (.zarray, .zgroup) and v3 (zarr.json) are both found;
a node with both is read as v3, as zarr-python 3 reads it. http(s) URLs are read-only. Exit codes: 0 ok, 1 failure, 2 bad usage.`;

function help(io: Io, write: (text: string) => void = io.out): void {
  write("usage: zarr <command> [arguments]\n\ncommands:\n");
  for (const c of commands) write(`  ${c.name.padEnd(15)} ${c.summary}\n`);
  write(`\n${STORE_HELP}\nrun \`zarr <command> --help\` for a command's arguments\n`);
}

function commandHelp(command: Command): string {
  return `usage: ${command.usage}\n\n${command.summary}\n${command.details === undefined ? "" : `\n${command.details}\n`}`;
}

/** A message for an error, naming the key it is about when the message does not already. */
function describeError(error: ZarrError | CommandError): string {
  const key = error.key;
  const code = error instanceof ZarrError ? ` [${error.code}]` : "";
  const withKey =
    key !== undefined && key !== "" && !error.message.includes(key) ? `${error.message} (key ${key})` : error.message;
  return withKey + code;
}

/** Runs the `zarr` command line; returns the exit code (0 ok, 1 failure, 2 usage). */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    if (name === "help" && rest[0] !== undefined) return main([rest[0], "--help"], io);
    help(io, name === undefined ? io.err : io.out);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version") {
    io.out(`zarr (@z/cli) ${packageVersion()}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (command === undefined) {
    io.err(`zarr: unknown command "${name}"\n`);
    help(io, io.err);
    return 2;
  }
  const flags = command.flags ?? {};
  const booleans = new Set([
    "help",
    ...Object.entries(flags)
      .filter(([, k]) => k === "boolean")
      .map(([n]) => n),
  ]);
  const args = parseArgs(rest, booleans);
  if (args.flags.has("help")) {
    io.out(commandHelp(command));
    return 0;
  }
  try {
    checkFlags(args, flags);
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`zarr ${name}: ${error.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    if (io.signal?.aborted && (error === io.signal.reason || (error instanceof Error && error.name === "AbortError"))) {
      io.err(`zarr ${name}: interrupted\n`);
      return 130;
    }
    if (error instanceof ZarrError || error instanceof CommandError) {
      io.err(`zarr ${name}: ${describeError(error)}\n`);
      return 1;
    }
    throw error;
  }
}

/** The version in the package's own package.json (beside dist/ and src/ alike). */
function packageVersion(): string {
  const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}
