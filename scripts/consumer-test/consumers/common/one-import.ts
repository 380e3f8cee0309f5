// What a user gets from `@z/core` alone (issue #18): the error classes of @z/meta, the store
// contract types, codec registration and MemoryStore, in one import. Shared by the browser reader
// and the Node user; they pass a way to open a store that fails with a StoreError.
import {
  create,
  defaultRegistry,
  defineCodec,
  MemoryStore,
  NodeNotFoundError,
  openArray,
  registerCodec,
  slice,
  StoreError,
  ZarrError,
  type ByteSource,
  type Codec,
  type CodecRegistry,
  type ListableStore,
  type LocationStores,
  type Store,
  type WritableStore,
} from "@z/core";

/** A codec of the user's own: XORs every byte with 0x5a. */
const xor = defineCodec({
  id: "consumer-xor",
  config: {},
  create: () => {
    const apply = (data: unknown): Uint8Array => {
      if (!(data instanceof Uint8Array)) throw new TypeError("consumer-xor works on bytes");
      return data.map((byte) => byte ^ 0x5a);
    };
    return { encode: apply, decode: apply };
  },
});

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`expected ${what}`);
}

/** Runs the checks; returns what each showed, or throws at the first that fails. */
export async function checkOneImport(failing: () => Store): Promise<string[]> {
  const done: string[] = [];

  registerCodec("consumer-xor", () => xor);
  const registry: CodecRegistry = defaultRegistry;
  expect(registry.ids().includes("consumer-xor"), "registerCodec to add to defaultRegistry");
  const codec: Codec = await registry.create({ id: "consumer-xor" });
  expect(codec.id === "consumer-xor", "the registry to build the registered codec");

  const store: WritableStore & ListableStore = new MemoryStore();
  const z = await create({
    store,
    shape: [6],
    chunks: [3],
    dtype: "|u1",
    compressor: null,
    filters: [{ id: "consumer-xor" }],
  });
  await z.set([slice(0, 6)], Uint8Array.from([1, 2, 3, 4, 5, 6]));
  const stored = await store.get("0");
  expect(
    stored !== undefined && stored.join() === "91,88,89",
    `chunk "0" stored XORed (91,88,89), got ${stored?.join()}`,
  );
  const back = await (await openArray(store, { mode: "r" })).get();
  expect(Array.from(back.data as Uint8Array).join() === "1,2,3,4,5,6", "the values back through the codec");
  done.push("registerCodec + defineCodec: an array with the user's codec written to a MemoryStore and read back");

  // The store contract types, as a user annotates with them.
  const contract: {
    store: Store;
    writable: WritableStore;
    listable: ListableStore;
    source?: ByteSource;
    openers: LocationStores;
  } = { store, writable: store, listable: store, openers: {} };
  expect(contract.writable === contract.listable, "one store for every contract type");

  try {
    await openArray(new MemoryStore(), { mode: "r" });
    throw new Error("openArray on an empty store did not throw");
  } catch (error) {
    expect(error instanceof NodeNotFoundError, `a NodeNotFoundError, got ${String(error)}`);
    expect(error instanceof ZarrError && error.code === "ZARR_NOT_FOUND", "a ZarrError with code ZARR_NOT_FOUND");
  }
  done.push("a missing array is a ZarrError (ZARR_NOT_FOUND) from @z/core's own ZarrError");

  try {
    await openArray(failing(), { mode: "r" });
    throw new Error("openArray on the failing store did not throw");
  } catch (error) {
    expect(error instanceof StoreError, `a StoreError, got ${String(error)}`);
    expect(error instanceof ZarrError && error.code === "ZARR_STORE", "a ZarrError with code ZARR_STORE");
  }
  done.push("a store failure is a StoreError (ZARR_STORE) from @z/core's own StoreError");
  return done;
}
