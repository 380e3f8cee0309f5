// Where S3Store reads AWS_* variables from when its options do not say: nothing in browsers (the
// package's main entry names no `process`), the process's environment in Node (index-node.ts sets
// it, as the package's `node` export condition loads it).

/** Environment variables by name. */
export type Environment = Readonly<Record<string, string | undefined>>;

let defaultEnvironment: (() => Environment) | undefined;

/** Sets where stores read `AWS_*` variables from by default (index-node.ts: the process's environment). */
export function setDefaultEnvironment(source: (() => Environment) | undefined): void {
  defaultEnvironment = source;
}

/** The default environment: the process's in Node, empty elsewhere. */
export function getDefaultEnvironment(): Environment {
  return defaultEnvironment?.() ?? {};
}
