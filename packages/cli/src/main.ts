import { ZarrError } from "@z/meta";
import { parseArgs, UsageError, type Command, type Io } from "./command.js";
import { demo } from "./commands/demo.js";
import { info } from "./commands/info.js";

export const commands: readonly Command[] = [demo, info];

function help(io: Io): void {
  io.out("usage: zarr <command> [arguments]\n\ncommands:\n");
  for (const c of commands) io.out(`  ${c.name.padEnd(10)} ${c.summary}\n`);
  io.out("\nrun `zarr <command> --help` for a command's arguments\n");
}

/** Runs the `zarr` command line; returns the exit code (0 ok, 1 failure, 2 usage). */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    help(io);
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (command === undefined) {
    io.err(`zarr: unknown command "${name}"\n`);
    help(io);
    return 2;
  }
  const args = parseArgs(rest, new Set(["help", "json", "keep"]));
  if (args.flags.has("help")) {
    io.out(`usage: ${command.usage}\n\n${command.summary}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`zarr ${name}: ${error.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    if (error instanceof ZarrError) {
      io.err(`zarr ${name}: ${error.message} [${error.code}]\n`);
      return 1;
    }
    throw error;
  }
}
