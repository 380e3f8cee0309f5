/** One `zarr` subcommand: its name, its help text, and what it does with its arguments. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Returns the process exit code. */
  run(args: ParsedArgs, io: Io): Promise<number>;
}

export interface ParsedArgs {
  readonly positional: readonly string[];
  readonly flags: ReadonlyMap<string, string | true>;
}

/** Where a command writes; injected so tests can capture it. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal, so progress bars make sense. */
  readonly interactive: boolean;
}

/** An error the user caused (bad arguments): printed without a stack, exit code 2. */
export class UsageError extends Error {}

/** `--name value`, `--name=value` and bare `--flag`; everything else is positional. */
export function parseArgs(argv: readonly string[], booleanFlags: ReadonlySet<string> = new Set()): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "--") {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    if (eq !== -1) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (booleanFlags.has(arg.slice(2)) || i + 1 >= argv.length || argv[i + 1]!.startsWith("--")) flags.set(arg.slice(2), true);
    else flags.set(arg.slice(2), argv[++i]!);
  }
  return { positional, flags };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}
