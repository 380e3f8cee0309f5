/*
 * TensorStore's Context: named resources shared by every array opened with the same context (a
 * cache pool, a concurrency limit, the in-memory key-value store), given as JSON (`{"cache_pool":
 * {"total_bytes_limit": 100000000}}`) and referred to from a spec by name (`"cache_pool"`,
 * `"cache_pool#big"`), or given inline in the spec.
 */
import type { JsonValue, Store } from "@z/meta";
import { MemoryStore } from "@z/core";
import { SpecError } from "./errors.js";

/** The context resources known here (TensorStore's); others are refused by name. */
export type Provider =
  | "cache_pool"
  | "data_copy_concurrency"
  | "memory_key_value_store"
  | "file_io_concurrency"
  | "file_io_sync"
  | "file_io_locking"
  | "file_io_mode"
  | "file_io_memmap"
  | "http_request_concurrency"
  | "http_request_retries"
  | "aws_credentials"
  | "s3_request_concurrency"
  | "s3_request_retries"
  | "experimental_s3_rate_limiter";

const PROVIDERS: readonly Provider[] = [
  "cache_pool",
  "data_copy_concurrency",
  "memory_key_value_store",
  "file_io_concurrency",
  "file_io_sync",
  "file_io_locking",
  "file_io_mode",
  "file_io_memmap",
  "http_request_concurrency",
  "http_request_retries",
  // Checked when an s3 kvstore uses them (the kvstore spec hook of @z/store-s3).
  "aws_credentials",
  "s3_request_concurrency",
  "s3_request_retries",
  "experimental_s3_rate_limiter",
];

/** A cache pool: bytes of stored values, least recently used dropped first past `totalBytesLimit`. */
export class CachePool {
  /** The most bytes held (values and their keys); 0 holds nothing. */
  readonly totalBytesLimit: number;
  /** Insertion order is recency order (a hit moves its entry to the end). */
  readonly #entries = new Map<string, { bytes: Uint8Array | undefined; time: number }>();
  #size = 0;

  constructor(totalBytesLimit: number) {
    this.totalBytesLimit = totalBytesLimit;
  }

  /** Bytes held now. */
  get size(): number {
    return this.#size;
  }

  /** The entry for `key` read at or after `bound` (ms since the epoch), if any. */
  get(key: string, bound: number): { bytes: Uint8Array | undefined } | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.time < bound) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /** Remembers `bytes` (undefined: known missing) for `key`, read or written at `time`. */
  set(key: string, bytes: Uint8Array | undefined, time: number): void {
    this.delete(key);
    const size = (bytes?.byteLength ?? 0) + key.length;
    if (size > this.totalBytesLimit) return;
    this.#entries.set(key, { bytes, time });
    this.#size += size;
    for (const [k] of this.#entries) {
      if (this.#size <= this.totalBytesLimit) break;
      this.delete(k);
    }
  }

  /** Forgets `key`. */
  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#size -= (entry.bytes?.byteLength ?? 0) + key.length;
  }
}

/** A concurrency limit (`"shared"`: the default). */
export interface ConcurrencyLimit {
  /** The most at once, or `"shared"`: the default. */
  readonly limit: number | "shared";
}

/** What each provider's resource is (`cache_pool`: a `CachePool`; `memory_key_value_store`: a store; others: their JSON). */
export interface Resources {
  cache_pool: CachePool;
  data_copy_concurrency: ConcurrencyLimit;
  memory_key_value_store: Store;
}
/** The resource of a provider. */
export type ResourceOf<P extends Provider> = P extends keyof Resources ? Resources[P] : JsonValue;

const providerOf = (key: string): string => key.slice(0, key.includes("#") ? key.indexOf("#") : key.length);
const isProvider = (name: string): name is Provider => (PROVIDERS as readonly string[]).includes(name);

// This module is in what a page loads first (SpecContext is constructed before openSpec loads the
// spec machinery), so it checks its small JSON itself, in TensorStore's words, without json.ts.

const isPlainObject = (j: unknown): j is { readonly [key: string]: JsonValue } =>
  typeof j === "object" && j !== null && !Array.isArray(j) && Object.getPrototypeOf(j) === Object.prototype;
const show = (j: unknown): string => (typeof j === "bigint" ? String(j) : (JSON.stringify(j) ?? String(j)));

/** The members of a resource's JSON object, all of them among `names`. */
function objectOf(j: JsonValue, member: string, names: readonly string[]): { readonly [key: string]: JsonValue } {
  if (!isPlainObject(j)) throw new SpecError(`Expected object, but received: ${show(j)}`, { member });
  const extra = Object.keys(j).filter((k) => !names.includes(k));
  if (extra.length > 0)
    throw new SpecError(`Object includes extra members: ${extra.map((k) => JSON.stringify(k)).join(",")}`, {
      member: `${member}.${extra[0]}`,
    });
  return j;
}

/** An integer in [min, 2^53) (a JSON number, or a `JsonFloat` of an integral value). */
function integerOf(j: JsonValue, member: string, min: number): number {
  const x = typeof j === "object" && j !== null && "value" in j ? (j as { value: unknown }).value : j;
  const n = typeof x === "bigint" ? Number(x) : x;
  if (typeof n === "number" && Number.isSafeInteger(n) && n >= min) return n;
  throw new SpecError(`Expected integer in the range [${min}, 9007199254740991], but received: ${show(x)}`, { member });
}

/** Validates a resource's JSON spec and makes the resource. */
function createResource(provider: Provider, j: JsonValue, member: string): unknown {
  switch (provider) {
    case "cache_pool": {
      const limit = objectOf(j, member, ["total_bytes_limit"]).total_bytes_limit;
      return new CachePool(limit === undefined ? 0 : integerOf(limit, `${member}.total_bytes_limit`, 0));
    }
    case "data_copy_concurrency":
    case "file_io_concurrency":
    case "http_request_concurrency": {
      const limit = objectOf(j, member, ["limit"]).limit;
      if (limit === undefined || limit === "shared") return { limit: "shared" };
      return { limit: integerOf(limit, `${member}.limit`, 1) };
    }
    case "memory_key_value_store":
      objectOf(j, member, []);
      return new MemoryStore();
    case "file_io_sync":
      if (typeof j !== "boolean") throw new SpecError(`Expected boolean, but received: ${show(j)}`, { member });
      return j;
    default:
      if (!isPlainObject(j)) throw new SpecError(`Expected object, but received: ${show(j)}`, { member });
      return j;
  }
}

/**
 * A TensorStore context: give the same one to several `openSpec` calls to share its cache pool and
 * in-memory stores between them (each call without one gets a fresh context, as TensorStore's
 * Python API does).
 */
export class SpecContext {
  readonly parent: SpecContext | undefined;
  readonly #specs = new Map<string, JsonValue>();
  readonly #made = new Map<string, unknown>();

  /** `spec`: the context JSON (`{"cache_pool": {"total_bytes_limit": 1e8}}`). */
  constructor(spec: JsonValue = {}, parent?: SpecContext, member = "context") {
    this.parent = parent;
    if (!isPlainObject(spec)) throw new SpecError(`Expected object, but received: ${show(spec)}`, { member });
    for (const [key, value] of Object.entries(spec)) {
      const at = `${member}.${key}`;
      const provider = providerOf(key);
      if (!isProvider(provider))
        throw new SpecError(`Invalid context resource identifier: ${JSON.stringify(key)}`, { member: at });
      if (typeof value === "string" && providerOf(value) !== provider)
        throw new SpecError(
          `Invalid spec or reference to ${JSON.stringify(provider)} resource: ${JSON.stringify(value)}`,
          {
            member: at,
          },
        );
      if (typeof value !== "string" && value !== null) createResource(provider, value, at); // validated now
      this.#specs.set(key, value);
    }
  }

  /**
   * The resource a spec member refers to: `undefined`/`null` the context's default one, a string
   * the named one (looked up here, then in the parents), an object a new one of its own.
   */
  resource<P extends Provider>(provider: P, ref: JsonValue | undefined, member: string): ResourceOf<P> {
    if (ref === undefined || ref === null) return this.#named(provider, provider, member) as ResourceOf<P>;
    if (typeof ref === "string") {
      if (providerOf(ref) !== provider) {
        try {
          return createResource(provider, ref, member) as ResourceOf<P>;
        } catch (error) {
          const why = error instanceof SpecError ? error.message : String(error);
          throw new SpecError(
            `Invalid spec or reference to ${JSON.stringify(provider)} resource: ${JSON.stringify(ref)} (${why})`,
            { member },
          );
        }
      }
      return this.#named(provider, ref, member) as ResourceOf<P>;
    }
    return createResource(provider, ref, member) as ResourceOf<P>;
  }

  #named(provider: Provider, key: string, member: string): unknown {
    for (let c: SpecContext | undefined = this; c !== undefined; c = c.parent) {
      if (c.#made.has(key)) return c.#made.get(key);
      if (c.#specs.has(key)) {
        const spec = c.#specs.get(key)!;
        const made =
          typeof spec === "string" || spec === null
            ? (c.parent ?? new SpecContext()).#named(provider, typeof spec === "string" ? spec : provider, member)
            : createResource(provider, spec, member);
        c.#made.set(key, made);
        return made;
      }
      if (c.parent === undefined) {
        if (key !== provider) throw new SpecError(`Resource not defined: ${JSON.stringify(key)}`, { member });
        const made = provider === "file_io_sync" ? true : createResource(provider, {}, member);
        c.#made.set(key, made);
        return made;
      }
    }
    throw new SpecError(`Resource not defined: ${JSON.stringify(key)}`, { member });
  }
}
