/// <reference types="node" />
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { storePackageForThread, type Store } from "@z/meta";
import type { ChunkPool, PoolBatch, PoolReply, StoreSpec } from "../chunk-pool.js";

export interface WorkerPoolOptions {
  /**
   * Threads (default: `os.availableParallelism() - 1`, as the calling thread works too: it takes
   * batches whenever every thread is busy).
   */
  size?: number;
  /** See `ChunkPool.minBytes` (default 4 MiB). */
  minBytes?: number;
}

interface Pending {
  readonly batch: PoolBatch;
  readonly transfer: readonly ArrayBuffer[];
  readonly resolve: (reply: PoolReply) => void;
  readonly reject: (error: unknown) => void;
}

interface Thread {
  readonly worker: Worker;
  readonly waiting: Map<number, Pending>;
  ready: boolean;
  /** Resolves when the thread is ready, or when it dies before that. */
  readonly started: Promise<void>;
}

/** Batches one thread holds at once: one running, one queued behind it so the thread never idles. */
const PER_THREAD = 2;

/**
 * A `ChunkPool` of `worker_threads`. Threads start on the first batch and are kept for the next
 * call, but never keep the process alive while idle (only while loading or working). A thread that dies fails its batches with the
 * reason and is replaced on the next batch.
 */
export class WorkerPool implements ChunkPool {
  readonly size: number;
  readonly minBytes: number | undefined;
  readonly #threads: Thread[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 0;
  #closed = false;

  constructor(options: WorkerPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism() - 1));
    this.minBytes = options.minBytes;
  }

  run(batch: PoolBatch, transfer: readonly ArrayBuffer[] = []): Promise<PoolReply> {
    if (this.#closed) return Promise.reject(new Error("the worker pool is closed"));
    return new Promise((resolve, reject) => {
      this.#queue.push({ batch, transfer, resolve, reject });
      this.#pump();
    });
  }

  /**
   * A store that tells how a thread opens it again (`threadStore()`, `@z/meta`'s contract) is read
   * and written by the threads themselves: a `DirectoryStore` whose reads and writes are its own
   * (not over a file system of the caller's, not a subclass that changes them) says so. Its spec
   * names the module a thread reopens it with, or its kind is one a store package of z's reopens
   * (`STORE_PACKAGES` of `@z/meta`), which a thread then imports.
   */
  storeSpec(store: Store): StoreSpec | undefined {
    const spec = typeof store.threadStore === "function" ? store.threadStore() : undefined;
    if (typeof spec?.kind !== "string") return undefined;
    if (typeof spec.module !== "string" && storePackageForThread(spec.kind) === undefined) return undefined;
    // Plain data only: what a thread gets is what a structured clone of JSON gives.
    return JSON.parse(JSON.stringify(spec)) as StoreSpec;
  }

  get ready(): number {
    return this.#threads.filter((t) => t.ready).length;
  }

  /** Starts every thread; resolves when all are loaded and ready for work. */
  warm(): Promise<void> {
    while (!this.#closed && this.#threads.length < this.size) this.#start();
    return Promise.all(this.#threads.map((t) => t.started)).then(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#queue.splice(0)) pending.reject(new Error("the worker pool is closed"));
    await Promise.all(this.#threads.splice(0).map((t) => t.worker.terminate()));
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      const thread = this.#freeThread();
      if (thread === undefined) return;
      const pending = this.#queue.shift()!;
      const id = this.#nextId++;
      thread.waiting.set(id, pending);
      thread.worker.ref();
      try {
        thread.worker.postMessage({ id, batch: pending.batch }, pending.transfer as ArrayBuffer[]);
      } catch (error) {
        thread.waiting.delete(id);
        pending.reject(error);
      }
    }
  }

  /** The least busy thread with room, starting a new one while below `size`. */
  #freeThread(): Thread | undefined {
    let best: Thread | undefined;
    for (const t of this.#threads) if (best === undefined || t.waiting.size < best.waiting.size) best = t;
    if ((best === undefined || best.waiting.size > 0) && this.#threads.length < this.size) return this.#start();
    return best !== undefined && best.waiting.size < PER_THREAD ? best : undefined;
  }

  #start(): Thread {
    const worker = spawn();
    let started!: () => void;
    const thread: Thread = {
      worker,
      waiting: new Map(),
      ready: false,
      started: new Promise((resolve) => (started = resolve)),
    };
    this.#threads.push(thread);
    worker.on("message", ({ id, reply, ready }: { id: number; reply: PoolReply; ready?: true }) => {
      if (ready) {
        thread.ready = true;
        if (thread.waiting.size === 0) worker.unref();
        started();
        return;
      }
      const pending = thread.waiting.get(id);
      thread.waiting.delete(id);
      if (thread.waiting.size === 0) worker.unref();
      pending?.resolve(reply);
      this.#pump();
    });
    const fail = (error: unknown): void => {
      started();
      const index = this.#threads.indexOf(thread);
      if (index >= 0) this.#threads.splice(index, 1);
      for (const pending of thread.waiting.values()) pending.reject(error);
      thread.waiting.clear();
      this.#pump();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`a chunk pool thread exited with code ${code}`)));
    // Kept referenced while it loads (so `await pool.warm()` keeps a process alive), then not
    // while idle.
    return thread;
  }
}

/**
 * Starts one thread. From `dist` the entry is `worker/chunk-worker.js`, bundled by
 * `scripts/bundle-worker.mjs`; when running from
 * sources (`.ts`, in this repository's tests) the thread first registers tsx to load TypeScript.
 */
function spawn(): Worker {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return startWorker(new URL("./worker/chunk-worker.js", here), {}, []);
  const tsx = join(dirname(createRequire(here).resolve("tsx/package.json")), "dist/esm/api/index.mjs");
  const entry = new URL("./chunk-worker.ts", here).href;
  const code = `import(${JSON.stringify(pathToHref(tsx))}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return startWorker(code, { eval: true }, ["--conditions=@z/source"]);
}

/**
 * A thread with the process's Node options, less those about its entry, plus `extra`. Left to
 * itself a thread inherits them all, and under `node --input-type=module -e CODE` one inheriting
 * `--input-type` fails to load its file (`ERR_INPUT_TYPE_NOT_ALLOWED`): the pool would have no
 * thread. Given explicitly, though, options Node takes only per process (V8's, such as
 * `--expose-gc` or `--max-old-space-size`) are refused (`ERR_WORKER_INVALID_EXEC_ARGV`), so they
 * are passed only when something must go, and those Node names as refused are then left out.
 */
function startWorker(entry: string | URL, options: WorkerOptions, extra: readonly string[]): Worker {
  const all = process.execArgv;
  const kept = threadExecArgv(all);
  if (kept.length === all.length && extra.length === 0) return new Worker(entry, options);
  try {
    return new Worker(entry, { ...options, execArgv: [...kept, ...extra] });
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw error;
    // "Initiated Worker with invalid execArgv flags: --a, --b"
    const refused = new Set(
      String((error as Error).message)
        .replace(/^[^:]*:/, "")
        .split(",")
        .map((flag) => flag.trim()),
    );
    return new Worker(entry, { ...options, execArgv: [...kept.filter((arg) => !refused.has(arg)), ...extra] });
  }
}

/** `args` without the options about the process's entry (`-e CODE`, `-p CODE`, `--input-type`). */
function threadExecArgv(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-e" || arg === "--eval" || arg === "-p" || arg === "--print" || arg === "--input-type") i++;
    else if (!/^--(input-type|eval|print)=/.test(arg)) kept.push(arg);
  }
  return kept;
}

function pathToHref(path: string): string {
  return new URL(`file://${path}`).href;
}
