// Opening reads metadata (and the first and last time), and a selection reads only the chunks it
// touches: counted on xarray's own store of a packed time x lat x lon variable.
import { join } from "node:path";
import type { ByteRange, DirectoryListing, Store, StoreOptions } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { describe, expect, it } from "vitest";
import { openDataset, slice } from "../src/index.js";
import { FIXTURES } from "./expected.js";

/** A directory's store that records the keys it is asked for. */
class CountingStore implements Store {
  readonly reads: string[] = [];
  readonly #inner: DirectoryStore;
  constructor(path: string) {
    this.#inner = new DirectoryStore(path);
  }
  async get(key: string, options?: StoreOptions): Promise<Uint8Array | undefined> {
    this.reads.push(key);
    return this.#inner.get(key, options);
  }
  async getRange(key: string, range: ByteRange, options?: StoreOptions): Promise<Uint8Array | undefined> {
    this.reads.push(key);
    return this.#inner.getRange(key, range, options);
  }
  list(prefix?: string): Promise<string[]> {
    return this.#inner.list(prefix);
  }
  listDir(prefix: string): Promise<DirectoryListing> {
    return this.#inner.listDir(prefix);
  }
}

const chunkReads = (store: CountingStore): string[] =>
  store.reads.filter((key) => !/(^|\/)\.z(array|attrs|group|metadata)$/.test(key)).sort();

describe("reading lazily", () => {
  it("opening reads metadata once, through .zmetadata, and of the data only the times' first and last", async () => {
    const store = new CountingStore(join(FIXTURES, "packed-small-consolidated.zarr"));
    await openDataset(store);
    // time is int32 in chunks of 5 over 12: its first and last values are in chunks 0 and 2.
    expect(chunkReads(store)).toEqual(["time/0", "time/2"]);
    expect(store.reads.filter((key) => key.endsWith(".zmetadata"))).toHaveLength(1);
    expect(store.reads.filter((key) => /\.z(array|attrs|group)$/.test(key))).toEqual([]);
  });

  it("isel reads nothing; values read only the chunks the selection touches", async () => {
    const store = new CountingStore(join(FIXTURES, "packed-small-plain.zarr"));
    const ds = await openDataset(store, { consolidated: false });
    store.reads.length = 0;
    // t2m is 12 x 10 x 16 in chunks of 5 x 4 x 6: time 0, lat 2..6, lon 7..12.
    const selected = ds.isel({ time: 0, lat: slice(2, 7), lon: slice(7, 13) });
    expect(store.reads).toEqual([]);
    const t2m = await selected.get("t2m").values();
    expect(t2m.shape).toEqual([5, 6]);
    expect(chunkReads(store)).toEqual(["t2m/0.0.1", "t2m/0.0.2", "t2m/0.1.1", "t2m/0.1.2"]);
  });

  it("a negative step and a list of positions read only their chunks too", async () => {
    const store = new CountingStore(join(FIXTURES, "packed-small-plain.zarr"));
    const ds = await openDataset(store, { consolidated: false });
    store.reads.length = 0;
    const t2m = ds.get("t2m").isel({ time: [11, 0], lat: slice(null, null, -9), lon: 15 });
    expect(t2m.dims).toEqual(["time", "lat"]);
    const values = await t2m.values();
    expect(values.shape).toEqual([2, 2]);
    expect(chunkReads(store)).toEqual(["t2m/0.0.2", "t2m/0.2.2", "t2m/2.0.2", "t2m/2.2.2"]);
    // The same values as selecting from all of them.
    const all = await ds.get("t2m").values<Float32Array>();
    const at = (t: number, y: number): number => all.data[t * 160 + y * 16 + 15]!;
    expect([...(values.data as Float32Array)]).toEqual([at(11, 9), at(11, 0), at(0, 9), at(0, 0)]);
  });

  it("variables: only the arrays named, from a store that cannot list (plain HTTP without .zmetadata)", async () => {
    const inner = new CountingStore(join(FIXTURES, "packed-small-plain.zarr"));
    const unlisted = { get: inner.get.bind(inner), getRange: inner.getRange.bind(inner) };
    await expect(openDataset(unlisted, { consolidated: false })).rejects.toThrow(/cannot list/);
    const ds = await openDataset(unlisted, { consolidated: false, variables: ["t2m", "lat"] });
    expect([...ds.variables.keys()]).toEqual(["lat", "t2m"]);
    expect(ds.coords).toEqual(["lat"]);
    expect((await ds.sel({ lat: 0 }, { method: "nearest" })).get("t2m").dims).toEqual(["time", "lon"]);
    await expect(
      openDataset(new CountingStore(join(FIXTURES, "packed-small-consolidated.zarr")), { variables: ["nope"] }),
    ).rejects.toThrow(/no array "nope"/);
  });
});
