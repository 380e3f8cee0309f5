/// <reference types="node" />
/**
 * Large buffers in transparent huge pages, in Node on Linux: what numpy does for its arrays, which
 * Node cannot do without a native call. Where Linux's transparent huge pages are in `madvise` mode
 * (the usual default), memory is otherwise mapped 4 KiB at a time as it is first written: a
 * 256 MiB result takes 65,536 page faults instead of 128.
 *
 * @packageDocumentation
 */

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

interface Addon {
  advise(view: ArrayBufferView): number;
  /** Where the view's memory starts (0n for none). */
  address(view: ArrayBufferView): bigint;
}

let addon: Addon | null | undefined;
let unavailable: string | undefined;

function load(): Addon | null {
  if (addon !== undefined) return addon;
  addon = null;
  if (process.env.Z_HUGE_PAGES === "0") unavailable = "turned off by Z_HUGE_PAGES=0";
  else if (process.platform !== "linux") unavailable = "transparent huge pages are a Linux feature";
  else {
    const require = createRequire(import.meta.url);
    try {
      addon = require("../build/huge-pages.node") as Addon;
    } catch (error) {
      unavailable = `the addon was not built (${buildReason(require) ?? (error as Error).message})`;
    }
  }
  return addon;
}

/** What the install script said when it could not build the addon. */
function buildReason(require: NodeJS.Require): string | undefined {
  try {
    return readFileSync(require.resolve("../build/unavailable.txt"), "utf8").trim();
  } catch {
    return undefined;
  }
}

/**
 * Asks Linux to back the memory of `view` with 2 MiB pages when it is first written. Call it on a
 * new buffer before writing to it; memory already written keeps its pages. Only the whole 2 MiB
 * pages inside the view are advised, so views of less than 2-4 MiB gain nothing.
 *
 * Returns the bytes advised, or 0 when nothing was: no 2 MiB page inside the view, or huge pages
 * unavailable here (see `hugePagesUnavailable`), or the kernel refused. Set `Z_HUGE_PAGES=0` to
 * turn it off (as numpy's `NUMPY_MADVISE_HUGEPAGE=0`).
 */
export function adviseHugePages(view: ArrayBufferView): number {
  const native = load();
  if (native === null) return 0;
  return Math.max(0, native.advise(view));
}

/** Why `adviseHugePages` does nothing in this process, or `undefined` when it works. */
export function hugePagesUnavailable(): string | undefined {
  load();
  return unavailable;
}

/**
 * The bytes of `view` whose memory holds the huge-page advice: the `hg` flag of the mappings
 * Linux lists in `/proc/self/smaps`, which `adviseHugePages` sets. That is what was asked, not what
 * was granted: whether Linux finds free 2 MiB pages to back it when it is first written (the
 * mappings' `AnonHugePages`) depends on the machine's memory at the time, and is not told here.
 * 0 where huge pages are unavailable (see `hugePagesUnavailable`).
 */
export function hugePagesAdvised(view: ArrayBufferView): number {
  const native = load();
  if (native === null || view.byteLength === 0) return 0;
  const start = native.address(view);
  const end = start + BigInt(view.byteLength);
  let advised = 0n;
  // Each mapping: a line "start-end perms offset dev inode [path]", its fields, then "VmFlags: ...".
  for (const mapping of readFileSync("/proc/self/smaps", "latin1").split(/^(?=[0-9a-f]+-[0-9a-f]+ )/m)) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) /.exec(mapping);
    if (range === null || !/^VmFlags:.* hg\b/m.test(mapping)) continue;
    const from = BigInt(`0x${range[1]}`);
    const to = BigInt(`0x${range[2]}`);
    const overlap = (to < end ? to : end) - (from > start ? from : start);
    if (overlap > 0n) advised += overlap;
  }
  return Number(advised);
}
