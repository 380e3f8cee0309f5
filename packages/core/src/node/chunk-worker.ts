/// <reference types="node" />
// The entry of a chunk pool thread (see worker-pool.ts): runs batches as they arrive.
import { parentPort } from "node:worker_threads";
import type { WritableStore } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { jobsCache, runBatch, serializeError, withSyncReads } from "../chunk-jobs.js";
import type { PoolBatch, PoolReply, StoreSpec } from "../chunk-pool.js";
import { defaultCodecRegistry } from "../codec-registry.js";

const jobsFor = jobsCache(defaultCodecRegistry);
const stores = new Map<string, WritableStore>();

/** The directory a batch names, read synchronously. */
function storeFor(spec: StoreSpec): WritableStore {
  const id = `${spec.fsync ? "fsync:" : ""}${spec.root}`;
  let store = stores.get(id);
  if (store === undefined) stores.set(id, (store = withSyncReads(new DirectoryStore(spec.root, { fsync: spec.fsync }))));
  return store;
}

parentPort!.on("message", async ({ id, batch }: { id: number; batch: PoolBatch }) => {
  let reply: PoolReply;
  try {
    const encoded = await runBatch(batch, jobsFor, storeFor);
    // Encoded bytes are copied back, not transferred: a codec may hand out a view of memory it
    // keeps (a WASM heap cannot be transferred at all).
    reply = encoded === undefined ? { ok: true } : { ok: true, encoded };
  } catch (error) {
    reply = { ok: false, error: serializeError(error) };
  }
  parentPort!.postMessage({ id, reply });
});

// Loaded: the pool may now send work here rather than do it on the calling thread.
parentPort!.postMessage({ ready: true });
