import { joinPath, type Store } from "@z/meta";
import { ReferenceStoreError } from "./errors.js";
import { inlineReference } from "./inline.js";
import type { RecordColumns } from "./parquet-records.js";
import type { Reference, ReferenceSource } from "./reference.js";

/** What a Parquet reference set does when a record file is not there. */
export type MissingRecords = "missing" | "error";

/** Options of {@link ParquetReferences}. */
export interface ParquetReferenceOptions {
  /**
   * A record file that is not there: `"missing"` (the default) reads its keys as missing chunks (the
   * array's fill value), as fsspec does, whose writer (`LazyReferenceMapper.flush`) writes no file
   * for a record none of whose chunks has a reference; `"error"` makes it a `Z_REFERENCE_RECORD`
   * error naming the key and the file.
   */
  readonly missingRecords?: MissingRecords;
  /** How many record files are kept parsed (fsspec's `cache_size`, default 128). */
  readonly cacheSize?: number;
}

/**
 * A Parquet reference set as fsspec's `LazyReferenceMapper` writes it: a directory (`dir` in
 * `store`) with `.zmetadata` (`{"metadata": {key: document}, "record_size": N}`) and, for each
 * array, `<array>/refs.<record>.parq` files of `record_size` rows each (columns `path`, `offset`,
 * `size`, `raw`), row `i` of record `r` holding the chunk whose C-order index in the chunk grid is
 * `r * record_size + i`. Record files are read when a key in them is first asked for, and kept
 * (the last `cacheSize`).
 */
export class ParquetReferences implements ReferenceSource {
  readonly #store: Store;
  readonly #dir: string;
  readonly #metadata: Map<string, Reference>;
  readonly #grids = new Map<string, number[] | undefined>();
  readonly #records = new Map<string, Promise<RecordColumns | undefined>>();
  readonly #recordSize: number;
  readonly #options: ParquetReferenceOptions;
  readonly #documents: Record<string, unknown>;

  private constructor(store: Store, dir: string, zmetadata: Record<string, unknown>, options: ParquetReferenceOptions) {
    this.#store = store;
    this.#dir = dir;
    this.#options = options;
    this.#documents = zmetadata.metadata as Record<string, unknown>;
    this.#recordSize = zmetadata.record_size as number;
    this.#metadata = new Map(
      Object.entries(this.#documents).map(([key, doc]) => [key, inlineReference(doc as object, key)]),
    );
  }

  /** Opens the set in directory `dir` of `store`, reading its `.zmetadata`. */
  static async open(store: Store, dir: string, options: ParquetReferenceOptions = {}): Promise<ParquetReferences> {
    const key = joinPath(dir, ".zmetadata");
    const bytes = await store.get(key);
    if (bytes === undefined)
      throw new ReferenceStoreError(
        "Z_REFERENCE_FORMAT",
        `no Parquet reference set at ${dir || "."}: ${key} is missing`,
        {
          target: key,
        },
      );
    return ParquetReferences.fromZmetadata(store, dir, new TextDecoder().decode(bytes), options);
  }

  /** The set whose `.zmetadata` text is `text` (already read). */
  static fromZmetadata(
    store: Store,
    dir: string,
    text: string,
    options: ParquetReferenceOptions = {},
  ): ParquetReferences {
    const key = joinPath(dir, ".zmetadata");
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (cause) {
      throw new ReferenceStoreError("Z_REFERENCE_FORMAT", `${key} is not JSON: ${(cause as Error).message}`, {
        target: key,
        cause,
      });
    }
    const d = doc as Record<string, unknown> | null;
    if (typeof d !== "object" || d === null || typeof d.metadata !== "object" || d.metadata === null)
      throw new ReferenceStoreError("Z_REFERENCE_FORMAT", `${key}: expected {"metadata": {...}, "record_size": N}`, {
        target: key,
      });
    if (!Number.isSafeInteger(d.record_size) || (d.record_size as number) <= 0)
      throw new ReferenceStoreError(
        "Z_REFERENCE_FORMAT",
        `${key}: "record_size" must be a positive integer, got ${JSON.stringify(d.record_size)}`,
        { target: key },
      );
    return new ParquetReferences(store, dir, d, options);
  }

  async reference(key: string, options: { signal?: AbortSignal } = {}): Promise<Reference | undefined> {
    const meta = this.#metadata.get(key);
    if (meta !== undefined) return meta;
    const slash = key.lastIndexOf("/");
    if (slash === -1 || key.startsWith(".z") || key.includes("/.z")) return undefined;
    const field = key.slice(0, slash);
    const index = this.#chunkNumber(field, key.slice(slash + 1));
    if (index === undefined) return undefined;
    const record = Math.floor(index / this.#recordSize);
    const row = index % this.#recordSize;
    const columns = await this.#record(field, record, key, options.signal);
    if (columns === undefined || row >= columns.rows) return undefined;
    const raw = columns.raw?.[row];
    if (raw !== null && raw !== undefined) return inlineReference(raw, key);
    const url = columns.path?.[row];
    if (url === null || url === undefined) return undefined; // no reference: a missing chunk
    const offset = columns.offset?.[row] ?? 0;
    const size = columns.size?.[row] ?? 0;
    // offset and size 0: the whole file, as fsspec reads it
    return offset === 0 && size === 0 ? { kind: "target", url } : { kind: "target", url, offset, length: size };
  }

  async keys(options: { signal?: AbortSignal } = {}): Promise<string[]> {
    const keys = [...this.#metadata.keys()];
    for (const field of this.fields()) keys.push(...(await this.chunkKeys(field, options)));
    return keys;
  }

  /** The arrays of the set: the paths of its `.zarray` documents. */
  fields(): string[] {
    return [...this.#metadata.keys()].filter((k) => k.endsWith("/.zarray")).map((k) => k.slice(0, -"/.zarray".length));
  }

  /** The metadata keys (no record file is read). */
  metadataKeys(): string[] {
    return [...this.#metadata.keys()];
  }

  /** The keys of `field`'s chunks that have a reference (reading every record file of the array). */
  async chunkKeys(field: string, options: { signal?: AbortSignal } = {}): Promise<string[]> {
    const grid = this.#grid(field);
    if (grid === undefined) return [];
    const total = grid.reduce((a, b) => a * b, 1);
    const keys: string[] = [];
    for (let index = 0; index < total; index++) {
      const key = `${field}/${unravel(index, grid).join(".")}`;
      if ((await this.reference(key, options)) !== undefined) keys.push(key);
    }
    return keys;
  }

  /** The chunks along each axis of `field` (fsspec's `_get_chunk_sizes`: `[1]` for a scalar). */
  #grid(field: string): number[] | undefined {
    if (this.#grids.has(field)) return this.#grids.get(field);
    const zarray = this.#documents[`${field}/.zarray`] as { shape?: unknown; chunks?: unknown } | undefined;
    let grid: number[] | undefined;
    if (zarray !== undefined && Array.isArray(zarray.shape) && Array.isArray(zarray.chunks)) {
      const shape = zarray.shape as number[];
      const chunks = zarray.chunks as number[];
      grid = shape.map((s, i) => Math.ceil(s / (chunks[i] as number)));
      if (grid.length === 0) grid = [1];
    }
    this.#grids.set(field, grid);
    return grid;
  }

  /** The C-order number of the chunk `name` ("1.0.2") in `field`'s grid, or undefined when it is outside. */
  #chunkNumber(field: string, name: string): number | undefined {
    const grid = this.#grid(field);
    if (grid === undefined) return undefined;
    const parts = name.split(".");
    if (parts.length !== grid.length || !parts.every((p) => /^\d+$/.test(p))) return undefined;
    let n = 0;
    for (let i = 0; i < grid.length; i++) {
      const c = Number(parts[i]);
      if (c >= grid[i]!) return undefined;
      n = n * grid[i]! + c;
    }
    return n;
  }

  #record(field: string, record: number, key: string, signal?: AbortSignal): Promise<RecordColumns | undefined> {
    const name = joinPath(this.#dir, `${field}/refs.${record}.parq`);
    let loading = this.#records.get(name);
    if (loading === undefined) {
      loading = this.#load(name, key, signal);
      this.#records.set(name, loading);
      // a failure is not kept: the next read tries again
      loading.catch(() => this.#records.delete(name));
      const limit = this.#options.cacheSize ?? 128;
      while (this.#records.size > limit) this.#records.delete(this.#records.keys().next().value!);
    } else {
      // most recently used last
      this.#records.delete(name);
      this.#records.set(name, loading);
    }
    return loading;
  }

  async #load(name: string, key: string, signal?: AbortSignal): Promise<RecordColumns | undefined> {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.#store.get(name, signal === undefined ? {} : { signal });
    } catch (cause) {
      if (signal?.aborted) throw cause;
      throw new ReferenceStoreError(
        "Z_REFERENCE_RECORD",
        `${JSON.stringify(key)}: cannot read the record file ${name}: ${(cause as Error).message}`,
        { key, target: name, cause },
      );
    }
    if (bytes === undefined) {
      if (this.#options.missingRecords === "error")
        throw new ReferenceStoreError(
          "Z_REFERENCE_RECORD",
          `${JSON.stringify(key)}: its record file ${name} is missing (pass missingRecords: "missing" to read its chunks as missing, as fsspec does)`,
          { key, target: name },
        );
      return undefined;
    }
    // The Parquet reader (hyparquet, fzstd) loads with the first record file: a page reading JSON
    // references never loads it.
    const { readRecordFile } = await import("./parquet-records.js");
    return readRecordFile(bytes, name, key);
  }
}

function unravel(index: number, grid: readonly number[]): number[] {
  const out = new Array<number>(grid.length);
  for (let i = grid.length - 1; i >= 0; i--) {
    out[i] = index % grid[i]!;
    index = Math.floor(index / grid[i]!);
  }
  return out;
}
