import { StoreError } from "@z/meta";

/** The `code` of a Node system error (`ENOENT`, `EISDIR`, …), if it is one. */
export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The file is not there, or cannot be (a path component is a file): the key has no value. */
export function isMissing(err: unknown): boolean {
  const code = errorCode(err);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** Wraps an I/O failure as a `StoreError` naming the key, the path and the cause. */
export function ioError(action: string, key: string, path: string, err: unknown): StoreError {
  const detail = err instanceof Error ? err.message : String(err);
  return new StoreError(`cannot ${action} ${JSON.stringify(key)} (${path}): ${detail}`, { key, cause: err });
}

/** Lets the error of an aborted operation through as it is; anything else becomes a `StoreError`. */
export function rethrow(
  signal: AbortSignal | undefined,
  action: string,
  key: string,
  path: string,
  err: unknown,
): never {
  if (signal?.aborted === true || (err instanceof Error && err.name === "AbortError")) throw err;
  throw ioError(action, key, path, err);
}
