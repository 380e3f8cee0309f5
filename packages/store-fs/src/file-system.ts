import * as fsp from "node:fs/promises";
import type { Dirent, Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { readFileRange } from "./file-read.js";

/**
 * The few `node:fs/promises` functions the directory stores use. Pass some of them in
 * `DirectoryStoreOptions.fs` to wrap or replace them, e.g. to simulate a failing disk in tests;
 * the rest come from `node:fs/promises`.
 */
export interface StoreFileSystem {
  /** The whole file. */
  readFile(path: string, options: { signal?: AbortSignal | undefined }): Promise<Uint8Array>;
  /** `length` bytes from `offset`, fewer at the end of the file (by default one open, read and close). */
  readRange(
    path: string,
    offset: number,
    length: number,
    options: { signal?: AbortSignal | undefined },
  ): Promise<Uint8Array>;
  open(path: string, flags: string): Promise<FileHandle>;
  rename(oldPath: string, newPath: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string, options: { recursive: true }): Promise<string | undefined>;
  readdir(path: string, options: { withFileTypes: true }): Promise<Dirent[]>;
  rm(path: string, options: { recursive: true; force: true }): Promise<void>;
  stat(path: string): Promise<Stats>;
}

/** `node:fs/promises`, with the functions given in `overrides` swapped in. */
export function fileSystem(overrides: Partial<StoreFileSystem> = {}): StoreFileSystem {
  const base: StoreFileSystem = {
    readFile: (path, options) => fsp.readFile(path, options),
    readRange: (path, offset, length, options) => readFileRange(path, offset, length, options),
    open: (path, flags) => fsp.open(path, flags),
    rename: (oldPath, newPath) => fsp.rename(oldPath, newPath),
    unlink: (path) => fsp.unlink(path),
    mkdir: (path, options) => fsp.mkdir(path, options),
    readdir: (path, options) => fsp.readdir(path, options),
    rm: (path, options) => fsp.rm(path, options),
    stat: (path) => fsp.stat(path),
  };
  return { ...base, ...overrides };
}
