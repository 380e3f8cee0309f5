import {
  encodeGroupMetadata,
  isListable,
  isWritable,
  joinPath,
  keyPrefix,
  normalizeStoragePath,
  parseGroupMetadata,
  type Store,
} from "@z/meta";
import { ZarrArray, type ArrayOpenOptions } from "./array.js";
import { Attributes } from "./attributes.js";
import { create, openArray, type CreateOptions, type OpenMode } from "./create.js";
import { ArgumentError, NodeExistsError, NodeNotFoundError, ReadOnlyError } from "./errors.js";
import { containsArray, containsGroup, prepareNewNode } from "./hierarchy.js";
import { arrayMetaKey, attrsKey, groupMetaKey } from "./keys.js";
import { MemoryStore } from "./memory-store.js";

export interface GroupOptions {
  store?: Store;
  path?: string;
  overwrite?: boolean;
  readOnly?: boolean;
  signal?: AbortSignal;
}

/** A Zarr v2 group: a `.zgroup` document under a path, with arrays and groups below it. */
export class Group {
  readonly attrs: Attributes;

  private constructor(
    readonly store: Store,
    readonly path: string,
    readonly readOnly: boolean,
  ) {
    this.attrs = new Attributes(store, attrsKey(path), readOnly);
  }

  /** Opens the group at `path` (normalized), checking its `.zgroup`. */
  static async open(store: Store, path: string, options: { readOnly?: boolean; signal?: AbortSignal } = {}): Promise<Group> {
    const key = groupMetaKey(path);
    const bytes = await store.get(key, { signal: options.signal });
    if (bytes === undefined) throw new NodeNotFoundError("group", path, { key });
    parseGroupMetadata(bytes, key);
    return new Group(store, path, options.readOnly ?? false);
  }

  /** The h5py-style name: `/` for the root, `/foo/bar` below it. */
  get name(): string {
    return `/${this.path}`;
  }

  /** Creates a group below this one (with any missing groups between). */
  async createGroup(name: string, options: { overwrite?: boolean } = {}): Promise<Group> {
    this.#checkWritable();
    return group({ store: this.store, path: this.#child(name), overwrite: options.overwrite ?? false, ...options, readOnly: false });
  }

  /** The group `name` below this one, created if it does not exist. */
  async requireGroup(name: string): Promise<Group> {
    const path = this.#child(name);
    if (await containsGroup(this.store, path)) return Group.open(this.store, path, { readOnly: this.readOnly });
    return this.createGroup(name);
  }

  /** Creates an array below this group, as zarr-python's `create_dataset`. */
  async createDataset(name: string, options: Omit<CreateOptions, "store" | "path">): Promise<ZarrArray> {
    this.#checkWritable();
    return create({ ...options, store: this.store, path: this.#child(name) });
  }

  /** The array or group at `name` (a relative path, may contain `/`). */
  async getItem(name: string, options: ArrayOpenOptions = {}): Promise<ZarrArray | Group> {
    const path = this.#child(name);
    if (await containsArray(this.store, path)) return ZarrArray.open(this.store, path, { readOnly: this.readOnly, ...options });
    if (await containsGroup(this.store, path)) return Group.open(this.store, path, { readOnly: this.readOnly });
    throw new NodeNotFoundError("array or group", path, { key: arrayMetaKey(path) });
  }

  async contains(name: string): Promise<boolean> {
    const path = this.#child(name);
    return (await containsArray(this.store, path)) || (await containsGroup(this.store, path));
  }

  /** Names of the direct child groups, sorted. */
  async groupKeys(): Promise<string[]> {
    const names = await this.#childNames();
    const flags = await Promise.all(names.map((n) => containsGroup(this.store, joinPath(this.path, n))));
    return names.filter((_, i) => flags[i]);
  }

  /** Names of the direct child arrays, sorted. */
  async arrayKeys(): Promise<string[]> {
    const names = await this.#childNames();
    const flags = await Promise.all(names.map((n) => containsArray(this.store, joinPath(this.path, n))));
    return names.filter((_, i) => flags[i]);
  }

  /** Sorted names of the sub-directories under this group, where members live. */
  async #childNames(): Promise<string[]> {
    const prefix = keyPrefix(this.path);
    if (typeof this.store.listDir === "function") return (await this.store.listDir(prefix)).prefixes.sort();
    if (!isListable(this.store)) throw new ArgumentError("the store cannot list its keys");
    const names = new Set<string>();
    for (const key of await this.store.list(prefix)) {
      const slash = key.indexOf("/", prefix.length);
      if (slash !== -1) names.add(key.slice(prefix.length, slash));
    }
    return [...names].sort();
  }

  #child(name: string): string {
    const child = normalizeStoragePath(name);
    if (child === "") throw new ArgumentError("a member name must not be empty");
    return joinPath(this.path, child);
  }

  #checkWritable(): void {
    if (this.readOnly || !isWritable(this.store)) throw new ReadOnlyError(`group ${JSON.stringify(this.path)}`);
  }
}

/** Creates a group (and its ancestors) unless one exists, as zarr-python's `zarr.group`. */
export async function group(options: GroupOptions = {}): Promise<Group> {
  const store = options.store ?? new MemoryStore();
  const path = normalizeStoragePath(options.path);
  if (options.overwrite || !(await containsGroup(store, path, options.signal))) {
    await initGroup(store, path, options.overwrite ?? false, options.signal);
  }
  return Group.open(store, path, options);
}

async function initGroup(store: Store, path: string, overwrite: boolean, signal?: AbortSignal): Promise<void> {
  if (!isWritable(store)) throw new ReadOnlyError("the store");
  await prepareNewNode(store, path, overwrite, signal);
  await store.set(groupMetaKey(path), encodeGroupMetadata(), { signal });
}

/** Opens (or, depending on `mode`, creates) a group, as zarr-python's `open_group` (default mode `a`). */
export async function openGroup(store: Store, options: { mode?: OpenMode; path?: string; signal?: AbortSignal } = {}): Promise<Group> {
  const mode = options.mode ?? "a";
  const path = normalizeStoragePath(options.path);
  const { signal } = options;
  const isArray = (): Promise<boolean> => containsArray(store, path, signal);
  const isGroup = (): Promise<boolean> => containsGroup(store, path, signal);
  switch (mode) {
    case "r":
    case "r+":
      if (!(await isGroup())) {
        if (await isArray()) throw new NodeExistsError("array", path, { key: arrayMetaKey(path) });
        throw new NodeNotFoundError("group", path, { key: groupMetaKey(path) });
      }
      return Group.open(store, path, { readOnly: mode === "r", signal });
    case "a":
      if (!(await isGroup())) {
        if (await isArray()) throw new NodeExistsError("array", path, { key: arrayMetaKey(path) });
        await initGroup(store, path, false, signal);
      }
      return Group.open(store, path, { signal });
    case "w":
      await initGroup(store, path, true, signal);
      return Group.open(store, path, { signal });
    case "w-":
    case "x":
      await initGroup(store, path, false, signal);
      return Group.open(store, path, { signal });
    default:
      throw new ArgumentError(`mode must be one of r, r+, a, w, w-, x; got ${JSON.stringify(mode)}`);
  }
}

/** Opens whatever is at `path`: an array if there is one, otherwise a group, as zarr-python's `zarr.open`. */
export async function open(store: Store, options: { mode?: OpenMode; path?: string } & Partial<CreateOptions> = {}): Promise<ZarrArray | Group> {
  const path = normalizeStoragePath(options.path);
  const mode = options.mode ?? "a";
  if (mode === "r" || mode === "r+" || mode === "a") {
    if (await containsArray(store, path)) return openArray(store, { ...options, mode });
    if (await containsGroup(store, path)) return openGroup(store, { mode, path });
    if (mode !== "a") throw new NodeNotFoundError("array or group", path, { key: groupMetaKey(path) });
  }
  return options.shape === undefined ? openGroup(store, { mode, path }) : openArray(store, { ...options, mode });
}
