import { mkdtempSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StoreError, type StoreOptions } from "@z/meta";
import { DirectoryStore, type DirectoryStoreOptions } from "./directory-store.js";

export interface TempStoreOptions extends DirectoryStoreOptions {
  /** The start of the directory's name; default `zarr-`. */
  prefix?: string;
  /** The directory to create it in; default `os.tmpdir()`. */
  dir?: string;
}

/**
 * A {@link DirectoryStore} in a fresh directory made with `mkdtemp` (under `os.tmpdir()` unless
 * told otherwise), like zarr-python's `TempStore`. `close()` (or `await using`) removes the
 * directory; if a store is never closed, its directory is removed when the process exits, as
 * zarr-python does with `atexit`.
 */
export class TempStore extends DirectoryStore implements AsyncDisposable {
  #closed = false;

  constructor(options: TempStoreOptions = {}) {
    const { prefix = "zarr-", dir = tmpdir(), ...rest } = options;
    let root: string;
    try {
      root = mkdtempSync(join(dir, prefix));
    } catch (err) {
      throw new StoreError(
        `cannot create a temporary directory in ${dir}: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    super(root, rest);
    removeAtExit.add(this.root);
    listenForExit();
  }

  /** Whether `close()` has been called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Its `set` only adds the check for `close()`: while open it is a plain directory store. */
  protected override plainValues(): boolean {
    const own = DirectoryStore.prototype;
    return !this.#closed && this.get === own.get && this.delete === own.delete;
  }

  /** After `close()`, writing would bring the directory back; it is refused instead. */
  override async set(key: string, value: Uint8Array, options?: StoreOptions): Promise<void> {
    if (this.#closed)
      throw new StoreError(`cannot write ${JSON.stringify(key)}: the TempStore at ${this.root} is closed`, { key });
    return super.set(key, value, options);
  }

  /** Removes the directory and everything in it. Calling it again does nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    removeAtExit.delete(this.root);
    try {
      await rm(this.root, { recursive: true, force: true });
    } catch (err) {
      throw new StoreError(
        `cannot remove the temporary directory ${this.root}: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

const removeAtExit = new Set<string>();
let listening = false;

function listenForExit(): void {
  if (listening) return;
  listening = true;
  process.once("exit", () => {
    for (const root of removeAtExit) {
      try {
        rmSync(root, { recursive: true, force: true });
      } catch {
        // the process is ending; nothing useful to do with the error
      }
    }
  });
}
