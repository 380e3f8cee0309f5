/// <reference types="node" />
/**
 * `@z/core` as Node loads it (the `node` export condition): everything in `@z/core`, with a default
 * chunk pool of worker threads, so large reads and writes decode and encode on every core, large
 * buffers in huge pages where Linux allows it (`@z/huge-pages`), and every encoder registered
 * (`enableEncoders`).
 * Browsers and bundlers for them get `index.ts`, which has none.
 */
import { availableParallelism } from "node:os";
import { setLargeBufferAdvice } from "@z/codecs/registry";
import { adviseHugePages } from "@z/huge-pages";
import { setDefaultChunkPool } from "./chunk-pool.js";
import { enableEncoders } from "./encoders.js";
import { WorkerPool } from "./node/worker-pool.js";

export * from "./index.js";

// One core is the calling thread's, which works alongside the pool; a single core gets no pool.
setDefaultChunkPool(availableParallelism() > 1 ? () => new WorkerPool() : undefined);
// Large results and scratch in 2 MiB pages where Linux allows it, as numpy's arrays are.
setLargeBufferAdvice(adviseHugePages);
// Encoders, each loaded when a codec first encodes with it.
enableEncoders();
