import { stat } from "node:fs/promises";
import type { Store } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { UsageError } from "./command.js";

/** The store a STORE argument names. Directories for now; zip files and URLs come with their stores. */
export async function openStore(location: string): Promise<Store> {
  const info = await stat(location).catch(() => undefined);
  if (info === undefined) throw new UsageError(`no such store: ${location}`);
  if (!info.isDirectory()) throw new UsageError(`${location} is not a directory store`);
  return new DirectoryStore(location);
}
