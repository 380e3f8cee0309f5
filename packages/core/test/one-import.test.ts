// An application that imports from "@z/core" only: the errors any operation throws (with their
// codes), the store contracts to write a store of its own, and codec registration.
import { describe, expect, it } from "vitest";
import {
  BoundsError,
  CodecConfigError,
  CodecError,
  CodecRegistry,
  create,
  DataTypeError,
  defaultRegistry,
  defineCodec,
  isListable,
  isWritable,
  MemoryStore,
  MetadataError,
  NodeNotFoundError,
  openArray,
  openLocation,
  PathError,
  registerCodec,
  SelectionError,
  slice,
  StoreError,
  TooLargeError,
  UnknownCodecError,
  ZarrError,
  type ChunkContext,
  type CodecData,
  type CodecLoader,
  type ListableStore,
  type LocationStores,
  type Store,
  type StoreOptions,
  type WritableStore,
} from "@z/core";

const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** A store of one's own, to the contract: values in a Map. */
class MapStore implements WritableStore, ListableStore {
  readonly values = new Map<string, Uint8Array>();
  async get(key: string, _options?: StoreOptions): Promise<Uint8Array | undefined> {
    if (key.includes("..")) throw new StoreError(`bad key ${key}`, { key });
    return this.values.get(key);
  }
  async set(key: string, value: Uint8Array): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
  async list(prefix = ""): Promise<string[]> {
    return [...this.values.keys()].filter((k) => k.startsWith(prefix));
  }
}

const zarray = (fields: Record<string, unknown> = {}) =>
  text({
    zarr_format: 2,
    shape: [10],
    chunks: [5],
    dtype: "<i2",
    compressor: null,
    fill_value: 0,
    order: "C",
    filters: null,
    ...fields,
  });

describe("one import for common things", () => {
  it("a store of one's own, checked with the contract's helpers", async () => {
    const store = new MapStore();
    const readOnly: Store = { get: (key) => store.get(key) };
    expect([isListable(store), isWritable(store), isListable(readOnly), isWritable(readOnly)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const z = await create({ store, shape: [4], chunks: [2], dtype: "<u1", compressor: null });
    await z.set(null, 7);
    expect(Array.from((await z.get()).data as Uint8Array)).toEqual([7, 7, 7, 7]);
    expect((await store.list()).sort()).toEqual([".zarray", "0", "1"]);
  });

  it("every error is a ZarrError with a code, caught by its class", async () => {
    const store = new MapStore();
    const caught = async (p: Promise<unknown>): Promise<ZarrError> =>
      p.then(
        () => expect.unreachable("it succeeded"),
        (e: unknown) => e as ZarrError,
      );

    const missing = await caught(openArray(store, { path: "nothing", mode: "r" }));
    expect(missing).toBeInstanceOf(NodeNotFoundError);

    store.values.set("bad/.zarray", text({ zarr_format: 2 }));
    expect(await caught(openArray(store, { path: "bad", mode: "r" }))).toBeInstanceOf(MetadataError);

    const dtype = await caught(create({ store, path: "dtype", shape: [1], dtype: "<q9" }));
    expect(dtype).toBeInstanceOf(DataTypeError);
    expect(dtype.code).toBe("ZARR_DTYPE");

    expect(await caught(openArray(store, { path: "a/../b", mode: "r" }))).toBeInstanceOf(PathError);

    store.values.set("codec/.zarray", zarray({ compressor: { id: "no-such-codec" } }));
    const unknown = await caught(openArray(store, { path: "codec", mode: "r" }));
    expect(unknown).toBeInstanceOf(UnknownCodecError);
    expect(unknown.code).toBe("ZARR_UNKNOWN_CODEC");

    store.values.set("level/.zarray", zarray({ compressor: { id: "zlib", level: 99 } }));
    expect(await caught(openArray(store, { path: "level", mode: "r" }))).toBeInstanceOf(CodecConfigError);

    store.values.set("chunk/.zarray", zarray({ compressor: { id: "zlib", level: 1 } }));
    store.values.set("chunk/0", new Uint8Array([1, 2, 3]));
    const chunk = await openArray(store, { path: "chunk", mode: "r" });
    const codec = await caught(chunk.get([slice(0, 5)]));
    expect(codec).toBeInstanceOf(CodecError);
    expect(codec.key).toBe("chunk/0");

    expect(await caught(chunk.get([12]))).toBeInstanceOf(BoundsError);
    expect(await caught(chunk.get([slice(0, 5, 0)]))).toBeInstanceOf(SelectionError);

    store.values.set("huge/.zarray", zarray({ shape: [2 ** 40], chunks: [2 ** 40] }));
    const huge = await openArray(store, { path: "huge", mode: "r" });
    const tooLarge = await caught(huge.get([slice(0, 1)]));
    expect(tooLarge).toBeInstanceOf(TooLargeError);
    expect(tooLarge.code).toBe("ZARR_TOO_LARGE");

    const storeError = await caught(store.get("../x"));
    expect(storeError).toBeInstanceOf(StoreError);
    expect([storeError.code, storeError.key]).toEqual(["ZARR_STORE", "../x"]);

    for (const e of [missing, unknown, codec, tooLarge, storeError]) expect(e).toBeInstanceOf(ZarrError);
  });

  it("a codec of one's own: defined once, registered, used by arrays and by a registry of one's own", async () => {
    const xor = defineCodec({
      id: "one-import-xor",
      config: {},
      create: () => {
        const apply = (data: CodecData, _chunk: ChunkContext) => (data as Uint8Array).map((b) => b ^ 0x5a);
        return { encode: apply, decode: apply };
      },
    });
    const load: CodecLoader = () => xor;
    registerCodec("one-import-xor", load);
    expect(defaultRegistry.has("one-import-xor")).toBe(true);

    const store = new MapStore();
    const z = await create({ store, shape: [3], chunks: [3], dtype: "<u1", compressor: { id: "one-import-xor" } });
    await z.set(null, { data: new Uint8Array([1, 2, 3]), shape: [3] });
    expect(Array.from(store.values.get("0")!)).toEqual([1 ^ 0x5a, 2 ^ 0x5a, 3 ^ 0x5a]);
    expect(Array.from((await z.get()).data as Uint8Array)).toEqual([1, 2, 3]);

    // A registry of one's own holds only what it is given.
    const own = new CodecRegistry([["one-import-xor", load]]);
    expect(own.ids()).toEqual(["one-import-xor"]);
    const again = await openArray(store, { mode: "r", registry: own });
    expect(Array.from((await again.get()).data as Uint8Array)).toEqual([1, 2, 3]);
  });

  it("the openers of openLocation are a contract too", async () => {
    const memory = new MemoryStore();
    const stores: LocationStores = { openHttp: () => memory };
    expect((await openLocation("https://example.com/x.zarr", stores)).store).toBe(memory);
  });
});
