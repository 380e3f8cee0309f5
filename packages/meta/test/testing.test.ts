import { describe, expect, it } from "vitest";
import { StoreError, type ByteRange, type DirectoryListing, type Store } from "@z/meta";
import {
  describeStoreContract,
  storeContractChecks,
  StoreContractError,
  type StoreContractCheck,
} from "@z/meta/testing";

/** The smallest store that keeps the whole contract: a Map, copying values in and out. */
class MapStore implements Store {
  readonly values = new Map<string, Uint8Array>();

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.values.get(checked(key))?.slice();
  }

  async getRange(key: string, range: ByteRange): Promise<Uint8Array | undefined> {
    const value = this.values.get(checked(key));
    if (value === undefined) return undefined;
    if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength));
    return value.slice(range.offset, range.length === undefined ? undefined : range.offset + range.length);
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    this.values.set(checked(key), value.slice());
  }

  async delete(key: string): Promise<void> {
    this.values.delete(checked(key));
  }

  async list(prefix = ""): Promise<string[]> {
    checkedPrefix(prefix);
    return [...this.values.keys()].filter((key) => key.startsWith(prefix));
  }

  async listDir(prefix: string): Promise<DirectoryListing> {
    checkedPrefix(prefix);
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for (const key of this.values.keys()) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash === -1) keys.add(rest);
      else prefixes.add(rest.slice(0, slash));
    }
    return { keys: [...keys], prefixes: [...prefixes] };
  }
}

function checked(key: string): string {
  const segments = key.split("/");
  if (key.includes("\\") || segments.some((s) => s === "" || s === "." || s === "..")) {
    throw new StoreError(`unsafe key ${JSON.stringify(key)}`, { key });
  }
  return key;
}

function checkedPrefix(prefix: string): void {
  if (prefix === "") return;
  const dir = prefix.slice(0, prefix.lastIndexOf("/") + 1);
  if (dir !== "") checked(dir.slice(0, -1));
  if (prefix.includes("\\")) throw new StoreError(`unsafe prefix ${JSON.stringify(prefix)}`, { key: prefix });
}

describeStoreContract("MapStore", async () => new MapStore(), { describe, it }, { refusesUnsafeKeys: true });

describeStoreContract(
  "a read-only store",
  async () => ({ get: async () => undefined }),
  { describe, it },
  { writable: false },
);

/** Runs one check of the kit on `store` and returns what it threw. */
async function failureOf(group: string, name: string, store: Store): Promise<Error> {
  const check = storeContractChecks({ refusesUnsafeKeys: true }).find(
    (c: StoreContractCheck) => c.group === group && c.name === name,
  );
  if (check === undefined) throw new Error(`no check ${group}: ${name}`);
  const err = await check.run(store).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreContractError);
  return err as Error;
}

describe("the contract kit catches a store that", () => {
  it("hands out its own buffers", async () => {
    const store = new MapStore();
    store.get = async (key) => store.values.get(key);
    const err = await failureOf("aliasing", "changing a returned buffer does not change the store", store);
    expect(err.message).toMatch(
      /^get\("k"\) after the caller overwrote the buffer a previous get returned: bytes differ first at index 0/,
    );
  });

  it("keeps the buffers it is given", async () => {
    const store = new MapStore();
    store.set = async (key, value) => void store.values.set(key, value);
    const err = await failureOf("aliasing", "changing a buffer after set does not change the store", store);
    expect(err.message).toContain("after the caller overwrote the buffer it passed to set");
  });

  it("writes the whole ArrayBuffer of a view", async () => {
    const store = new MapStore();
    store.set = async (key, value) => void store.values.set(key, new Uint8Array(value.buffer.slice(0)));
    const err = await failureOf("set/get", "stores only the bytes of the view it is given", store);
    expect(err.message).toMatch(/expected 10 bytes .*, got 64 bytes/);
  });

  it("does not clamp ranges", async () => {
    const store = new MapStore();
    store.getRange = async (key, range) => {
      const value = store.values.get(key);
      if (value === undefined || "suffixLength" in range) return value;
      return new Uint8Array(range.length ?? value.length - range.offset);
    };
    const err = await failureOf("getRange", "clamps ranges that run past the end", store);
    expect(err.message).toContain(
      'getRange("a/0.0", { offset: 8, length: 5 }) of bytes 0..9: expected 2 bytes [8, 9], got 5 bytes',
    );
  });

  it("lists a key twice or misses one", async () => {
    const store = new MapStore();
    const list = store.list.bind(store);
    store.list = async (prefix) => [...(await list(prefix)), "z"].filter((key) => key !== "a/bc");
    const err = await failureOf("list", "lists every key with no prefix or an empty one", store);
    expect(err.message).toBe('list(): lists ["z"] more than once');
  });

  it("accepts keys that escape", async () => {
    const store = new MapStore();
    store.get = async () => undefined;
    const err = await failureOf("unsafe keys", "get refuses keys that could escape the root", store);
    expect(err.message).toBe(
      'get("../x"): expected a StoreError (code "ZARR_STORE") refusing the key, but it succeeded with undefined',
    );
  });

  it("claims to be writable but is not", async () => {
    const err = await failureOf("set/get", "round-trips an empty value", { get: async () => undefined });
    expect(err.message).toContain("pass { writable: false }");
  });
});

describe("storeContractChecks", () => {
  it("leaves out what the store does not claim", () => {
    const groups = (options: Parameters<typeof storeContractChecks>[0]) => [
      ...new Set(storeContractChecks(options).map((c) => c.group)),
    ];
    expect(groups({})).toEqual(["get", "set/get", "delete", "aliasing", "concurrency", "getRange", "list", "listDir"]);
    expect(groups({ writable: false, refusesUnsafeKeys: true })).toEqual(["get", "unsafe keys"]);
    expect(groups({ listable: false, ranges: false })).toEqual(["get", "set/get", "delete", "aliasing", "concurrency"]);
    expect(groups({ listable: false, listDir: true })).toContain("listDir");
  });
});
