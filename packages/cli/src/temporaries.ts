import { basename, dirname, join, relative, sep } from "node:path";
import { findTemporaryFiles, type TemporaryFile } from "@z/store-fs";
import type { StoreLocation } from "./store-arg.js";

/**
 * How long a temporary file must have gone unwritten before `zarr validate --fix` takes it for
 * the leftover of a killed write rather than a write in progress, which removing it would fail.
 */
export const STALE_AFTER_MS = 60_000;

/** A temporary file of an atomic write found with a store (see {@link temporaryFiles}). */
export interface Leftover {
  /** How it is named in messages: its path from the store's root, or a zip file's working copy's own path. */
  readonly name: string;
  readonly file: TemporaryFile;
  /** Unwritten for at least {@link STALE_AFTER_MS}: left by a write that was killed part way. */
  readonly stale: boolean;
}

/**
 * The temporary files of atomic writes that belong to a local store: in a directory store, those
 * below the node `path` (z's `.<name>.<hex>.partial`, zarr-python's `<name>.<hex>.partial`); for
 * a zip file, the working copies `fileByteSource` writes beside it. None for other stores.
 */
export async function temporaryFiles(location: StoreLocation, path: string, now = Date.now()): Promise<Leftover[]> {
  let found: TemporaryFile[];
  let name: (file: TemporaryFile) => string;
  if (location.kind === "directory") {
    found = await findTemporaryFiles(path === "" ? location.path : join(location.path, ...path.split("/")), {
      recursive: true,
    });
    name = (file) => relative(location.path, file.path).split(sep).join("/");
  } else if (location.kind === "zip" && !location.remote) {
    found = await findTemporaryFiles(dirname(location.file), { of: basename(location.file) });
    name = (file) => file.path;
  } else {
    return [];
  }
  return found.map((file) => ({ name: name(file), file, stale: now - file.modified.getTime() >= STALE_AFTER_MS }));
}
