/** The kind of value a flag takes: `string` flags need a value, `boolean` flags never take one. */
export type FlagKind = "string" | "boolean";

/** One `zarr` subcommand: its name, its help text, and what it does with its arguments. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** More help after the usage line (options, examples); printed by `--help`. */
  readonly details?: string;
  /** The flags the command accepts (besides `--help`); any other flag is a usage error. */
  readonly flags?: Readonly<Record<string, FlagKind>>;
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
  /** Aborted when the user asks to stop (Ctrl-C): long work stops, `serve` shuts down. */
  readonly signal?: AbortSignal;
  /** Width of the terminal for progress bars (default 80). */
  readonly columns?: number;
}

/** An error the user caused (bad arguments): printed with the usage line, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * A failure about the data or the files the command works on (missing store, bad file, a key that
 * does not decode): printed without a stack, exit code 1.
 */
export class CommandError extends Error {
  override readonly name = "CommandError";
  /** The store key or file the error is about, when there is one. */
  readonly key: string | undefined;
  constructor(message: string, options: { key?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.key = options.key;
  }
}

/** `--name value`, `--name=value` and bare `--flag`; `-h` is `--help`; everything else is positional. */
export function parseArgs(argv: readonly string[], booleanFlags: ReadonlySet<string> = new Set()): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      flags.set("help", true);
      continue;
    }
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    if (eq !== -1) flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (booleanFlags.has(arg.slice(2)) || i + 1 >= argv.length || argv[i + 1]!.startsWith("--"))
      flags.set(arg.slice(2), true);
    else flags.set(arg.slice(2), argv[++i]!);
  }
  return { positional, flags };
}

/** Refuses flags the command does not know, and values given to boolean flags. */
export function checkFlags(args: ParsedArgs, known: Readonly<Record<string, FlagKind>>): void {
  for (const [name, value] of args.flags) {
    if (name === "help") continue;
    const kind = known[name];
    if (kind === undefined) {
      const names = Object.keys(known).map((n) => `--${n}`);
      throw new UsageError(`unknown option --${name}${names.length ? ` (options: ${names.join(", ")})` : ""}`);
    }
    if (kind === "string" && value === true) throw new UsageError(`--${name} needs a value`);
    if (kind === "boolean" && value !== true) throw new UsageError(`--${name} takes no value`);
  }
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

export function booleanFlag(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

/** `--name true|false` (also 1/0, yes/no). */
export function trueFalseFlag(args: ParsedArgs, name: string): boolean | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  if (["true", "1", "yes"].includes(lower)) return true;
  if (["false", "0", "no"].includes(lower)) return false;
  throw new UsageError(`--${name} must be true or false, got ${JSON.stringify(value)}`);
}

/** A non-negative integer flag. */
export function integerFlag(
  args: ParsedArgs,
  name: string,
  options: { min?: number; max?: number } = {},
): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  const n = /^[+-]?\d+$/.test(value.trim()) ? Number(value) : NaN;
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = options;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/**
 * A list of integers such as `10,20` (also `[10, 20]`, `(10, 20)` or a single `10`). With
 * `allowNull`, `null`/`-1` items come back as -1 (e.g. a chunk the full length of its dimension).
 */
export function parseIntegerList(text: string, what: string, options: { allowFull?: boolean } = {}): number[] {
  const body = text
    .trim()
    .replace(/^[[(]\s*|\s*[\])]$/g, "")
    .trim();
  if (body === "") return [];
  const items = body.split(",").map((s) => s.trim());
  if (items[items.length - 1] === "" && items.length > 1) items.pop(); // `(10,)`
  return items.map((item) => {
    if (options.allowFull && (item === "null" || item === "None" || item === "-1")) return -1;
    const n = /^\+?\d+$/.test(item) ? Number(item) : NaN;
    if (!Number.isSafeInteger(n)) {
      throw new UsageError(
        `${what} must be a comma-separated list of non-negative integers, got ${JSON.stringify(text)}`,
      );
    }
    return n;
  });
}

/** The positional arguments, checked for count. */
export function positionals(args: ParsedArgs, min: number, max: number, names: string): string[] {
  const list = [...args.positional];
  if (list.length < min) throw new UsageError(`missing ${names.split(" ").slice(list.length, min).join(" ")}`);
  if (list.length > max) throw new UsageError(`unexpected argument ${JSON.stringify(list[max])}`);
  return list;
}
