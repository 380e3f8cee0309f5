/// <reference types="node" />
// The entry of a chunk pool thread (see worker-pool.ts): runs batches as they arrive.
import { parentPort } from "node:worker_threads";
import { setLargeBufferAdvice } from "@z/codecs/registry";
import {
  openThreadStore,
  registerStoreDriver,
  storeDriverForThread,
  storePackageForThread,
  StoreError,
  type StoreDriver,
  type StorePackageName,
  type WritableStore,
} from "@z/meta";
import { jobsCache, runBatch, serializeError, withSyncReads } from "../chunk-batches.js";
import type { EncodedItem, PoolBatch, PoolReply, StoreSpec } from "../chunk-pool.js";
import { defaultCodecRegistry } from "../codec-registry.js";
import { enableEncoders } from "../encoders.js";
import { hugePagesAsked } from "./huge-pages-asked.js";
import { installedStoreDriver } from "./store-packages.js";

// Large buffers in huge pages when asked (Z_HUGE_PAGES=1, as on the calling thread: see
// huge-pages-asked.ts) and @z/huge-pages is installed (an optional peer of @z/core, left out of the
// bundle: it loads its native addon from its own folder); without it, or when it fails to load,
// nothing changes but speed. Batches wait for it.
const advice: Promise<void> = hugePagesAsked()
  ? import("@z/huge-pages").then(
      (hugePages) => setLargeBufferAdvice(hugePages.adviseHugePages),
      () => undefined,
    )
  : Promise.resolve();
enableEncoders();

const jobsFor = jobsCache(defaultCodecRegistry);
const stores = new Map<string, WritableStore>();

/**
 * Registers the driver that reopens `spec` in this thread unless one is: the `threadStoreDriver`
 * export of the module the spec names (see `ThreadStoreSpec` of `@z/meta`), else the driver of the
 * store package of z's that reopens its kind, imported by the name the store registry gives. This
 * thread names no store package, and opens any store that says how.
 */
const driverLoads = new Map<string, Promise<void>>();
function loadDriver(spec: StoreSpec | undefined): Promise<void> | undefined {
  if (spec === undefined || storeDriverForThread(spec.kind) !== undefined) return;
  const from = spec.module ?? storePackageForThread(spec.kind);
  if (from === undefined) return;
  let load = driverLoads.get(from);
  if (load === undefined) {
    load = (
      spec.module === undefined ? installedStoreDriver(from as StorePackageName) : threadStoreDriverOf(from)
    ).then((driver) => {
      if (driver === undefined)
        throw new StoreError(`${from} is not installed: it reopens ${spec.kind} stores in threads`);
      registerStoreDriver(driver);
    });
    driverLoads.set(from, load);
  }
  return load;
}

async function threadStoreDriverOf(module: string): Promise<StoreDriver> {
  const { threadStoreDriver } = (await import(module)) as { threadStoreDriver?: StoreDriver };
  if (threadStoreDriver === undefined)
    throw new StoreError(`${module} has no threadStoreDriver export (a ThreadStoreSpec's module must have one)`);
  return threadStoreDriver;
}

/** The store a batch names (opened by the driver registered for its kind), read synchronously. */
function storeFor(spec: StoreSpec): WritableStore {
  const id = JSON.stringify(spec);
  let store = stores.get(id);
  if (store === undefined) {
    const opened = openThreadStore(spec);
    if (opened === undefined)
      throw new Error(`no store driver reopens ${JSON.stringify(spec.kind)} stores in a thread`);
    stores.set(id, (store = withSyncReads(opened as WritableStore)));
  }
  return store;
}

parentPort!.on("message", async ({ id, batch }: { id: number; batch: PoolBatch }) => {
  let reply: PoolReply;
  let returned: ArrayBuffer[] = [];
  try {
    await advice;
    await loadDriver(batch.store);
    const result = await runBatch(batch, jobsFor, storeFor);
    if ("decoded" in result) {
      // A read's chunks, decoded into buffers of this thread's, go to the caller whole.
      reply = { ok: true, decoded: result.decoded };
      returned = result.buffers;
    } else {
      // Encoded bytes are copied back, not transferred: a codec may hand out a view of memory it
      // keeps (a WASM heap cannot be transferred at all). The chunks' own buffers go back whole
      // for the caller to fill again, unless an encoding is a view of one (no compressor).
      if (batch.op === "encode")
        returned = reusable(
          batch.items.map((item) => item.data),
          result,
        );
      reply = { ok: true, encoded: result, ...(returned.length > 0 ? { returned } : {}) };
    }
  } catch (error) {
    reply = { ok: false, error: serializeError(error) };
    returned = [];
  }
  parentPort!.postMessage({ id, reply }, returned);
});

/** The plain, whole buffers behind `data` that no encoding shares. */
function reusable(data: readonly Uint8Array[], encoded: readonly EncodedItem[]): ArrayBuffer[] {
  const shared = new Set(encoded.map((e) => (e.kind === "encoded" ? e.bytes.buffer : undefined)));
  const buffers = new Set<ArrayBuffer>();
  for (const d of data) {
    const buffer = d.buffer;
    if (
      buffer instanceof ArrayBuffer &&
      d.byteOffset === 0 &&
      d.byteLength === buffer.byteLength &&
      !shared.has(buffer)
    )
      buffers.add(buffer);
  }
  return [...buffers];
}

// Loaded: the pool may now send work here rather than do it on the calling thread.
void advice.then(() => parentPort!.postMessage({ ready: true }));
