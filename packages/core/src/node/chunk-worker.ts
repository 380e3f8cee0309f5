/// <reference types="node" />
// The entry of a chunk pool thread (see worker-pool.ts): runs batches as they arrive.
import { parentPort } from "node:worker_threads";
import type { WritableStore } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { jobsCache, runBatch, serializeError } from "../chunk-jobs.js";
import type { PoolBatch, PoolReply, StoreSpec } from "../chunk-pool.js";
import { defaultCodecRegistry } from "../codec-registry.js";

const jobsFor = jobsCache(defaultCodecRegistry);
const stores = new Map<string, WritableStore>();

/** The directory a batch names; reads are synchronous here, where nothing else waits on this thread. */
function storeFor(spec: StoreSpec): WritableStore {
  const id = `${spec.fsync ? "fsync:" : ""}${spec.root}`;
  let store = stores.get(id);
  if (store === undefined) {
    const directory = new DirectoryStore(spec.root, { fsync: spec.fsync });
    store = {
      get: async (key) => directory.getSync(key),
      set: (key, value, options) => directory.set(key, value, options),
      delete: (key, options) => directory.delete(key, options),
    };
    stores.set(id, store);
  }
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
