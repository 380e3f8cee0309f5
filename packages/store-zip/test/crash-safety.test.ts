// What a crash part way through appending leaves in a source that writes in place: every state
// the source passes through, including each write cut short, is replayed and opened. It must be
// the archive as it was or as it is after the commit, never a broken one, never a mix.
import { describe, expect, it } from "vitest";
import { MemoryFile, ZipStore, type WritableByteSource } from "@z/store-zip";
import { fixture, sameBytes, utf8 } from "./helpers.js";

type Operation =
  | { kind: "write"; offset: number; data: Uint8Array }
  | { kind: "truncate"; size: number }
  | { kind: "sync" };

/**
 * A file written in place, as a file handle is (not atomic), that records every change made to
 * it, so that the states a crash could leave can be rebuilt.
 */
class RecordingFile implements WritableByteSource {
  readonly operations: Operation[] = [];
  readonly #file: MemoryFile;

  constructor(initial: Uint8Array) {
    this.#file = new MemoryFile(initial);
  }

  size(): Promise<number> {
    return this.#file.size();
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    return this.#file.read(offset, length);
  }

  async write(offset: number, data: Uint8Array): Promise<void> {
    this.operations.push({ kind: "write", offset, data: data.slice() });
    await this.#file.write(offset, data);
  }

  async truncate(size: number): Promise<void> {
    this.operations.push({ kind: "truncate", size });
    await this.#file.truncate(size);
  }

  async sync(): Promise<void> {
    this.operations.push({ kind: "sync" });
  }

  bytes(): Uint8Array {
    return this.#file.bytes();
  }
}

/**
 * Every state a crash can leave `initial` in while `operations` run: after each whole operation,
 * and in the middle of each write (a kill lands between the pages of a large write; a power
 * failure may keep any part of it), here cut after its first byte, half way and one byte short.
 */
async function* crashStates(
  initial: Uint8Array,
  operations: readonly Operation[],
): AsyncGenerator<{ bytes: Uint8Array; at: string }> {
  const file = new MemoryFile(initial);
  yield { bytes: file.bytes(), at: "before the first write" };
  for (const [index, op] of operations.entries()) {
    if (op.kind === "write") {
      for (const cut of new Set([1, op.data.length >> 1, op.data.length - 1])) {
        if (cut <= 0 || cut >= op.data.length) continue;
        const partial = new MemoryFile(file.bytes());
        await partial.write(op.offset, op.data.subarray(0, cut));
        yield {
          bytes: partial.bytes(),
          at: `operation ${index} (a write of ${op.data.length} bytes at ${op.offset}) cut after ${cut} bytes`,
        };
      }
      await file.write(op.offset, op.data);
    } else if (op.kind === "truncate") {
      await file.truncate(op.size);
    }
    yield { bytes: file.bytes(), at: `after operation ${index} (${op.kind})` };
  }
}

/** Every key of the archive in `bytes` and its value, or the error opening or reading it gives. */
async function contents(bytes: Uint8Array): Promise<Map<string, Uint8Array> | Error> {
  try {
    const store = await ZipStore.open(bytes);
    const out = new Map<string, Uint8Array>();
    for (const key of await store.list()) out.set(key, (await store.get(key))!);
    return out;
  } catch (err) {
    return err as Error;
  }
}

function same(a: Map<string, Uint8Array> | Error, b: Map<string, Uint8Array>): boolean {
  return !(a instanceof Error) && a.size === b.size && [...b].every(([key, value]) => sameBytes(a.get(key), value));
}

/**
 * Runs `session` on a recording copy of `initial` and checks every state a crash could leave:
 * the old archive or the new one. Returns how many states were checked.
 */
async function checkSession(
  initial: Uint8Array,
  session: (store: ZipStore) => Promise<void>,
  options: { forceZip64?: boolean; unfound?: (err: Error) => void } = {},
): Promise<number> {
  const before = await contents(initial);
  if (before instanceof Error) throw before;
  const file = new RecordingFile(initial);
  const store = await ZipStore.open(file, { mode: "a", forceZip64: options.forceZip64 });
  await session(store);
  await store.close();
  const after = await contents(file.bytes());
  if (after instanceof Error) throw after;
  expect(same(after, before)).toBe(false); // the session changed something
  let states = 0;
  for await (const { bytes, at } of crashStates(initial, file.operations)) {
    const found = await contents(bytes);
    if (found instanceof Error && options.unfound !== undefined) options.unfound(found);
    else if (!same(found, before) && !same(found, after)) {
      expect.fail(
        `a crash ${at} leaves neither the old archive nor the new one: ${found instanceof Error ? found.message : `keys ${[...found.keys()].join(", ")}`}`,
      );
    }
    states++;
  }
  return states;
}

const chunk = (seed: number, length: number): Uint8Array =>
  Uint8Array.from({ length }, (_, i) => (i * 31 + seed * 7 + (i >> 8)) % 251);

describe("a crash while appending to an archive in a source written in place", () => {
  it("leaves the old archive or the new one: entries added and replaced in zarr-python's archive", async () => {
    const states = await checkSession(fixture("zarr-stored"), async (store) => {
      await store.set("foo/bar/0/0", chunk(1, 24));
      await store.set("extra/.zgroup", utf8('{"zarr_format": 2}'));
      await store.set("extra/0", chunk(2, 20_000));
    });
    expect(states).toBeGreaterThan(10);
  });

  it("leaves the old archive or the new one: a delete only, so just a new directory is written", async () => {
    await checkSession(fixture("zarr-stored"), async (store) => {
      await store.delete("baz/0");
    });
  });

  it("leaves the old archive or the new one with zip64 end records, an archive comment, bytes before the archive", async () => {
    await checkSession(fixture("zip64-forced"), async (store) => void (await store.set("new", chunk(3, 5000))), {
      forceZip64: true,
    });
    await checkSession(fixture("odd"), async (store) => void (await store.set("new", chunk(4, 5000))));
    await checkSession(fixture("prefixed"), async (store) => void (await store.set("x/0", chunk(5, 5000))));
  });

  it("leaves the old archive or the new one after a crash cut an earlier append short", async () => {
    // What a crash left: the old archive, then part of an entry and of a directory.
    const initial = fixture("zarr-stored");
    const crashed = new Uint8Array(initial.length + 3000);
    crashed.set(initial);
    crashed.set(chunk(6, 3000), initial.length);
    crashed.set(utf8("PK\x01\x02 half a directory record"), initial.length + 2000);
    const store = await ZipStore.open(crashed);
    expect(await store.list()).toEqual(await (await ZipStore.open(initial)).list());
    await checkSession(crashed, async (store) => void (await store.set("after", chunk(7, 100))));
  });

  it("commits with a sync between the new records and the end record's signature, and after it", async () => {
    const file = new RecordingFile(fixture("zarr-stored"));
    const store = await ZipStore.open(file);
    await store.set("k", utf8("v"));
    await store.close();
    const kinds = file.operations.map((op) => (op.kind === "write" ? `write ${op.data.length}` : op.kind));
    // The entry, the directory and end record with the signature's first byte zero, then that byte.
    expect(kinds).toEqual(["write 32", expect.stringMatching(/^write \d+$/), "sync", "write 1", "truncate", "sync"]);
    const [entry, directory, , signature] = file.operations as [
      Operation & { offset: number },
      Operation & { offset: number; data: Uint8Array },
      Operation,
      Operation & { offset: number; data: Uint8Array },
    ];
    expect(entry.offset).toBe(fixture("zarr-stored").length); // after the old end record
    expect(signature.data).toEqual(Uint8Array.from([0x50]));
    expect(signature.offset).toBe(directory.offset + directory.data.length - 22);
    expect(directory.data[directory.data.length - 22]).toBe(0);
  });

  it("a source that is atomic (a copy renamed over the file) gets the new entries over the old directory", async () => {
    const initial = fixture("zarr-stored");
    const old = await ZipStore.open(initial);
    const file = new MemoryFile(initial);
    expect(file.atomic).toBe(true);
    const store = await ZipStore.open(file);
    await store.set("k", utf8("v"));
    // zarr-stored.zip has no comment and no zip64 records: its directory's offset is in the end record.
    const centralStart = new DataView(initial.buffer, initial.byteOffset).getUint32(initial.length - 22 + 16, true);
    expect(store.info("k")?.offset).toBe(centralStart);
    await store.close();
    // One entry of 32 bytes and its 47-byte directory record more; no old directory left behind.
    expect(await file.size()).toBe(initial.length + 32 + 47);
    expect((await (await ZipStore.open(file.bytes())).list()).sort()).toEqual([...(await old.list()), "k"].sort());
  });

  it("more than 64 KiB after the old end record hides it from readers until the commit: an error then, never wrong data", async () => {
    let unfound = 0;
    await checkSession(
      fixture("zarr-stored"),
      async (store) => {
        await store.set("big/0", chunk(8, 50_000));
        await store.set("big/1", chunk(9, 50_000));
      },
      {
        unfound: (err) => {
          expect(err.message).toContain("not a zip archive (no end of central directory record in its last bytes)");
          unfound++;
        },
      },
    );
    expect(unfound).toBeGreaterThan(0);
  });
});
