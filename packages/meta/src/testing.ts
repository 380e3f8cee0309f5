/**
 * A contract test kit for {@link Store} implementations, for authors of stores (ours and third
 * parties). It needs no test framework and no Node built-ins: pass the `describe` and `it` of
 * vitest, jest, mocha or `node:test`, and every check becomes one test that throws a
 * {@link StoreContractError} with a plain-words message when the store breaks the contract.
 *
 * ```ts
 * import { describe, it } from "vitest";
 * import { describeStoreContract } from "@z/meta/testing";
 *
 * describeStoreContract("MyStore", async () => new MyStore(), { describe, it });
 * ```
 *
 * What the kit holds a store to, beyond the doc comments on {@link Store}:
 *
 * - `makeStore` returns a fresh, empty store on every call (the kit lists keys and expects to see
 *   only the ones it wrote).
 * - Values are copied in and out: changing a buffer after passing it to `set`, or changing a
 *   buffer returned by `get`/`getRange`, never changes what the store holds.
 * - `set` stores exactly the bytes of the view it is given (`byteOffset`/`byteLength`), not the
 *   whole underlying `ArrayBuffer`.
 * - Byte ranges are clamped to the value, like `Uint8Array.prototype.slice`: a range running past
 *   the end yields the bytes up to the end, an `offset` at or past the end yields an empty array,
 *   a `suffixLength` larger than the value yields the whole value, and `suffixLength: 0` yields an
 *   empty array. A missing key yields `undefined` for every range.
 * - `list(prefix)` matches keys by plain string prefix (`list("a/b")` includes `a/bc`), and
 *   `listDir` names are relative to the prefix. Order is free; duplicates are not allowed.
 * - The kit does not ask whether a prefix whose keys were all deleted still shows up in
 *   `listDir`: stores backed by directories may keep empty directories (zarr-python's
 *   `DirectoryStore` does).
 * - With `refusesUnsafeKeys`, keys that could escape a root directory or are not in canonical
 *   form (`../x`, `a/../../x`, `/abs`, `a\b`, `a//b`, `a/`, `.`, `..`, `""`) are refused by every
 *   method with an error whose `code` is `"ZARR_STORE"` (a {@link StoreError}), and so are such
 *   prefixes given to `list`/`listDir`.
 *
 * @packageDocumentation
 */
import type { ByteRange, DirectoryListing, Store } from "./store.js";

/** The two functions of a test framework the kit registers its checks with. */
export interface ContractTestApi {
  describe(name: string, body: () => void): unknown;
  it(name: string, body: () => Promise<void>): unknown;
}

/** Which parts of the contract the store under test claims to support. */
export interface StoreContractOptions<S extends Store = Store> {
  /** `set` and `delete`; default `true`. Most checks need to write, so a read-only store gets few. */
  writable?: boolean;
  /** `list`; default `true`. */
  listable?: boolean;
  /** `listDir`; defaults to `listable`. */
  listDir?: boolean;
  /** `getRange`; default `true`. */
  ranges?: boolean;
  /**
   * The store maps keys to paths (files, URLs) and must refuse keys that would escape its root or
   * are not canonical; default `false`.
   */
  refusesUnsafeKeys?: boolean;
  /** Called after each check with the store it used, e.g. to remove a temporary directory. */
  dispose?: (store: S) => unknown;
}

/** One check of the contract, runnable without a test framework. */
export interface StoreContractCheck {
  /** The group the check belongs to, e.g. `getRange`. */
  readonly group: string;
  /** What the check expects, e.g. `clamps a range running past the end`. */
  readonly name: string;
  run(store: Store): Promise<void>;
}

/** A store broke the contract; the message says which expectation failed and how. */
export class StoreContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreContractError";
  }
}

/**
 * Registers the checks of {@link storeContractChecks} as tests: one `describe(name)` holding one
 * `describe` per group and one `it` per check, each on a fresh store from `makeStore`.
 */
export function describeStoreContract<S extends Store>(
  name: string,
  makeStore: () => S | Promise<S>,
  api: ContractTestApi,
  options: StoreContractOptions<S> = {},
): void {
  const checks = storeContractChecks(options);
  const groups = new Map<string, StoreContractCheck[]>();
  for (const check of checks) {
    const list = groups.get(check.group) ?? [];
    list.push(check);
    groups.set(check.group, list);
  }
  api.describe(name, () => {
    for (const [group, members] of groups) {
      api.describe(group, () => {
        for (const check of members) {
          api.it(check.name, async () => {
            const store = await makeStore();
            try {
              await check.run(store);
            } finally {
              await options.dispose?.(store);
            }
          });
        }
      });
    }
  });
}

/** The checks that apply to a store with the given capabilities, for running them by hand. */
export function storeContractChecks(options: StoreContractOptions<never> = {}): StoreContractCheck[] {
  const writable = options.writable ?? true;
  const listable = options.listable ?? true;
  const listDir = options.listDir ?? listable;
  const ranges = options.ranges ?? true;
  const checks: StoreContractCheck[] = [];
  const add = (group: string, name: string, run: (store: Store) => Promise<void>): void => {
    checks.push({ group, name, run });
  };

  add("get", "returns undefined for a missing key", async (store) => {
    for (const key of ["missing", "no/such/key", ".zarray", "a/b/0.0"]) {
      assertUndefined(await store.get(key), `get(${q(key)}) on an empty store`);
    }
  });

  if (writable) {
    add("set/get", "round-trips an empty value", async (store) => {
      await w(store).set("empty", new Uint8Array(0));
      assertBytes(await store.get("empty"), new Uint8Array(0), `get("empty") after set of 0 bytes`);
    });

    add("set/get", "round-trips every byte value", async (store) => {
      const value = allByteValues();
      await w(store).set("bytes", value);
      assertBytes(await store.get("bytes"), allByteValues(), `get("bytes") after set of 0..255`);
    });

    add("set/get", "round-trips 1 MiB", async (store) => {
      await w(store).set("big/0.0", pattern(1 << 20, 7));
      assertBytes(await store.get("big/0.0"), pattern(1 << 20, 7), `get("big/0.0") after set of 1 MiB`);
    });

    add("set/get", "stores only the bytes of the view it is given", async (store) => {
      const backing = pattern(64, 1);
      await w(store).set("view", backing.subarray(10, 20));
      assertBytes(
        await store.get("view"),
        pattern(64, 1).slice(10, 20),
        `get("view") after set of a 10-byte view at offset 10`,
      );
    });

    add("set/get", "overwrite replaces the whole value", async (store) => {
      await w(store).set("k", pattern(1000, 3));
      await w(store).set("k", utf8("short"));
      assertBytes(await store.get("k"), utf8("short"), `get("k") after overwriting 1000 bytes with 5`);
      await w(store).set("k", new Uint8Array(0));
      assertBytes(await store.get("k"), new Uint8Array(0), `get("k") after overwriting with 0 bytes`);
    });

    add("set/get", "keys with dots and slashes are distinct values", async (store) => {
      const keys = [
        "0.0",
        "0",
        ".zarray",
        ".zgroup",
        ".zattrs",
        "a/.zgroup",
        "a/b/.zattrs",
        "a/b/.zarray",
        "a/b/0.0",
        "a/b/0.1",
        "a/b/c/d/e/f/0.0.0",
        "x.y/z",
        "with space/and-dash_underscore~tilde",
      ];
      for (const key of keys) await w(store).set(key, utf8(key));
      for (const key of keys) assertBytes(await store.get(key), utf8(key), `get(${q(key)})`);
      assertUndefined(await store.get("a/b"), `get("a/b") when only keys below a/b/ exist`);
      assertUndefined(await store.get("a"), `get("a") when only keys below a/ exist`);
    });

    add("delete", "removes the key and leaves its siblings", async (store) => {
      await w(store).set("a/b/0", utf8("zero"));
      await w(store).set("a/b/1", utf8("one"));
      await w(store).delete("a/b/0");
      assertUndefined(await store.get("a/b/0"), `get("a/b/0") after delete`);
      assertBytes(await store.get("a/b/1"), utf8("one"), `get("a/b/1") after deleting its sibling`);
    });

    add("delete", "deleting a missing key is fine", async (store) => {
      await w(store).delete("missing");
      await w(store).delete("no/such/dir/key");
      await w(store).set("once", utf8("x"));
      await w(store).delete("once");
      await w(store).delete("once");
      assertUndefined(await store.get("once"), `get("once") after deleting it twice`);
    });

    add("delete", "a deleted key can be set again", async (store) => {
      await w(store).set("a/0.0", utf8("first"));
      await w(store).delete("a/0.0");
      await w(store).set("a/0.0", utf8("second"));
      assertBytes(await store.get("a/0.0"), utf8("second"), `get("a/0.0") after set, delete, set`);
    });

    add("aliasing", "changing a buffer after set does not change the store", async (store) => {
      const value = pattern(32, 5);
      await w(store).set("k", value);
      value.fill(0xee);
      assertBytes(
        await store.get("k"),
        pattern(32, 5),
        `get("k") after the caller overwrote the buffer it passed to set`,
      );
    });

    add("aliasing", "changing a returned buffer does not change the store", async (store) => {
      await w(store).set("k", pattern(32, 5));
      const first = await store.get("k");
      first?.fill(0xee);
      assertBytes(
        await store.get("k"),
        pattern(32, 5),
        `get("k") after the caller overwrote the buffer a previous get returned`,
      );
      if (ranges && store.getRange) {
        const part = await store.getRange("k", { offset: 0, length: 16 });
        part?.fill(0xee);
        assertBytes(
          await store.get("k"),
          pattern(32, 5),
          `get("k") after the caller overwrote the buffer getRange returned`,
        );
      }
    });

    add("concurrency", "concurrent sets of different keys all land", async (store) => {
      const keys: string[] = [];
      for (let i = 0; i < 48; i++) keys.push(`c/${i % 3}/${i % 2}/${i}.0`);
      await Promise.all(keys.map((key, i) => w(store).set(key, pattern(1000 + i, i))));
      const values = await Promise.all(keys.map((key) => store.get(key)));
      values.forEach((value, i) =>
        assertBytes(value, pattern(1000 + i, i), `get(${q(keys[i] ?? "")}) after concurrent sets`),
      );
    });

    add("concurrency", "concurrent sets of one key leave one whole value", async (store) => {
      const size = 1 << 16;
      const fills = [1, 2, 3, 4, 5, 6, 7, 8];
      await Promise.all(fills.map((fill) => w(store).set("same", new Uint8Array(size).fill(fill))));
      const value = await store.get("same");
      if (value === undefined) fail(`get("same") after concurrent sets: expected a value, got undefined`);
      const first = value[0] ?? -1;
      if (value.length !== size || !fills.includes(first) || value.some((byte) => byte !== first)) {
        fail(
          `get("same") after concurrent sets of ${size}-byte values each filled with one byte: expected one of them whole, got ${describeBytes(value)}`,
        );
      }
    });
  }

  if (ranges && writable) {
    const ten = (): Uint8Array => Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const cases: [ByteRange, number[]][] = [
      [{ offset: 2, length: 3 }, [2, 3, 4]],
      [{ offset: 0, length: 10 }, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
      [{ offset: 0, length: 0 }, []],
      [{ offset: 7 }, [7, 8, 9]],
      [{ offset: 0 }, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
      [{ suffixLength: 4 }, [6, 7, 8, 9]],
      [{ suffixLength: 10 }, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
    ];
    const beyond: [ByteRange, number[]][] = [
      [{ offset: 8, length: 5 }, [8, 9]],
      [{ offset: 10, length: 2 }, []],
      [{ offset: 25, length: 2 }, []],
      [{ offset: 10 }, []],
      [{ offset: 25 }, []],
      [{ suffixLength: 25 }, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
      [{ suffixLength: 0 }, []],
    ];

    add("getRange", "returns undefined for a missing key", async (store) => {
      for (const range of [{ offset: 0, length: 1 }, { offset: 3 }, { suffixLength: 2 }] satisfies ByteRange[]) {
        assertUndefined(await r(store).getRange("missing", range), `getRange("missing", ${fmt(range)})`);
      }
    });

    add("getRange", "reads { offset, length }, { offset } and { suffixLength } ranges", async (store) => {
      await w(store).set("a/0.0", ten());
      for (const [range, expected] of cases) {
        assertBytes(
          await r(store).getRange("a/0.0", range),
          Uint8Array.from(expected),
          `getRange("a/0.0", ${fmt(range)}) of bytes 0..9`,
        );
      }
    });

    add("getRange", "clamps ranges that run past the end", async (store) => {
      await w(store).set("a/0.0", ten());
      for (const [range, expected] of beyond) {
        assertBytes(
          await r(store).getRange("a/0.0", range),
          Uint8Array.from(expected),
          `getRange("a/0.0", ${fmt(range)}) of bytes 0..9`,
        );
      }
    });

    add("getRange", "ranges of an empty value are empty", async (store) => {
      await w(store).set("empty", new Uint8Array(0));
      for (const range of [{ offset: 0, length: 4 }, { offset: 0 }, { suffixLength: 4 }] satisfies ByteRange[]) {
        assertBytes(
          await r(store).getRange("empty", range),
          new Uint8Array(0),
          `getRange("empty", ${fmt(range)}) of a 0-byte value`,
        );
      }
    });

    add("getRange", "reads the middle of 1 MiB", async (store) => {
      const big = pattern(1 << 20, 11);
      await w(store).set("big", big);
      const range = { offset: 300_001, length: 65_537 };
      assertBytes(
        await r(store).getRange("big", range),
        big.slice(300_001, 300_001 + 65_537),
        `getRange("big", ${fmt(range)}) of 1 MiB`,
      );
      assertBytes(
        await r(store).getRange("big", { suffixLength: 3 }),
        big.slice(-3),
        `getRange("big", { suffixLength: 3 }) of 1 MiB`,
      );
    });
  }

  const tree = ["a/b/c", "a/b/d/e", "a/bc", "a/.zattrs", "ab", "z", ".zgroup"];
  const seed = async (store: Store): Promise<void> => {
    for (const key of tree) await w(store).set(key, utf8(key));
  };

  if (listable && writable) {
    add("list", "an empty store lists nothing", async (store) => {
      assertStrings(await l(store).list(), [], "list() of a fresh store");
      assertStrings(await l(store).list("a/"), [], `list("a/") of a fresh store`);
    });

    add("list", "lists every key with no prefix or an empty one", async (store) => {
      await seed(store);
      assertStrings(await l(store).list(), tree, "list()");
      assertStrings(await l(store).list(""), tree, `list("")`);
    });

    add("list", "lists exactly the keys starting with the prefix", async (store) => {
      await seed(store);
      assertStrings(await l(store).list("a/"), ["a/b/c", "a/b/d/e", "a/bc", "a/.zattrs"], `list("a/")`);
      assertStrings(await l(store).list("a/b/"), ["a/b/c", "a/b/d/e"], `list("a/b/")`);
      assertStrings(await l(store).list("a/b/d/"), ["a/b/d/e"], `list("a/b/d/")`);
      assertStrings(await l(store).list("nope/"), [], `list("nope/")`);
    });

    add("list", "matches prefixes as plain strings", async (store) => {
      await seed(store);
      assertStrings(await l(store).list("a/b"), ["a/b/c", "a/b/d/e", "a/bc"], `list("a/b")`);
      assertStrings(await l(store).list("a"), ["a/b/c", "a/b/d/e", "a/bc", "a/.zattrs", "ab"], `list("a")`);
      assertStrings(await l(store).list("."), [".zgroup"], `list(".")`);
    });

    add("list", "a deleted key is no longer listed", async (store) => {
      await seed(store);
      await w(store).delete("a/b/d/e");
      assertStrings(await l(store).list("a/b/"), ["a/b/c"], `list("a/b/") after deleting a/b/d/e`);
    });
  }

  if (listDir && writable) {
    const dir = (store: Store, prefix: string): Promise<DirectoryListing> => {
      if (typeof store.listDir !== "function")
        fail("store.listDir is missing; pass { listDir: false } if the store cannot list directories");
      return store.listDir(prefix);
    };

    add("listDir", "lists the direct children of the root", async (store) => {
      await seed(store);
      assertListing(await dir(store, ""), { keys: ["ab", "z", ".zgroup"], prefixes: ["a"] }, `listDir("")`);
    });

    add("listDir", "lists the direct children of a prefix, relative to it", async (store) => {
      await seed(store);
      assertListing(await dir(store, "a/"), { keys: ["bc", ".zattrs"], prefixes: ["b"] }, `listDir("a/")`);
      assertListing(await dir(store, "a/b/"), { keys: ["c"], prefixes: ["d"] }, `listDir("a/b/")`);
      assertListing(await dir(store, "a/b/d/"), { keys: ["e"], prefixes: [] }, `listDir("a/b/d/")`);
    });

    add("listDir", "a missing prefix is empty", async (store) => {
      assertListing(await dir(store, ""), { keys: [], prefixes: [] }, `listDir("") of a fresh store`);
      await seed(store);
      assertListing(await dir(store, "nope/"), { keys: [], prefixes: [] }, `listDir("nope/")`);
    });
  }

  if (options.refusesUnsafeKeys) {
    const unsafe = ["../x", "a/../../x", "..", ".", "a/./b", "/abs", "/", "a\\b", "..\\x", "a//b", "a/", ""];
    add("unsafe keys", "get refuses keys that could escape the root", async (store) => {
      for (const key of unsafe) await assertRefused(() => store.get(key), `get(${q(key)})`);
    });
    if (writable) {
      add("unsafe keys", "set and delete refuse keys that could escape the root", async (store) => {
        for (const key of unsafe) {
          await assertRefused(() => w(store).set(key, utf8("x")), `set(${q(key)})`);
          await assertRefused(() => w(store).delete(key), `delete(${q(key)})`);
        }
      });
    }
    if (ranges) {
      add("unsafe keys", "getRange refuses keys that could escape the root", async (store) => {
        for (const key of unsafe)
          await assertRefused(() => r(store).getRange(key, { offset: 0 }), `getRange(${q(key)})`);
      });
    }
    if (listable) {
      add("unsafe keys", "list refuses prefixes that could escape the root", async (store) => {
        for (const prefix of ["../", "../x", "a/../../", "/abs/", "a\\b/"]) {
          await assertRefused(() => l(store).list(prefix), `list(${q(prefix)})`);
        }
      });
    }
    if (listDir) {
      add("unsafe keys", "listDir refuses prefixes that could escape the root", async (store) => {
        for (const prefix of ["../", "a/../../", "/abs/", "a\\b/", "a//"]) {
          await assertRefused(
            async () => {
              if (typeof store.listDir !== "function") fail("store.listDir is missing");
              return store.listDir(prefix);
            },
            `listDir(${q(prefix)})`,
          );
        }
      });
    }
  }

  return checks;
}

// -- capability guards ---------------------------------------------------------------------------

function w(store: Store): Required<Pick<Store, "set" | "delete">> {
  if (typeof store.set !== "function" || typeof store.delete !== "function") {
    fail("store.set or store.delete is missing; pass { writable: false } if the store is read-only");
  }
  return store as Required<Pick<Store, "set" | "delete">>;
}

function r(store: Store): Required<Pick<Store, "getRange">> {
  if (typeof store.getRange !== "function")
    fail("store.getRange is missing; pass { ranges: false } if the store cannot read ranges");
  return store as Required<Pick<Store, "getRange">>;
}

function l(store: Store): Required<Pick<Store, "list">> {
  if (typeof store.list !== "function")
    fail("store.list is missing; pass { listable: false } if the store cannot list keys");
  return store as Required<Pick<Store, "list">>;
}

// -- assertions ----------------------------------------------------------------------------------

function fail(message: string): never {
  throw new StoreContractError(message);
}

function assertUndefined(actual: unknown, what: string): void {
  if (actual !== undefined)
    fail(`${what}: expected undefined, got ${actual instanceof Uint8Array ? describeBytes(actual) : String(actual)}`);
}

function assertBytes(actual: unknown, expected: Uint8Array, what: string): void {
  if (actual === undefined) fail(`${what}: expected ${describeBytes(expected)}, got undefined`);
  if (!(actual instanceof Uint8Array))
    fail(`${what}: expected a Uint8Array, got ${Object.prototype.toString.call(actual)}`);
  if (actual.length !== expected.length) {
    fail(`${what}: expected ${describeBytes(expected)}, got ${describeBytes(actual)}`);
  }
  for (let i = 0; i < expected.length; i++) {
    if (actual[i] !== expected[i]) {
      fail(
        `${what}: bytes differ first at index ${i} (expected ${expected[i]}, got ${actual[i]}); expected ${describeBytes(expected)}, got ${describeBytes(actual)}`,
      );
    }
  }
}

function assertStrings(actual: unknown, expected: readonly string[], what: string): void {
  if (!Array.isArray(actual) || actual.some((item) => typeof item !== "string")) {
    fail(`${what}: expected an array of strings, got ${JSON.stringify(actual)}`);
  }
  const duplicates = actual.filter((item, i) => actual.indexOf(item) !== i);
  if (duplicates.length > 0) fail(`${what}: lists ${JSON.stringify(duplicates)} more than once`);
  const got = [...(actual as string[])].sort();
  const want = [...expected].sort();
  const missing = want.filter((item) => !got.includes(item));
  const extra = got.filter((item) => !want.includes(item));
  if (missing.length > 0 || extra.length > 0) {
    fail(
      `${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}` +
        (missing.length > 0 ? `; missing ${JSON.stringify(missing)}` : "") +
        (extra.length > 0 ? `; unexpected ${JSON.stringify(extra)}` : ""),
    );
  }
}

function assertListing(actual: unknown, expected: DirectoryListing, what: string): void {
  if (typeof actual !== "object" || actual === null)
    fail(`${what}: expected { keys, prefixes }, got ${String(actual)}`);
  const listing = actual as Partial<DirectoryListing>;
  assertStrings(listing.keys, expected.keys, `${what}.keys`);
  assertStrings(listing.prefixes, expected.prefixes, `${what}.prefixes`);
}

async function assertRefused(action: () => Promise<unknown>, what: string): Promise<void> {
  let result: unknown;
  try {
    result = await action();
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === "ZARR_STORE") return;
    fail(`${what}: expected a StoreError (code "ZARR_STORE"), got ${describeError(err)}`);
  }
  fail(
    `${what}: expected a StoreError (code "ZARR_STORE") refusing the key, but it succeeded with ${result instanceof Uint8Array ? describeBytes(result) : JSON.stringify(result)}`,
  );
}

// -- values and formatting -----------------------------------------------------------------------

function allByteValues(): Uint8Array {
  const value = new Uint8Array(256);
  for (let i = 0; i < 256; i++) value[i] = i;
  return value;
}

/** Deterministic bytes that differ between `seed`s and do not repeat with a short period. */
function pattern(length: number, seed: number): Uint8Array {
  const value = new Uint8Array(length);
  let state = (seed * 2654435761 + 1) >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    value[i] = state >>> 24;
  }
  return value;
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function q(key: string): string {
  return JSON.stringify(key);
}

function fmt(range: ByteRange): string {
  return JSON.stringify(range)
    .replaceAll('"', "")
    .replaceAll(":", ": ")
    .replaceAll(",", ", ")
    .replace("{", "{ ")
    .replace("}", " }");
}

function describeBytes(value: Uint8Array): string {
  const head = Array.from(value.subarray(0, 16)).join(", ");
  return `${value.length} bytes [${head}${value.length > 16 ? ", …" : ""}]`;
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return `${err.name}${code === undefined ? "" : ` (code ${JSON.stringify(code)})`}: ${err.message}`;
  }
  return String(err);
}
