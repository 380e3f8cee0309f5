/*
 * Writing and resizing a `ZarrArray`, loaded by its first write or resize (a page that only reads
 * never loads it): building each chunk from the value and what is stored, encoding it (here or in
 * the pool's threads) and storing it.
 */
import { gridCoords } from "@z/meta";
import {
  BasicIndexer,
  BlockIndexer,
  copyProjection,
  copyStrided,
  coversChunk,
  fillProjection,
  fillStrided,
  selectionView,
  stridesFor,
  type AnyChunkProjection,
  type ChunkProjection,
  type Indexer,
  type StridedView,
} from "@z/indexing";
import {
  isWritable,
  threadLockFor,
  typedArrayConstructor,
  valuesPerElement,
  withLock,
  type DataType,
  type TypedArray,
  type WritableStore,
} from "@z/meta";
import type { ArrayInternals, PoolJob } from "./array-internals.js";
import { filledTyped } from "./chunk-data.js";
import type { StoreSpec } from "./chunk-pool.js";
import { forEachConcurrent, type RunOptions } from "./concurrency.js";
import { ArgumentError, FieldError, ReadOnlyError } from "./errors.js";
import { selectFields, type FieldSelection } from "./fields.js";
import { largeBuffersLoading } from "./large-buffers-loading.js";
import { cStrides, product } from "./nd-array.js";
import { regionToWrite, updateRegion } from "./region-write.js";
import { writeBuffers } from "./scratch-buffers.js";
import type { SelectionOptions } from "./selection-options.js";
import { checkChunkSize } from "./size-limits.js";
import { toWriteSource, type WriteSource } from "./values.js";

/** The store to write to; a `ReadOnlyError` for a read-only array or store. */
function writableStore(self: ArrayInternals): WritableStore {
  const { array } = self;
  if (array.readOnly || !isWritable(array.store)) {
    throw new ReadOnlyError(`array ${JSON.stringify(array.path)}`, { key: self.metaKey });
  }
  return array.store;
}

/** Writes `value` into what `indexer` selects; checks everything (value shape, fields, store) before the first chunk is written. */
export async function write(
  self: ArrayInternals,
  indexer: Indexer,
  value: unknown,
  options: SelectionOptions,
): Promise<void> {
  const { array } = self;
  const store = writableStore(self);
  const key = self.metaKey;
  // Writing builds and encodes whole chunks.
  if (indexer.nchunks > 0) checkChunkSize(self.meta, self.metaKey);
  await self.settleNested(undefined, options.signal); // new chunks go where the others are
  // In Node, large buffers are advised once @z/huge-pages has loaded (see large-buffers-loading.ts).
  const loading = largeBuffersLoading();
  if (loading !== undefined) await loading;
  if (array.dtype.kind === "O") {
    const { objects, codec } = await self.objectArrays();
    return objects.writeObjects(array, store, codec, indexer, value, key, options);
  }
  const fields = options.fields === undefined ? undefined : selectFields(array.dtype, options.fields, key);
  if (fields !== undefined && !(indexer instanceof BasicIndexer || indexer instanceof BlockIndexer)) {
    throw new FieldError(`writing fields takes a basic or block selection (${key})`, { key });
  }
  const source = toWriteSource(
    value,
    [...indexer.shape, ...(fields?.extraShape ?? [])],
    fields?.dtype ?? array.dtype,
    key,
  );
  const pooled = await self.poolFor(indexer.nchunks, options.pool);
  if (pooled !== undefined) {
    // Threads start once the chunks encoded here show the write is long enough for them.
    const { threadStarter } = await import("./pooled.js");
    const observe = threadStarter(pooled.pool);
    let left = indexer.nchunks;
    pooled.encodedHere = (ms) => observe(1, ms, --left);
  }
  await forEachConcurrent(
    indexer,
    (p: AnyChunkProjection) => {
      const chunkKey = array.chunkKey(p.chunkCoords);
      return withLock(
        array.synchronizer ?? threadLockFor(store),
        chunkKey,
        () => updateChunk(self, store, chunkKey, p, source, fields, pooled, options.signal),
        options.signal,
      );
    },
    options,
    indexer.nchunks,
  );
}

async function updateChunk(
  self: ArrayInternals,
  store: WritableStore,
  key: string,
  p: AnyChunkProjection,
  source: WriteSource,
  fields: FieldSelection | undefined,
  pooled: PoolJob | undefined,
  signal?: AbortSignal,
): Promise<void> {
  const { array } = self;
  const k = valuesPerElement(array.dtype);
  const elements = product(array.chunks);
  // A field write keeps the element's other fields, so the chunk is always read first.
  const whole = fields === undefined && coversChunk(p, array.chunks);
  // Part of a shard: only the inner chunks the write touches are decoded and encoded again.
  const box = whole || fields !== undefined ? undefined : regionToWrite(self, p);
  if (box !== undefined) return updateRegion(self, store, key, p, box, source, signal);
  // Only read what will survive: a chunk overwritten whole is never fetched.
  const chunk =
    (whole ? undefined : await readChunk(self, p.chunkCoords, signal)) ??
    chunkView(self, whole ? wholeChunkBuffer(self, elements * k) : filledTyped(self.pattern, elements, array.dtype));
  if (fields !== undefined)
    writeFields(
      self,
      selectionView(chunk, (p as ChunkProjection).chunkSelection),
      p as ChunkProjection,
      source,
      fields,
    );
  else if (source.kind === "scalar") fillProjection(chunk, p, source.element, k);
  else copyProjection(source.view, chunk, p, "write", k);
  let encoded: Uint8Array | "empty" | "stored" | undefined;
  let spec: StoreSpec | undefined;
  if (pooled !== undefined) {
    // A chunk made here is handed to the thread; one decoded from the store may share its buffer.
    const bytes = new Uint8Array(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength);
    const { encodePooled } = await import("./pooled.js");
    const item = await encodePooled(pooled.pool, pooled.meta, pooled.spec, key, bytes, !array.writeEmptyChunks, whole);
    if (item !== undefined) [encoded, spec] = [item.kind === "encoded" ? item.bytes : item.kind, pooled.spec];
  }
  if (encoded === undefined) {
    const began = pooled === undefined ? 0 : performance.now();
    encoded = await self.jobs.encode(chunk.data, key, !array.writeEmptyChunks, signal);
    pooled?.encodedHere?.(performance.now() - began);
  }
  signal?.throwIfAborted();
  if (encoded === "empty") {
    if (spec === undefined) await store.delete(key, { signal });
  } else if (encoded !== "stored") {
    await store.set(key, encoded, { signal });
  }
  // Here or by a pool thread: what the codecs cached of the chunk (a shard's index) is stale now.
  self.jobs.codec.forget(key);
  // Encoded here into other bytes than the chunk's (a codec may return its input): the buffer is free again.
  const buffer = chunk.data.buffer;
  if (whole && buffer.byteLength > 0 && !(encoded instanceof Uint8Array && encoded.buffer === buffer))
    writeBuffers.give(new Uint8Array(buffer));
}

/** The decoded chunk at `coords` as a view in the array's order, or undefined when it is not stored. */
async function readChunk(
  self: ArrayInternals,
  coords: readonly number[],
  signal?: AbortSignal,
): Promise<StridedView<TypedArray> | undefined> {
  const key = self.array.chunkKey(coords);
  const stored = await self.array.store.get(key, { signal });
  if (stored === undefined) return undefined;
  checkChunkSize(self.meta, self.metaKey);
  return self.jobs.decode(stored, key, signal);
}

function chunkView({ array }: ArrayInternals, data: TypedArray): StridedView<TypedArray> {
  return { data, offset: 0, shape: array.chunks, strides: stridesFor(array.chunks, array.order) };
}

/** A chunk's worth of values to overwrite whole (contents undefined): a buffer a previous write gave back, or a new one. */
function wholeChunkBuffer({ array }: ArrayInternals, values: number): TypedArray {
  const Ctor = typedArrayConstructor(array.dtype);
  return new Ctor(writeBuffers.take(values * Ctor.BYTES_PER_ELEMENT).buffer as ArrayBuffer, 0, values);
}

/** Copies the bytes of each selected field from `source` into the chunk region `target`. */
function writeFields(
  { array }: ArrayInternals,
  target: StridedView<TypedArray>,
  p: ChunkProjection,
  source: WriteSource,
  fields: FieldSelection,
): void {
  const sourceItem = fields.bytes;
  const full = fields.extraShape.map((n) => ({ start: 0, stop: n, step: 1 }));
  let values: StridedView<TypedArray>;
  if (source.kind === "scalar") {
    // One element of the value's dtype, repeated over the region by zero strides.
    const one = new (typedArrayConstructor(fields.dtype))(valuesPerElement(fields.dtype));
    fillStrided({ data: one, offset: 0, shape: [], strides: [] }, source.element, valuesPerElement(fields.dtype));
    const shape = [...target.shape, ...fields.extraShape];
    values = { data: one, offset: 0, shape, strides: shape.map(() => 0) };
  } else {
    values = selectionView(source.view, [...p.outSelection, ...full]);
  }
  for (const part of fields.parts) {
    const into = fieldBytesView(target, array.itemsize, part.from, part.field);
    // A single field's value is made of the field's base values; a list's, of packed structs.
    const from =
      fields.parts.length === 1 && fields.dtype === part.field.dtype
        ? fieldBytesView(values, part.field.dtype.itemsize, 0, { shape: [], dtype: part.field.dtype })
        : fieldBytesView(values, sourceItem, part.to, part.field);
    copyStrided(into, from, 1);
  }
}

/**
 * Changes the shape. Chunks that fall outside the new chunk grid are deleted; data in chunks that
 * stay is kept as it is (as zarr-python does).
 */
export async function resize(self: ArrayInternals, shape: readonly number[], options: RunOptions): Promise<void> {
  const { array } = self;
  const store = writableStore(self);
  if (array.isView)
    throw new ReadOnlyError(`the metadata of a view of ${JSON.stringify(array.path)}`, {
      key: self.metaKey,
    });
  if (shape.length !== array.ndim || shape.some((s) => !Number.isInteger(s) || s < 0)) {
    throw new ArgumentError(`new shape [${shape.join(", ")}] must be ${array.ndim} non-negative integers`);
  }
  await self.settleNested(undefined, options.signal); // the chunks to delete are where they are
  const oldGrid = array.cdataShape;
  const format = self.format.resized(shape);
  const key = self.metaKey;
  const { signal } = options;
  await withLock(
    array.synchronizer,
    key,
    async () => store.set(key, await format.encode(() => store.get(key, { signal })), { signal }),
    signal,
  );
  self.format = format;
  const newGrid = array.cdataShape;
  const doomed = [...gridCoords(oldGrid)].filter((c) => c.some((i, d) => i >= newGrid[d]!));
  await forEachConcurrent(
    doomed,
    async (c) => {
      const key = array.chunkKey(c);
      await store.delete(key, { signal: options.signal });
      self.jobs.codec.forget(key);
    },
    options,
  );
}

/**
 * A view of one field's bytes: the elements' dimensions, then the field's subarray dimensions,
 * then one dimension over the bytes of a single base value, so the strided kernels copy exactly
 * those bytes and leave the other fields of each element alone.
 */
function fieldBytesView(
  view: StridedView<TypedArray>,
  elementBytes: number,
  byteOffset: number,
  field: { readonly shape: readonly number[]; readonly dtype: DataType },
): StridedView<Uint8Array> {
  const base = field.dtype.itemsize;
  const bytes = new Uint8Array(view.data.buffer, view.data.byteOffset, view.data.byteLength);
  return {
    data: bytes.subarray(byteOffset),
    offset: view.offset * elementBytes,
    shape: [...view.shape, ...field.shape, base],
    strides: [...view.strides.map((s) => s * elementBytes), ...cStrides(field.shape).map((s) => s * base), 1],
  };
}
