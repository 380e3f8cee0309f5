import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeStoreContract } from "@z/meta/testing";
import { ZipStore } from "@z/store-zip";
import { nodeFile } from "./node-helpers.js";

// The store contract on a real file, in Node only (contract.test.ts runs the in-memory ones in
// Chromium too).
const api = { describe, it };
const contract = { refusesUnsafeKeys: true } as const;

// A real file, through a Node file handle (what `@z/store-fs` could provide as a byte source).
const files = new Map<ZipStore, { close(): Promise<void>; dir: string }>();
describeStoreContract(
  "ZipStore on a local file",
  async () => {
    const dir = await mkdtemp(join(tmpdir(), "z-store-zip-"));
    const file = await nodeFile(join(dir, "store.zip"));
    const store = await ZipStore.open(file, { mode: "w" });
    files.set(store, { close: file.close, dir });
    return store;
  },
  api,
  {
    ...contract,
    dispose: async (store) => {
      const entry = files.get(store);
      await store.close();
      await entry?.close();
      if (entry) await rm(entry.dir, { recursive: true, force: true });
    },
  },
);
