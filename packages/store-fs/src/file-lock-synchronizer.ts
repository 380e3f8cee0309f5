import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { open, readFile, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { StoreError, type Release, type Synchronizer } from "@z/meta";

export interface FileLockOptions {
  /** Longest wait between attempts, in milliseconds (default 50); waits start at 1 ms and double. */
  maxDelay?: number;
  /** Give up after this many milliseconds (default: wait as long as it takes). */
  timeout?: number;
}

/**
 * Locks keys between processes sharing a directory (zarr-python's `ProcessSynchronizer`): a key is
 * held by whoever creates its lock file (`O_EXCL`, atomic on local file systems). The file names
 * the holder's pid, so a lock left by a process that died is broken instead of blocking forever.
 * Breaking a stale lock is not atomic: should two waiters find the same dead holder at the same
 * instant, one may remove the lock the other just took. Stale locks only follow crashes, so this
 * needs a crash and a near-tie at once; network file systems without `O_EXCL` are not supported.
 */
export class FileLockSynchronizer implements Synchronizer {
  readonly directory: string;
  readonly #maxDelay: number;
  readonly #timeout: number;

  constructor(directory: string, options: FileLockOptions = {}) {
    this.directory = resolve(directory);
    mkdirSync(this.directory, { recursive: true });
    this.#maxDelay = options.maxDelay ?? 50;
    this.#timeout = options.timeout ?? Infinity;
  }

  /** The lock file of `key`: hashed, so any key makes a flat, safe file name. */
  lockPath(key: string): string {
    return join(this.directory, `${createHash("sha1").update(key).digest("hex")}.lock`);
  }

  async acquire(key: string, options: { signal?: AbortSignal } = {}): Promise<Release> {
    const path = this.lockPath(key);
    const started = Date.now();
    for (let delay = 1; ; delay = Math.min(delay * 2, this.#maxDelay)) {
      options.signal?.throwIfAborted();
      try {
        const handle = await open(path, "wx");
        await handle.writeFile(String(process.pid));
        await handle.close();
        return () => unlink(path).catch(() => {});
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") {
          throw new StoreError(`cannot lock ${JSON.stringify(key)} with ${path}: ${(err as Error).message}`, {
            key,
            cause: err,
          });
        }
      }
      if (await this.#holderIsGone(path)) continue;
      if (Date.now() - started > this.#timeout) {
        throw new StoreError(
          `timed out after ${this.#timeout} ms waiting for the lock on ${JSON.stringify(key)} (${path})`,
          { key },
        );
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  /** Removes a lock whose holder no longer runs; true when it did. */
  async #holderIsGone(path: string): Promise<boolean> {
    const pid = Number(await readFile(path, "utf8").catch(() => ""));
    // An empty file is a lock being written right now: leave it to its writer.
    if (!Number.isInteger(pid) || pid <= 0 || isAlive(pid)) return false;
    await unlink(path).catch(() => {});
    return true;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
