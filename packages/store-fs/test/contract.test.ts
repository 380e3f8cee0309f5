import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeStoreContract } from "@z/meta/testing";
import { DirectoryStore, NestedDirectoryStore, TempStore } from "@z/store-fs";

// Each check gets a store in a fresh directory, removed afterwards.
const freshDir = () => mkdtemp(join(tmpdir(), "z-store-fs-"));
const removeRoot = (store: DirectoryStore) => rm(store.root, { recursive: true, force: true });

describeStoreContract(
  "DirectoryStore",
  async () => new DirectoryStore(await freshDir()),
  { describe, it },
  { refusesUnsafeKeys: true, dispose: removeRoot },
);

// A root that does not exist yet: the first set creates it, reads before that find nothing.
describeStoreContract(
  "DirectoryStore with a root not yet created",
  async () => new DirectoryStore(join(await freshDir(), "not", "yet")),
  { describe, it },
  { refusesUnsafeKeys: true, dispose: (store) => rm(join(store.root, "..", ".."), { recursive: true, force: true }) },
);

describeStoreContract(
  "DirectoryStore with fsync",
  async () => new DirectoryStore(await freshDir(), { fsync: true }),
  { describe, it },
  { dispose: removeRoot },
);

describeStoreContract(
  "NestedDirectoryStore",
  async () => new NestedDirectoryStore(await freshDir()),
  { describe, it },
  { refusesUnsafeKeys: true, dispose: removeRoot },
);

describeStoreContract(
  "TempStore",
  () => new TempStore(),
  { describe, it },
  { refusesUnsafeKeys: true, dispose: (store) => store.close() },
);
