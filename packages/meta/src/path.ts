import { PathError } from "./errors.js";

/**
 * A logical path normalized as the spec requires: backslashes become slashes, leading and
 * trailing slashes go, runs of slashes collapse to one. `""` (also for `null`/`undefined`) is the
 * root. A `.` or `..` segment throws a `PathError`, since stores would resolve them differently.
 */
export function normalizeStoragePath(path?: string | null): string {
  if (path === undefined || path === null || path === "") return "";
  const normalized = path
    .replace(/\\/g, "/")
    .replace(/^\/+|\/+$/g, "")
    .replace(/\/{2,}/g, "/");
  if (normalized.split("/").some((segment) => segment === "." || segment === "..")) {
    throw new PathError(`Path "${path}" has a "." or ".." segment, which Zarr does not allow`, { key: path });
  }
  return normalized;
}

/** Joins path pieces with `/` and normalizes the result; empty pieces add nothing. */
export function joinPath(...parts: readonly (string | null | undefined)[]): string {
  return normalizeStoragePath(parts.filter((part) => part !== null && part !== undefined && part !== "").join("/"));
}

/** The prefix of every key under `path`: `""` for the root, otherwise the path and a `/`. */
export function keyPrefix(path?: string | null): string {
  const normalized = normalizeStoragePath(path);
  return normalized === "" ? "" : `${normalized}/`;
}
