// One build of the packages' dist/ at a time across vitest's projects and workers: the CLI's and
// @z/core's global set-ups each build what their subprocess tests load when it is stale, and two
// `tsc -b` over the same project references at once write the same files under each other (a
// test loading dist/ meanwhile reads half-written modules). Whoever takes the lock checks for
// staleness again, so a build done by the other is not repeated.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const LOCK = join(fileURLToPath(new URL("../../node_modules/.cache/", import.meta.url)), "z-build.lock");
const pause = new Int32Array(new SharedArrayBuffer(4));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `build` under the build lock unless `fresh()` says dist/ is up to date (checked under the lock). */
export function buildUnderLock(fresh: () => boolean, build: () => void): void {
  if (fresh()) return;
  mkdirSync(join(LOCK, ".."), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, "pid"), String(process.pid));
      break;
    } catch {
      // held: wait for its holder, or take it over from a holder that died
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(join(LOCK, "pid"), "utf8"));
      } catch {}
      if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(LOCK, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 100);
    }
  }
  try {
    if (!fresh()) build();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
