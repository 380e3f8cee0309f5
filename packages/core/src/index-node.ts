/// <reference types="node" />
/**
 * `@z/core` as Node loads it (the `node` export condition): everything in `@z/core`, with a default
 * chunk pool of worker threads, so large reads and writes decode and encode on every core, large
 * buffers in huge pages where Linux allows it when asked (`Z_HUGE_PAGES=1`) and `@z/huge-pages` is
 * installed, and every encoder registered (`enableEncoders`).
 * Browsers and bundlers for them get `index.ts`, which has none.
 */
import { availableParallelism } from "node:os";
import { setLargeBufferAdvice } from "@z/codecs/registry";
import { setDefaultChunkPool } from "./chunk-pool.js";
import { enableEncoders } from "./encoders.js";
import { loadBeforeLargeBuffers } from "./large-buffers-loading.js";
import { hugePagesAsked } from "./node/huge-pages-asked.js";
import { importOptional } from "@z/meta";
import { WorkerPool } from "./node/worker-pool.js";

export * from "./index.js";

// One core is the calling thread's, which works alongside the pool; a single core gets no pool.
setDefaultChunkPool(availableParallelism() > 1 ? () => new WorkerPool() : undefined);
// With Z_HUGE_PAGES=1 (see node/huge-pages-asked.ts for why not by default), large results and
// scratch in 2 MiB pages where Linux allows it, as numpy's arrays are, through @z/huge-pages: an
// optional peer (a native addon), imported without holding up this module (no top-level await, so
// `require("@z/core")` works); reads and writes wait for it before they allocate. Not installed,
// or failing to load: no advice, and nothing changes but speed.
if (hugePagesAsked()) {
  loadBeforeLargeBuffers(
    importOptional("@z/huge-pages", () => import("@z/huge-pages")).then((hugePages) => {
      if (hugePages !== undefined) setLargeBufferAdvice(hugePages.adviseHugePages);
    }),
  );
}
// Encoders, each loaded when a codec first encodes with it.
enableEncoders();
