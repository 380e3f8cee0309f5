import { adviseLargeBuffer, type CodecRegistry } from "@z/codecs/registry";
import type { ShardingOptions } from "@z/codecs/v3";
import { defaultCodecRegistry, usesBuiltinCodecs } from "./codec-registry.js";
import {
  BasicIndexer,
  isPureFancyIndexing,
  isPureOrthogonalIndexing,
  popFields,
  stridesFor,
  type AnyChunkProjection,
  type BasicSelection,
  type FieldSelection as FieldSelectionInput,
  type Indexer,
  type SelectionItem,
  type StridedView,
} from "@z/indexing/basic";
import type { CoordinateSelection, MaskSelection, OrthogonalSelection } from "@z/indexing";
import type { FancyKind } from "./fancy-indexers.js";
import {
  parseArrayMetadata,
  parseArrayMetadataV1,
  V1_META_KEY,
  keyPrefix,
  typedArrayConstructor,
  valuesPerElement,
  type ArrayMetadata,
  type ArrayMetadataV3,
  type CodecConfig,
  type DataType,
  type FillValue,
  type Store,
  type Synchronizer,
  type TypedArray,
} from "@z/meta";
import { formatV1, formatV2, type ArrayFormat } from "./array-format.js";
import type { ArrayLayout } from "./array-layout.js";
import { Attributes } from "./attributes.js";
import { ChunkCodec } from "./chunk-codec.js";
import { ChunkJobs } from "./chunk-jobs.js";
import { defaultChunkPool, type ChunkPool } from "./chunk-pool.js";
import { largeBuffersLoading } from "./large-buffers-loading.js";
import { fillPattern } from "./chunk-data.js";
import { forEachConcurrent, type RunOptions } from "./concurrency.js";
import type { SelectionOptions } from "./selection-options.js";

export type { SelectionOptions };
import { allocateResult, checkChunkSize, checkResultSize } from "./size-limits.js";
import { ArgumentError, MissingChunkError, NodeNotFoundError, ReadOnlyError, ValueError } from "./errors.js";
import type { HashName } from "./hash.js";
import { arrayMetaKey, zarrJsonKey } from "./keys.js";
import type { ArrayInternals, PoolJob, ViewOptions } from "./array-internals.js";

export type { ViewOptions };
import { cStrides, product, type NdArray, type NdData } from "./nd-array.js";
import type { ObjectChunkCodec } from "./object-codec.js";
import { readsParts, type PartialReadTarget } from "./partial-read.js";
import { readHere } from "./read-here.js";
import { partsReader } from "@z/meta";

export interface ArrayOpenOptions {
  /** Refuse every write (default false). */
  readOnly?: boolean;
  /**
   * Store chunks that equal the fill value everywhere (default: true for v2, as zarr-python 2.11+;
   * false for v3, as zarr-python 3). When false such chunks are deleted instead, and read back as
   * the fill value.
   */
  writeEmptyChunks?: boolean;
  /** Where codec ids are looked up (default: the registry of `@z/codecs` with the WASM codecs). */
  registry?: CodecRegistry;
  /**
   * How a v3 array's `sharding_indexed` codec reads by ranges and what it keeps:
   * `indexCacheBytes` (decoded shard indexes kept for this opened array, least recently used out
   * first; default 8 MiB, `0` keeps none), `coalesceGapBytes` (inner chunks at most this far apart
   * are read in one request; default 1 MiB, as zarr-python 3) and `coalesceMaxBytes` (default
   * 16 MiB). A cached index is dropped when this array writes or deletes its shard; a shard that
   * another array object, thread or process rewrites after its index was cached is seen only once
   * the entry leaves (TensorStore's `recheck_cached_data: "open"`): reopen the array, or keep no
   * indexes, to see such writes.
   */
  sharding?: ShardingOptions;
  /**
   * Locks each chunk (and `.zarray`, `.zattrs`) around its read-modify-write, so concurrent writers
   * to overlapping regions never lose an update. Without one, the writes of this thread to one
   * chunk (a shard above all) still run one after the other, for every array opened on the same
   * store object; writers in other threads or processes then must not overlap.
   */
  synchronizer?: Synchronizer;
  /**
   * Threads that decode and encode chunks for large reads and writes (default: the platform's
   * default pool: in Node, `os.availableParallelism() - 1` worker threads, started by the first
   * read or write of 192 MiB of chunks or more, or that by the calling thread's pace has ~450 ms or
   * more of work left; none in browsers). `false` keeps all work on the calling thread. Arrays
   * whose codecs are not the built-in ones, and object arrays, always work on the calling thread.
   */
  pool?: ChunkPool | false;
  signal?: AbortSignal;
  /**
   * `false`: a read touching a chunk that is not stored throws `MissingChunkError` naming the
   * chunk's key, instead of reading the fill value there (TensorStore's
   * `fill_missing_data_reads: false`). Writes of part of a missing chunk still start from the fill
   * value. Default `true`.
   */
  fillMissingChunks?: boolean;
  /** The metadata document's name under the array's path (TensorStore's `metadata_key`); default `.zarray`. */
  metadataKey?: string;
  /**
   * The metadata was given, not read from the store (TensorStore's `assume_metadata`): `resize`
   * and `append`, which would rewrite it, are refused. Default `false`.
   */
  fixedMetadata?: boolean;
  /**
   * How many chunks reads and writes have in flight when a call does not say (default the store's
   * `preferredConcurrency`, else 8).
   */
  concurrency?: number;
}

/** Below this many decoded bytes a read or write stays on the calling thread: a pool costs more than it saves. */
const POOL_MIN_BYTES = 4 << 20;

/**
 * From this many chunk bytes on, a read or write starts the pool's threads as it begins rather
 * than once its pace is known (`threadStarter`). Even uncompressed, 192 MiB of chunks takes a
 * thread ~480 ms here (R5: 256 MiB in ~0.65 s on one thread, most of it the page faults of a fresh
 * output), more than the pace rule asks for, so a thread started at once (~110 ms to load) repays
 * itself, where waiting for a pace left it idle for a third of such a read.
 */
const START_THREADS_BYTES = 192 << 20;

/**
 * Chunks stored raw of this size or more are read straight into a result (`getIntoParts`): three
 * hops through Node's thread pool per chunk cost less than copying it on the calling thread.
 */
const RAW_PARTS_BYTES = 256 << 10;

/** Set by `ZarrArray`'s static block (it reaches a private field): see `createdLayout`. */
let settleFlat: (array: ZarrArray) => void;
/** Set by `ZarrArray`'s static block: what its parts loaded on first use reach (array-write.ts, array-stored.ts, array-islice.ts, array-views.ts). */
let internalsOf: (array: ZarrArray) => ArrayInternals;

/**
 * A Zarr v2 array in a store. Metadata is read once when the array is opened (as zarr-python's
 * default `cache_metadata=True`); data is read and written chunk by chunk.
 */
export class ZarrArray {
  readonly store: Store;
  /** The normalized logical path (`""` for an array at the store's root). */
  readonly path: string;
  readonly readOnly: boolean;
  readonly writeEmptyChunks: boolean;
  readonly synchronizer: Synchronizer | undefined;
  readonly attrs: Attributes;
  /** Its documents, keys and codec chain (`resize` replaces it). */
  #format: ArrayFormat;
  /** What the engine works from: the format's layout, or a view's. */
  #meta: ArrayLayout;
  readonly #codec: ChunkCodec;
  readonly #pattern: Uint8Array;
  #objects: Promise<ObjectChunkCodec> | undefined;
  readonly #part: PartialReadTarget;

  /** 3 (`zarr.json`), 2 (`.zarray`), or 1 for a spec-v1 array (`meta`/`attrs` keys), which opens read-only. */
  readonly zarrFormat: 1 | 2 | 3;
  /** True for an array made by `view`/`astype`: its metadata lives in memory only. */
  readonly isView: boolean;
  readonly #options: ArrayOpenOptions;
  readonly #jobs: ChunkJobs;
  /** The `.zarray` text pool threads get, once known; null when this array's chunks cannot go to a pool. */
  #poolMeta: Promise<string | null> | undefined;
  /**
   * For an array of two or more dimensions whose `.zarray` names no separator, in a store without a
   * default one: whether its chunks are nested under `/` keys (written by zarr-python < 2.8's
   * NestedDirectoryStore), asked once, when a chunk is first found missing (see nested-chunks.ts).
   * Unset while unasked; `#nested` holds the answer.
   */
  #nestedCheck: Promise<void> | undefined;
  #nested: boolean | undefined;

  private constructor(
    store: Store,
    path: string,
    format: ArrayFormat,
    codec: ChunkCodec,
    options: ArrayOpenOptions,
    meta: ArrayLayout = format.layout,
  ) {
    const zarrFormat = format.zarrFormat;
    this.store = store;
    this.path = path;
    this.zarrFormat = zarrFormat;
    this.isView = meta !== format.layout;
    this.#options = options;
    this.readOnly = zarrFormat === 1 || (options.readOnly ?? false);
    this.writeEmptyChunks = options.writeEmptyChunks ?? format.storesEmptyChunks;
    this.synchronizer = options.synchronizer;
    this.attrs = new Attributes(store, format.attrsKey, this.readOnly, options.synchronizer, format.attributes);
    this.#format = format;
    this.#meta = meta;
    this.#codec = codec;
    this.#pattern = fillPattern(meta.fillValue, meta.dtype);
    this.#part = {
      store,
      codec,
      chunks: meta.chunks,
      strides: stridesFor(meta.chunks, meta.order),
      dtype: meta.dtype,
      chunkKey: (c) => this.chunkKey(c),
    };
    this.#jobs = new ChunkJobs(meta, codec);
    if (
      zarrFormat === 1 ||
      meta.shape.length < 2 ||
      meta.dimensionSeparator !== undefined ||
      storeSeparator(store) !== undefined
    )
      this.#nested = false;
  }

  static {
    settleFlat = (array) => {
      array.#nested ??= false;
    };
    internalsOf = (array) => ({
      array,
      get meta() {
        return array.#meta;
      },
      get format() {
        return array.#format;
      },
      set format(format) {
        array.#format = format;
        array.#meta = format.layout;
      },
      metaKey: array.#metaKey,
      jobs: array.#jobs,
      pattern: array.#pattern,
      get nested() {
        return array.#nested;
      },
      set nested(nested) {
        array.#nested = nested;
      },
      settleNested: (coords, signal) => array.#settleNested(coords, signal),
      nestedAfter: (found, coords, signal) => array.#nestedAfter(found, coords, signal),
      objectArrays: () => array.#objectArrays(),
      poolFor: (nchunks, choice) => array.#poolFor(nchunks, choice),
    });
  }

  /**
   * Opens the array at `path` (already normalized): its `zarr.json` (v3) or `.zarray` (v2), both
   * asked at once; where both are, v3, as zarr-python 3 does. `zarrFormat` insists on one.
   */
  static async open(
    store: Store,
    path: string,
    options: ArrayOpenOptions & { zarrFormat?: 2 | 3 } = {},
  ): Promise<ZarrArray> {
    const key = arrayMetaKey(path);
    const { signal, zarrFormat } = options;
    const [v3, bytes] = await Promise.all([
      zarrFormat === 2 ? undefined : store.get(zarrJsonKey(path), { signal }),
      zarrFormat === 3 ? undefined : store.get(key, { signal }),
    ]);
    if (v3 !== undefined) {
      const { openedV3 } = await import("./format-v3.js");
      return ZarrArray.#fromFormat(store, path, await openedV3(v3, path), options);
    }
    if (bytes === undefined) {
      // Spec v1 had no hierarchies: its one array sits at the root of its store.
      const v1 = path === "" && zarrFormat !== 3 ? await store.get(V1_META_KEY, { signal }) : undefined;
      if (v1 === undefined) {
        throw new NodeNotFoundError("array", path, { key: zarrFormat === 3 ? zarrJsonKey(path) : key });
      }
      const registry = options.registry ?? defaultCodecRegistry();
      return ZarrArray.#fromFormat(store, path, formatV1(await readV1Metadata(v1, registry)), options);
    }
    return ZarrArray.#fromFormat(store, path, formatV2(parseArrayMetadata(bytes, key), path), options);
  }

  /**
   * An array over metadata given rather than read (TensorStore's `assume_metadata`): nothing is
   * read from the store until data is; with `fixedMetadata`, the metadata is never rewritten.
   */
  static async fromMetadata(
    store: Store,
    path: string,
    meta: ArrayMetadata | ArrayMetadataV3,
    options: ArrayOpenOptions = {},
  ): Promise<ZarrArray> {
    if (meta.zarrFormat === 3) {
      const { formatV3 } = await import("./format-v3.js");
      return ZarrArray.#fromFormat(store, path, formatV3(meta, path), options);
    }
    const name = options.metadataKey;
    const metaKey = name === undefined ? arrayMetaKey(path) : keyPrefix(path) + name;
    return ZarrArray.#fromFormat(store, path, formatV2(meta, path, metaKey), options);
  }

  /** The array a format describes, its codec chain built. */
  static async #fromFormat(
    store: Store,
    path: string,
    format: ArrayFormat,
    options: ArrayOpenOptions,
  ): Promise<ZarrArray> {
    const registry = options.registry ?? defaultCodecRegistry();
    const { chain } = await format.chain(format.layout, registry, options.sharding);
    return new ZarrArray(store, path, format, ChunkCodec.fromChain(chain, format.layout), options);
  }

  // --- metadata -------------------------------------------------------------------------------

  /** Where the metadata document is: `zarr.json`, `.zarray`, or a v1 array's `meta`. */
  get #metaKey(): string {
    return this.#format.metaKey;
  }

  /**
   * The decoded metadata document: a v3 array's `zarr.json` (`zarrFormat: 3`), else its `.zarray`
   * (a v1 array's read as v2). A view's is the metadata it sees the data through, as v2.
   */
  get metadata(): ArrayMetadata | ArrayMetadataV3 {
    return this.isView ? { ...this.#meta, zarrFormat: 2 } : this.#format.document;
  }
  get shape(): readonly number[] {
    return this.#meta.shape;
  }
  get chunks(): readonly number[] {
    return this.#meta.chunks;
  }
  get dtype(): DataType {
    return this.#meta.dtype;
  }
  get fillValue(): FillValue {
    return this.#meta.fillValue;
  }
  get order(): "C" | "F" {
    return this.#meta.order;
  }
  /** The v2 compressor (`null` for none, and for v3 arrays, whose codecs are in `metadata.codecs`). */
  get compressor(): CodecConfig | null {
    return this.#meta.compressor;
  }
  /** The v2 filters (`null` for none, and for v3 arrays: see `compressor`). */
  get filters(): readonly CodecConfig[] | null {
    return this.#meta.filters;
  }
  /**
   * From `.zarray`; when it says nothing, the store's own default (as zarr-python's
   * NestedDirectoryStore), else `/` once the store is found to hold this array's chunks under `/`
   * keys (`dimensionSeparatorFound`), else `.`.
   */
  get dimensionSeparator(): "." | "/" {
    return this.#meta.dimensionSeparator ?? storeSeparator(this.store) ?? (this.#nested ? "/" : ".");
  }

  /**
   * True once the chunks of this array, whose `.zarray` names no `dimension_separator`, were found
   * in the store under `/` keys (`0/0`), as zarr-python's NestedDirectoryStore wrote them before the
   * field existed (zarr-python before 2.8): it reads them from there, where zarr-python through a
   * DirectoryStore reads fill values only. The store is asked when a chunk is first found missing
   * under its `.` key (and by `info`, `digest`, the chunk counts and writes), once per opened array.
   */
  get dimensionSeparatorFound(): boolean {
    return this.#nested === true;
  }
  get ndim(): number {
    return this.shape.length;
  }
  /** Number of elements. */
  get size(): number {
    return product(this.shape);
  }
  get itemsize(): number {
    return this.dtype.itemsize;
  }
  /** Bytes of the whole array, uncompressed. */
  get nbytes(): number {
    return this.size * this.itemsize;
  }
  /** Number of chunks along each dimension. */
  get cdataShape(): number[] {
    return this.shape.map((s, i) => Math.ceil(s / this.chunks[i]!));
  }
  /** Number of chunks in the grid. */
  get nchunks(): number {
    return product(this.cdataShape);
  }
  /** The h5py-style name (`/foo/bar`), or `null` for an array at the root. */
  get name(): string | null {
    return this.path === "" ? null : `/${this.path}`;
  }
  get basename(): string | null {
    return this.path === "" ? null : this.path.split("/").pop()!;
  }

  /** The store key of the chunk at `coords` in the chunk grid. */
  chunkKey(coords: readonly number[]): string {
    return this.#format.chunkKey(coords, this.dimensionSeparator);
  }

  // --- reading --------------------------------------------------------------------------------

  /**
   * Reads a selection, choosing its kind as zarr-python's `__getitem__` does: integers, slices
   * (any step, negative too), `null` and `"..."` select basically; index arrays and masks
   * orthogonally or by coordinates. Strings name fields of a structured array.
   */
  async get<T extends NdData = TypedArray>(
    selection?: FieldSelectionInput,
    options: SelectionOptions = {},
  ): Promise<NdArray<T>> {
    const { fields, selection: items } = popFields(selection);
    const indexer = await this.#indexerFor(selection, items);
    return this.#read<T>(indexer, { ...options, fields: options.fields ?? fields });
  }

  async getBasicSelection<T extends NdData = TypedArray>(
    selection?: BasicSelection,
    options: SelectionOptions = {},
  ): Promise<NdArray<T>> {
    return this.#read<T>(new BasicIndexer(selection, this.shape, this.chunks), options);
  }

  /** Index arrays, masks, integers and slices, each along its own dimension (numpy's `np.ix_`). */
  async getOrthogonalSelection<T extends NdData = TypedArray>(
    selection: OrthogonalSelection,
    options: SelectionOptions = {},
  ): Promise<NdArray<T>> {
    return this.#read<T>(await this.#fancy("orthogonal", selection), options);
  }

  /** The points whose coordinates the (broadcast) index arrays give. */
  async getCoordinateSelection<T extends NdData = TypedArray>(
    selection: CoordinateSelection,
    options: SelectionOptions = {},
  ): Promise<NdArray<T>> {
    return this.#read<T>(await this.#fancy("coordinate", selection), options);
  }

  /** The elements where a boolean mask of the array's shape is true, in C order. */
  async getMaskSelection<T extends NdData = TypedArray>(
    selection: MaskSelection,
    options: SelectionOptions = {},
  ): Promise<NdArray<T>> {
    return this.#read<T>(await this.#fancy("mask", selection), options);
  }

  /** Whole chunks, selected by integers and slices over the chunk grid. */
  async getBlockSelection<T extends NdData = TypedArray>(
    selection: BasicSelection,
    options: SelectionOptions = {},
  ): Promise<NdArray<T>> {
    return this.#read<T>(await this.#fancy("block", selection), options);
  }

  /** zarr-python's `oindex`: orthogonal selections. */
  get oindex(): SelectionAccessor<OrthogonalSelection> {
    return {
      get: <T extends NdData = TypedArray>(s: OrthogonalSelection, o?: SelectionOptions) =>
        this.getOrthogonalSelection<T>(s, o),
      set: (s, v, o) => this.setOrthogonalSelection(s, v, o),
    };
  }

  /** zarr-python's `vindex`: coordinate or mask selections. */
  get vindex(): SelectionAccessor<CoordinateSelection | MaskSelection> {
    return {
      get: async <T extends NdData = TypedArray>(s: CoordinateSelection | MaskSelection, o: SelectionOptions = {}) =>
        this.#read<T>(await this.#fancy("vindex", s), o),
      set: async (s, v, o = {}) => this.#write(await this.#fancy("vindex", s), v, o),
    };
  }

  /** zarr-python's `blocks`: block selections. */
  get blocks(): SelectionAccessor<BasicSelection> {
    return {
      get: <T extends NdData = TypedArray>(s: BasicSelection, o?: SelectionOptions) => this.getBlockSelection<T>(s, o),
      set: (s, v, o) => this.setBlockSelection(s, v, o),
    };
  }

  /**
   * The indexer `get` and `set` choose for a selection (`items`: its fields popped), as zarr-python's
   * `__getitem__` does: a basic one at once; any other with those indexers, loaded on first use.
   */
  async #indexerFor(selection: FieldSelectionInput, items: SelectionItem[]): Promise<Indexer> {
    if (!isPureFancyIndexing(items, this.ndim) && !isPureOrthogonalIndexing(items, this.ndim))
      return new BasicIndexer(items as BasicSelection, this.shape, this.chunks);
    const { createIndexer, selectionKind } = await import("./fancy-indexers.js");
    return createIndexer(selectionKind(selection, this.shape), items, this.shape, this.chunks);
  }

  /** The indexer of an orthogonal, coordinate, mask, block or `vindex` selection (those indexers load on first use). */
  async #fancy(kind: FancyKind, selection: unknown): Promise<Indexer> {
    const { fancyIndexer } = await import("./fancy-indexers.js");
    return fancyIndexer(kind, selection, this.shape, this.chunks);
  }

  /** Reads what `indexer` selects; chunks are read only where the selection touches them. */
  async #read<T extends NdData = TypedArray>(indexer: Indexer, given: SelectionOptions): Promise<NdArray<T>> {
    const options = this.#withDefaults(given);
    // Sizes from metadata are checked before anything is allocated from them.
    const metaKey = this.#metaKey;
    const fillMissing = this.#options.fillMissingChunks ?? true;
    // A chunk missing is an error only where it is really missing: under the keys the array uses.
    if (!fillMissing) await this.#settleNested(undefined, options.signal);
    checkResultSize(indexer.shape, this.dtype.kind === "O" ? 1 : valuesPerElement(this.dtype), metaKey, this.shape);
    if (indexer.nchunks > 0) checkChunkSize(this.#meta, metaKey);
    // In Node, large buffers are advised once @z/huge-pages has loaded (see large-buffers-loading.ts).
    const loading = largeBuffersLoading();
    if (loading !== undefined) await loading;
    if (this.dtype.kind === "O") {
      const { objects, codec } = await this.#objectArrays();
      const layout =
        this.#nested === undefined
          ? (found: boolean, coords: readonly number[], signal?: AbortSignal) =>
              this.#nestedAfter(found, coords, signal)
          : undefined;
      return objects.readObjects(this, codec, indexer, this.#metaKey, options, layout) as Promise<NdArray<T>>;
    }
    // Field selection loads on first use (structured arrays only).
    const fieldsOf = options.fields === undefined ? undefined : await import("./fields.js");
    const fields = fieldsOf?.selectFields(this.dtype, options.fields!, this.#metaKey);
    if (fields !== undefined && options.out !== undefined)
      throw new ArgumentError("out cannot be combined with fields");
    const size = product(indexer.shape);
    const Ctor = typedArrayConstructor(this.dtype);
    const values = size * valuesPerElement(this.dtype);
    // A selection needing small parts of its chunks decodes just those here (see partial-read.ts), not whole chunks in the pool.
    // Chunks stored raw go from their files straight into the result, read on Node's thread pool
    // (see raw-reads.ts): nothing to decode, so no pool threads either.
    const intoParts =
      this.#codec.storesRaw && this.#codec.chunkBytes >= RAW_PARTS_BYTES ? partsReader(this.store) : undefined;
    const raw = intoParts === undefined ? undefined : await import("./raw-reads.js");
    const pooled =
      intoParts === undefined && !readsParts(this.#part, indexer)
        ? await this.#poolFor(indexer.nchunks, options.pool)
        : undefined;
    // A fresh output starts zeroed, which is the fill value of most arrays: missing chunks then cost nothing.
    const out: TypedArray =
      options.out === undefined
        ? adviseLargeBuffer(allocateResult(() => new Ctor(values), values * Ctor.BYTES_PER_ELEMENT, metaKey))
        : this.#checkOut(options.out, size);
    const zeroed = options.out === undefined;
    const outView: StridedView<TypedArray> = {
      data: out,
      offset: 0,
      shape: indexer.shape,
      strides: cStrides(indexer.shape),
    };
    if (pooled !== undefined) {
      const job = {
        ...pooled,
        store: this.store,
        keyOf: (c: readonly number[]) => this.chunkKey(c),
        reportAbsent: this.#nested === undefined || !fillMissing,
        projections: indexer,
        nchunks: indexer.nchunks,
      };
      // Loaded only when a pool exists (never in browsers, which have none by default).
      const { readPooled } = await import("./pooled.js");
      const report = await readPooled(
        { ...job, chunkBytes: this.#codec.chunkBytes, out: outView, zeroed, jobs: this.#jobs },
        options,
      );
      if (!fillMissing && report.absent.length > 0) throw this.#missing(report.absent[0]!);
      if (report.absent.length > 0) await this.#readNested(report.absent, report.found, outView, options.signal);
      else if (report.found) this.#nested ??= false;
    } else {
      const report = await readHere(
        {
          store: this.store,
          jobs: this.#jobs,
          part: this.#part,
          chunkKey: (c) => this.chunkKey(c),
          missing: fillMissing ? undefined : (p) => this.#missing(p),
          collectAbsent: this.#nested === undefined,
          intoParts: intoParts === undefined ? undefined : { read: intoParts, targets: raw!.rawTargets },
        },
        indexer,
        outView,
        zeroed,
        options,
      );
      const absent = report.absent;
      if (absent !== undefined && absent.length > 0)
        await this.#readNested(absent, report.found, outView, options.signal);
      else if (report.found) this.#nested ??= false; // a chunk was where .zarray says
    }
    if (fields !== undefined) {
      const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
      const shape = [...indexer.shape, ...fields.extraShape];
      return {
        data: fieldsOf!.extractFields(bytes, product(indexer.shape), this.itemsize, fields) as T,
        shape,
        strides: cStrides(shape),
        dtype: fields.dtype,
      };
    }
    return { data: out as T, shape: indexer.shape, strides: cStrides(indexer.shape), dtype: this.dtype };
  }

  /**
   * The pool a read or write of `nchunks` chunks should use, if any: only for enough work, only
   * when the pool's threads decode exactly as this thread would (built-in codecs, no object dtype).
   */
  async #poolFor(nchunks: number, choice: ChunkPool | false | undefined): Promise<PoolJob | undefined> {
    if (choice === false || nchunks < 2) return undefined;
    const pool = choice ?? (this.#options.pool === false ? undefined : (this.#options.pool ?? defaultChunkPool()));
    if (pool === undefined || nchunks * this.#codec.chunkBytes < (pool.minBytes ?? POOL_MIN_BYTES)) return undefined;
    this.#poolMeta ??= (async () => {
      const text = this.#format.threadText(this.#meta);
      if (text === undefined || this.dtype.kind === "O") return null;
      const registry = this.#options.registry ?? defaultCodecRegistry();
      const { configs } = await this.#format.chain(this.#meta, registry);
      return (await usesBuiltinCodecs(registry, configs)) ? text : null;
    })();
    const meta = await this.#poolMeta;
    if (meta === null) return undefined;
    if (nchunks * this.#codec.chunkBytes >= START_THREADS_BYTES) pool.warm?.();
    return { pool, meta, spec: pool.storeSpec?.(this.store) };
  }

  /** The error for a read of a chunk that is not stored, under `fillMissingChunks: false`. */
  #missing(p: AnyChunkProjection): MissingChunkError {
    return new MissingChunkError(this.chunkKey(p.chunkCoords), p.chunkCoords);
  }

  /** A call's options with the array's defaults (its `concurrency`, else its store's `preferredConcurrency`). */
  #withDefaults<O extends RunOptions>(options: O): O {
    const concurrency = this.#options.concurrency ?? this.store.preferredConcurrency;
    return concurrency === undefined || options.concurrency !== undefined ? options : { ...options, concurrency };
  }

  /** A caller's `out` must be the dtype's typed array with room for exactly the selection. */
  #checkOut(out: TypedArray, size: number): TypedArray {
    const Ctor = typedArrayConstructor(this.dtype);
    const values = size * valuesPerElement(this.dtype);
    if (!(out instanceof Ctor) || out.length !== values) {
      throw new ValueError(
        `out must be a ${Ctor.name} of ${values} values for this selection, got a ${out.constructor.name} of ${out.length}`,
        { key: this.#metaKey },
      );
    }
    return out;
  }

  /**
   * After a read that found the chunks of `absent` missing under their `.` keys, while it was
   * unknown whether this array's chunks are nested: a chunk found (`found`) settles it for free
   * (flat); otherwise the store is asked, once. When they are nested, the absent chunks are read
   * from under their `/` keys into `out`, over the fill value placed there.
   */
  async #readNested(
    absent: readonly AnyChunkProjection[],
    found: boolean,
    out: StridedView<TypedArray>,
    signal?: AbortSignal,
  ): Promise<void> {
    if (await this.#nestedAfter(found, absent[0]!.chunkCoords, signal)) {
      await forEachConcurrent(
        absent,
        async (p) => {
          const key = this.chunkKey(p.chunkCoords);
          const stored = await this.store.get(key, { signal });
          if (stored !== undefined) await this.#jobs.place(out, false, stored, key, p, signal);
        },
        { signal },
      );
    }
  }

  /**
   * Whether this array's chunks are nested, asked by a read that found the chunk at `coords`
   * missing (`found`: and some other chunk where `.zarray` says), settling it if it is unknown.
   */
  async #nestedAfter(found: boolean, coords: readonly number[], signal?: AbortSignal): Promise<boolean> {
    if (found) this.#nested ??= false;
    await this.#settleNested(coords, signal);
    return this.#nested === true;
  }

  /** Asks the store, once, whether this array's chunks are nested (`coords`: a chunk found missing under its `.` key). */
  async #settleNested(coords: readonly number[] | undefined, signal?: AbortSignal): Promise<void> {
    if (this.#nested !== undefined) return;
    // Loaded on first use: only arrays whose .zarray names no separator ever ask.
    this.#nestedCheck ??= import("./nested-chunks.js")
      .then(({ holdsNestedChunks }) => holdsNestedChunks(this.store, this.path, this.ndim, coords, signal))
      .then(
        (nested) => {
          this.#nested = nested;
        },
        (error: unknown) => {
          this.#nestedCheck = undefined; // asked again next time (an abort, a failing request)
          throw error;
        },
      );
    await this.#nestedCheck;
  }

  /** Object-array support (loaded only by arrays that need it) and this array's codec pipeline, made on first use. */
  async #objectArrays(): Promise<{ objects: typeof import("./object-chunks.js"); codec: ObjectChunkCodec }> {
    const objects = await import("./object-chunks.js");
    this.#objects ??= this.#format
      .chain(this.#meta, this.#options.registry ?? defaultCodecRegistry())
      .then(({ chain }) => objects.ObjectChunkCodec.fromChain(chain));
    return { objects, codec: await this.#objects };
  }

  // --- iteration ------------------------------------------------------------------------------

  /**
   * The items along the first dimension from `start` to `end`, as zarr-python's `islice`: each a
   * result of the remaining dimensions (shape `[]` for a 1-d array). Chunks along the first
   * dimension are read one block at a time, so memory stays one block.
   */
  async *islice<T extends NdData = TypedArray>(
    start = 0,
    end?: number,
    options: RunOptions = {},
  ): AsyncGenerator<NdArray<T>> {
    const { islice } = await import("./array-islice.js");
    yield* islice<T>(this, start, end, options);
  }

  /** Iterates over the first dimension, as iterating a zarr-python array does (object arrays: `islice<unknown[]>()` types the rows). */
  [Symbol.asyncIterator](): AsyncGenerator<NdArray> {
    return this.islice();
  }

  // --- writing --------------------------------------------------------------------------------

  /**
   * Writes `value` (a scalar, a typed array, or an N-d array broadcast to the selection) into a
   * selection chosen as `get` chooses it.
   */
  async set(selection: FieldSelectionInput, value: unknown, options: SelectionOptions = {}): Promise<void> {
    const { fields, selection: items } = popFields(selection);
    const indexer = await this.#indexerFor(selection, items);
    return this.#write(indexer, value, { ...options, fields: options.fields ?? fields });
  }

  /**
   * Writes `value` into a selection. With `fields`, only those fields of each element change: the
   * value then has the field's dtype (and its subarray dimensions last), or for a list of fields
   * the packed struct of them.
   */
  async setBasicSelection(selection: BasicSelection, value: unknown, options: SelectionOptions = {}): Promise<void> {
    return this.#write(new BasicIndexer(selection, this.shape, this.chunks), value, options);
  }

  async setOrthogonalSelection(
    selection: OrthogonalSelection,
    value: unknown,
    options: SelectionOptions = {},
  ): Promise<void> {
    return this.#write(await this.#fancy("orthogonal", selection), value, options);
  }

  /** Writes points; where coordinates repeat, the last value wins (as numpy). */
  async setCoordinateSelection(
    selection: CoordinateSelection,
    value: unknown,
    options: SelectionOptions = {},
  ): Promise<void> {
    return this.#write(await this.#fancy("coordinate", selection), value, options);
  }

  async setMaskSelection(selection: MaskSelection, value: unknown, options: SelectionOptions = {}): Promise<void> {
    return this.#write(await this.#fancy("mask", selection), value, options);
  }

  async setBlockSelection(selection: BasicSelection, value: unknown, options: SelectionOptions = {}): Promise<void> {
    return this.#write(await this.#fancy("block", selection), value, options);
  }

  /** Writes `value` into what `indexer` selects (array-write.ts, loaded by the first write). */
  async #write(indexer: Indexer, value: unknown, options: SelectionOptions): Promise<void> {
    const { write } = await import("./array-write.js");
    return write(internalsOf(this), indexer, value, this.#withDefaults(options));
  }

  // --- views ----------------------------------------------------------------------------------

  /**
   * The same stored data seen through other metadata, as zarr-python's `view`: another dtype,
   * shape, chunking, fill value or filters, held in memory only. A view can read and (unless
   * `readOnly`) write data, but never changes the stored `.zarray`.
   */
  async view(options: ViewOptions = {}): Promise<ZarrArray> {
    const { viewMetadata } = await import("./array-views.js");
    const meta = viewMetadata(this.#meta, options);
    const registry = this.#options.registry ?? defaultCodecRegistry();
    const { chain } = await this.#format.chain(meta, registry, this.#options.sharding);
    const readOnly = options.readOnly ?? this.readOnly;
    const view = new ZarrArray(
      this.store,
      this.path,
      this.#format,
      ChunkCodec.fromChain(chain, meta),
      { ...this.#options, readOnly },
      meta,
    );
    if (this.#nested === true && view.#nested === undefined) view.#nested = true;
    return view;
  }

  /** A read-only view converting values to `dtype` on read, as zarr-python's `astype`. */
  async astype(dtype: string | DataType): Promise<ZarrArray> {
    const { astypeView } = await import("./array-views.js");
    return this.view(astypeView(this.#meta, dtype));
  }

  // --- checksums ------------------------------------------------------------------------------

  /**
   * A checksum of the stored array, as zarr-python's `digest`: every chunk's stored bytes in chunk
   * order (nothing for a missing chunk), then `.zarray`, then `.zattrs` (a v1 array's `meta` and
   * `attrs`).
   */
  async digest(hashname: HashName = "sha1", options: RunOptions = {}): Promise<Uint8Array> {
    const { digest } = await import("./array-stored.js");
    return digest(internalsOf(this), hashname, options);
  }

  async hexdigest(hashname: HashName = "sha1", options: RunOptions = {}): Promise<string> {
    return Array.from(await this.digest(hashname, options), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // --- shape changes --------------------------------------------------------------------------

  /**
   * Changes the shape. Chunks that fall outside the new chunk grid are deleted; data in chunks that
   * stay is kept as it is (as zarr-python does).
   */
  async resize(shape: readonly number[], options: RunOptions = {}): Promise<void> {
    if (this.#options.fixedMetadata)
      throw new ReadOnlyError(`the metadata of ${JSON.stringify(this.path)}, given rather than stored,`, {
        key: this.#metaKey,
      });
    const { resize } = await import("./array-write.js");
    return resize(internalsOf(this), shape, options);
  }

  /** Appends `data` along `axis`, growing the array; returns the new shape. */
  async append(
    data: NdArray<NdData> | { data: NdData; shape: readonly number[] },
    axis = 0,
    options: RunOptions = {},
  ): Promise<readonly number[]> {
    if (!Number.isInteger(axis) || axis < 0 || axis >= this.ndim) {
      throw new ArgumentError(`axis ${axis} is out of range for an array of ${this.ndim} dimensions`);
    }
    const mismatch = data.shape.length !== this.ndim || data.shape.some((s, i) => i !== axis && s !== this.shape[i]);
    if (mismatch) {
      throw new ValueError(
        `shape of data to append [${data.shape.join(", ")}] is not compatible with the array [${this.shape.join(", ")}]; ` +
          "all dimensions must match except for the dimension being appended",
      );
    }
    const old = this.shape[axis]!;
    const shape = this.shape.map((s, i) => (i === axis ? s + data.shape[axis]! : s));
    await this.resize(shape, options);
    const selection = shape.map((s, i) =>
      i === axis ? { kind: "slice" as const, start: old, stop: s, step: 1 } : null,
    );
    await this.set(selection, data, options);
    return this.shape;
  }

  // --- storage statistics ---------------------------------------------------------------------

  /** The chunk keys of this array present in the store (needs a listable store). */
  async initializedChunkKeys(options: RunOptions = {}): Promise<string[]> {
    const { initializedChunkKeys } = await import("./array-stored.js");
    return initializedChunkKeys(internalsOf(this), options);
  }

  /** How many chunks are stored (counted correctly for both separators, unlike zarr-python 2.13 with `/`). */
  async nchunksInitialized(options: RunOptions = {}): Promise<number> {
    return (await this.initializedChunkKeys(options)).length;
  }

  /** Bytes stored for this array: metadata, attributes and chunks; `undefined` when the store cannot list. */
  async nbytesStored(options: RunOptions = {}): Promise<number | undefined> {
    const { nbytesStored } = await import("./array-stored.js");
    return nbytesStored(internalsOf(this), options);
  }

  /** A text report like zarr-python's `Array.info`. */
  async info(options: RunOptions = {}): Promise<string> {
    const { info } = await import("./array-stored.js");
    return info(internalsOf(this), options);
  }
}

/**
 * For `create`: an array it has just written has no chunks, and its new ones go under the keys
 * its `.zarray` implies, so the store is never asked whether they are nested.
 */
export function createdLayout(array: ZarrArray): ZarrArray {
  settleFlat(array);
  return array;
}

/**
 * A v1 array's metadata as v2, its compressor config completed with the codec's defaults, as
 * zarr-python's `migrate_1to2` completes it through `get_config()`.
 */
export async function readV1Metadata(bytes: Uint8Array, registry: CodecRegistry): Promise<ArrayMetadata> {
  const meta = parseArrayMetadataV1(bytes, V1_META_KEY);
  if (meta.compressor === null) return meta;
  const codec = await registry.create(meta.compressor, { key: V1_META_KEY });
  return { ...meta, compressor: codec.toJSON() };
}

/** Options of `get`/`set`: with `fields`, only those fields of a structured array. */
/** `get`/`set` of one selection kind, as zarr-python's `oindex`, `vindex` and `blocks`. */
export interface SelectionAccessor<S> {
  get<T extends NdData = TypedArray>(selection: S, options?: SelectionOptions): Promise<NdArray<T>>;
  set(selection: S, value: unknown, options?: SelectionOptions): Promise<void>;
}

/** Stores such as a nested directory store carry a default separator for the arrays in them. */
export function storeSeparator(store: Store): "." | "/" | undefined {
  const separator = (store as { dimensionSeparator?: unknown }).dimensionSeparator;
  return separator === "." || separator === "/" ? separator : undefined;
}
