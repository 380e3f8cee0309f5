import {
  isListable,
  isWritable,
  joinPath,
  keyPrefix,
  normalizeStoragePath,
  parseGroupMetadata,
  type Store,
  type WritableStore,
} from "@z/meta";
import { ZarrArray, type ArrayOpenOptions } from "./array.js";
import { Attributes, type AttributesDocument } from "./attributes.js";
import { canCastSafely } from "./can-cast.js";
import {
  array as createArrayFrom,
  create,
  empty,
  emptyLike,
  full,
  fullLike,
  ones,
  onesLike,
  resolveDataType,
  zeros,
  zerosLike,
  type CreateOptions,
} from "./create.js";
import { openArray, type OpenMode } from "./open-array.js";
import { ArgumentError, NodeExistsError, NodeNotFoundError, ReadOnlyError, ValueError } from "./errors.js";
import { containsArray, containsGroup } from "./node-kinds.js";
import { movePrefix, groupDocument, prepareNewNode, removeSubtree, requireParentGroups } from "./hierarchy.js";
import type { NdArrayLike } from "./nd-array.js";
import type { TypedArray } from "@z/meta";
import { drawTree, type TreeNode } from "./tree.js";
import { arrayMetaKey, attrsKey, groupMetaKey, zarrJsonKey } from "./keys.js";
import { MemoryStore } from "@z/meta";

/** Options for arrays created inside a group: everything but where they go. */
export type MemberOptions = Omit<CreateOptions, "store" | "path">;

/** What `visit*` callbacks return: anything but `undefined` stops the walk and is returned. */
export type VisitResult<T> = T | undefined | Promise<T | undefined>;

export interface GroupOptions {
  store?: Store;
  path?: string;
  overwrite?: boolean;
  readOnly?: boolean;
  /**
   * The format of a group this creates (default 2): 3 writes a `zarr.json`. Opening finds either;
   * given, it insists on that one.
   */
  zarrFormat?: 2 | 3;
  signal?: AbortSignal;
}

/**
 * A Zarr group: a `.zgroup` (v2) or a `zarr.json` of `node_type` `group` (v3) under a path, with
 * arrays and groups below it. Arrays and groups created in it have its format unless told otherwise.
 */
export class Group {
  readonly attrs: Attributes;

  private constructor(
    readonly store: Store,
    readonly path: string,
    readonly readOnly: boolean,
    /** 3 for a `zarr.json` group, 2 for a `.zgroup`. */
    readonly zarrFormat: 2 | 3,
    attributes?: AttributesDocument,
  ) {
    const key = zarrFormat === 3 ? zarrJsonKey(path) : attrsKey(path);
    this.attrs = new Attributes(store, key, readOnly, undefined, attributes);
  }

  /**
   * Opens the group at `path` (normalized), checking its `zarr.json` or `.zgroup` (both asked at
   * once; where both are, v3's, as zarr-python 3 reads them).
   */
  static async open(
    store: Store,
    path: string,
    options: { readOnly?: boolean; signal?: AbortSignal; zarrFormat?: 2 | 3 } = {},
  ): Promise<Group> {
    const { signal, zarrFormat } = options;
    const key = groupMetaKey(path);
    const [v3, bytes] = await Promise.all([
      zarrFormat === 2 ? undefined : store.get(zarrJsonKey(path), { signal }),
      zarrFormat === 3 ? undefined : store.get(key, { signal }),
    ]);
    if (v3 !== undefined) {
      const { attributesV3, isGroupV3 } = await import("./node-v3.js");
      if (!isGroupV3(v3, zarrJsonKey(path))) throw new NodeNotFoundError("group", path, { key: zarrJsonKey(path) });
      return new Group(store, path, options.readOnly ?? false, 3, attributesV3);
    }
    if (bytes === undefined)
      throw new NodeNotFoundError("group", path, { key: zarrFormat === 3 ? zarrJsonKey(path) : key });
    parseGroupMetadata(bytes, key);
    return new Group(store, path, options.readOnly ?? false, 2);
  }

  /** The h5py-style name: `/` for the root, `/foo/bar` below it. */
  get name(): string {
    return `/${this.path}`;
  }

  /** Creates a group below this one (with any missing groups between). */
  async createGroup(name: string, options: { overwrite?: boolean; zarrFormat?: 2 | 3 } = {}): Promise<Group> {
    this.#checkWritable();
    return group({
      store: this.store,
      path: this.#child(name),
      overwrite: options.overwrite ?? false,
      zarrFormat: this.zarrFormat,
      ...options,
      readOnly: false,
    });
  }

  /** The group `name` below this one, created if it does not exist. */
  async requireGroup(name: string): Promise<Group> {
    const path = this.#child(name);
    return (await existingGroup(this.store, path, { readOnly: this.readOnly })) ?? this.createGroup(name);
  }

  /** Creates each group in `names` (see `createGroup`). */
  async createGroups(...names: string[]): Promise<Group[]> {
    const groups: Group[] = [];
    for (const name of names) groups.push(await this.createGroup(name));
    return groups;
  }

  /** Each group in `names`, created where missing (see `requireGroup`). */
  async requireGroups(...names: string[]): Promise<Group[]> {
    const groups: Group[] = [];
    for (const name of names) groups.push(await this.requireGroup(name));
    return groups;
  }

  /** Creates an array below this group, as zarr-python's `create_dataset`. */
  async createDataset(name: string, options: MemberOptions): Promise<ZarrArray> {
    this.#checkWritable();
    return create({ zarrFormat: this.zarrFormat, ...options, store: this.store, path: this.#child(name) });
  }

  /**
   * The array `name`, created if missing. An existing array must have the same shape and a dtype
   * the requested one casts to safely (or, with `exact`, the same dtype), as zarr-python checks.
   */
  async requireDataset(name: string, options: MemberOptions & { exact?: boolean }): Promise<ZarrArray> {
    const path = this.#child(name);
    if (!(await containsArray(this.store, path))) {
      if (await containsGroup(this.store, path)) throw new NodeExistsError("group", path);
      return this.createDataset(name, options);
    }
    const existing = await ZarrArray.open(this.store, path, { readOnly: this.readOnly, ...options });
    const shape = typeof options.shape === "number" ? [options.shape] : options.shape;
    if (shape.length !== existing.ndim || shape.some((s, i) => s !== existing.shape[i])) {
      throw new ValueError(
        `shape does not match the existing array ${path}: expected [${existing.shape.join(", ")}], got [${shape.join(", ")}]`,
      );
    }
    if (options.dtype !== undefined) {
      const wanted = resolveDataType(options.dtype);
      const ok = options.exact
        ? canCastSafely(wanted, existing.dtype) && canCastSafely(existing.dtype, wanted)
        : canCastSafely(wanted, existing.dtype);
      if (!ok) {
        throw new ValueError(`dtype does not match the existing array ${path}${options.exact ? " exactly" : ""}`);
      }
    }
    return existing;
  }

  /** Shorthands for creating member arrays, as zarr-python's `Group.zeros(name, ...)` and friends. */
  create(name: string, options: MemberOptions): Promise<ZarrArray> {
    return this.createDataset(name, options);
  }
  empty(name: string, options: Omit<MemberOptions, "fillValue">): Promise<ZarrArray> {
    return this.#member(name, (o) => empty(o), options);
  }
  zeros(name: string, options: Omit<MemberOptions, "fillValue">): Promise<ZarrArray> {
    return this.#member(name, (o) => zeros(o), options);
  }
  ones(name: string, options: Omit<MemberOptions, "fillValue">): Promise<ZarrArray> {
    return this.#member(name, (o) => ones(o), options);
  }
  full(name: string, options: MemberOptions & { fillValue: unknown }): Promise<ZarrArray> {
    return this.#member(name, (o) => full({ ...o, fillValue: options.fillValue }), options);
  }
  array(name: string, data: NdArrayLike | TypedArray, options: Partial<MemberOptions> = {}): Promise<ZarrArray> {
    this.#checkWritable();
    return createArrayFrom(data, { ...options, store: this.store, path: this.#child(name) });
  }
  emptyLike(name: string, like: ZarrArray, options: Partial<MemberOptions> = {}): Promise<ZarrArray> {
    return this.#like(name, emptyLike, like, options);
  }
  zerosLike(name: string, like: ZarrArray, options: Partial<MemberOptions> = {}): Promise<ZarrArray> {
    return this.#like(name, zerosLike, like, options);
  }
  onesLike(name: string, like: ZarrArray, options: Partial<MemberOptions> = {}): Promise<ZarrArray> {
    return this.#like(name, onesLike, like, options);
  }
  fullLike(name: string, like: ZarrArray, options: Partial<MemberOptions> = {}): Promise<ZarrArray> {
    return this.#like(name, fullLike, like, options);
  }

  #member<O extends object>(
    name: string,
    make: (o: O & { store: Store; path: string }) => Promise<ZarrArray>,
    options: O,
  ): Promise<ZarrArray> {
    this.#checkWritable();
    return make({ ...options, store: this.store, path: this.#child(name) });
  }

  #like(
    name: string,
    make: (a: ZarrArray, o: Partial<CreateOptions>) => Promise<ZarrArray>,
    like: ZarrArray,
    options: Partial<MemberOptions>,
  ): Promise<ZarrArray> {
    this.#checkWritable();
    return make(like, { ...options, store: this.store, path: this.#child(name) });
  }

  /** The array or group at `name` (a relative path, may contain `/`). */
  async getItem(name: string, options: ArrayOpenOptions = {}): Promise<ZarrArray | Group> {
    const path = this.#child(name);
    if (await containsArray(this.store, path))
      return ZarrArray.open(this.store, path, { readOnly: this.readOnly, ...options });
    if (await containsGroup(this.store, path)) return Group.open(this.store, path, { readOnly: this.readOnly });
    throw new NodeNotFoundError("array or group", path, { key: arrayMetaKey(path) });
  }

  /** Writes `data` as a new array `name`, replacing whatever was there (zarr-python's `g[name] = data`). */
  async setItem(
    name: string,
    data: NdArrayLike | TypedArray,
    options: Partial<MemberOptions> = {},
  ): Promise<ZarrArray> {
    return this.array(name, data, { ...options, overwrite: true });
  }

  /** Removes the member `name` and everything below it. */
  async delItem(name: string): Promise<void> {
    this.#checkWritable();
    const path = this.#child(name);
    if (!(await this.contains(name))) throw new NodeNotFoundError("array or group", path);
    await removeSubtree(this.store as WritableStore, path);
  }

  /** True when `name` (a relative path) is an array or a group. */
  async contains(name: string): Promise<boolean> {
    const path = this.#child(name);
    return (await containsArray(this.store, path)) || (await containsGroup(this.store, path));
  }

  /** Names of the direct members (arrays and groups), sorted. */
  async keys(): Promise<string[]> {
    const names = await this.#childNames();
    const flags = await Promise.all(names.map((n) => this.contains(n)));
    return names.filter((_, i) => flags[i]);
  }

  /** Number of direct members. */
  async length(): Promise<number> {
    return (await this.keys()).length;
  }

  /** Names of the direct child groups, sorted. */
  async groupKeys(): Promise<string[]> {
    const names = await this.#childNames();
    const flags = await Promise.all(names.map((n) => containsGroup(this.store, joinPath(this.path, n))));
    return names.filter((_, i) => flags[i]);
  }

  /** The direct child groups as `[name, group]`, sorted by name. */
  async groups(): Promise<[string, Group][]> {
    const names = await this.groupKeys();
    return Promise.all(
      names.map(
        async (n) =>
          [n, await Group.open(this.store, joinPath(this.path, n), { readOnly: this.readOnly })] as [string, Group],
      ),
    );
  }

  /**
   * Names of the child arrays, sorted; with `recurse`, also those of every sub-group, depth first
   * (names only, as zarr-python gives them).
   */
  async arrayKeys(options: { recurse?: boolean } = {}): Promise<string[]> {
    return (await this.#arrayEntries(options.recurse ?? false)).map(([name]) => name);
  }

  /** The child arrays as `[name, array]` (see `arrayKeys`). */
  async arrays(options: { recurse?: boolean } = {}): Promise<[string, ZarrArray][]> {
    const entries = await this.#arrayEntries(options.recurse ?? false);
    return Promise.all(
      entries.map(
        async ([name, path]) =>
          [name, await ZarrArray.open(this.store, path, { readOnly: this.readOnly })] as [string, ZarrArray],
      ),
    );
  }

  async #arrayEntries(recurse: boolean): Promise<[string, string][]> {
    const entries: [string, string][] = [];
    for (const name of await this.#childNames()) {
      const path = joinPath(this.path, name);
      if (await containsArray(this.store, path)) entries.push([name, path]);
      else if (recurse && (await containsGroup(this.store, path))) {
        entries.push(...(await (await Group.open(this.store, path)).#arrayEntries(true)));
      }
    }
    return entries;
  }

  /**
   * Calls `fn` with the path (relative to this group) of every member, depth first in name order,
   * as zarr-python's `visit`; a result other than `undefined` stops the walk and is returned.
   */
  async visit<T>(fn: (path: string) => VisitResult<T>): Promise<T | undefined> {
    return this.visititems((path) => fn(path));
  }

  /** Like `visit`, with the member's name rather than its path. */
  async visitkeys<T>(fn: (name: string) => VisitResult<T>): Promise<T | undefined> {
    return this.visititems((path) => fn(path.split("/").pop()!));
  }

  /** Like `visit`, with the member itself. */
  async visitvalues<T>(fn: (node: ZarrArray | Group) => VisitResult<T>): Promise<T | undefined> {
    return this.visititems((_, node) => fn(node));
  }

  /** Like `visit`, with the path and the member. */
  async visititems<T>(fn: (path: string, node: ZarrArray | Group) => VisitResult<T>): Promise<T | undefined> {
    const walk = async (group: Group, base: string): Promise<T | undefined> => {
      for (const name of await group.keys()) {
        const path = base === "" ? name : `${base}/${name}`;
        const node = await group.getItem(name);
        const result = await fn(path, node);
        if (result !== undefined) return result;
        if (node instanceof Group) {
          const inner = await walk(node, path);
          if (inner !== undefined) return inner;
        }
      }
      return undefined;
    };
    return walk(this, "");
  }

  /** The hierarchy below this group drawn as text, as zarr-python's `tree()`; `level` limits the depth. */
  async tree(options: { level?: number } = {}): Promise<string> {
    const build = async (group: Group, name: string, depth: number): Promise<TreeNode> => {
      if (options.level !== undefined && depth >= options.level) return { name, children: [] };
      const children: TreeNode[] = [];
      for (const key of await group.keys()) {
        const node = await group.getItem(key);
        children.push(
          node instanceof Group
            ? await build(node, key, depth + 1)
            : { name: key, array: { shape: node.shape, dtype: node.dtype }, children: [] },
        );
      }
      return { name, children };
    };
    return drawTree(await build(this, this.path === "" ? "/" : this.path.split("/").pop()!, 0));
  }

  /**
   * Moves the member `source` to `dest` (paths relative to this group), creating the groups above
   * `dest`. Fails when `source` does not exist or `dest` does.
   */
  async move(source: string, dest: string): Promise<void> {
    this.#checkWritable();
    const from = this.#child(source);
    const to = this.#child(dest);
    if (!(await this.contains(source))) throw new NodeNotFoundError("array or group", from);
    if (await this.contains(dest)) {
      throw new NodeExistsError((await containsArray(this.store, to)) ? "array" : "group", to);
    }
    const store = this.store as WritableStore;
    await requireParentGroups(store, to, false);
    await movePrefix(store, from, to);
  }

  /** A text report like zarr-python's `Group.info`. */
  async info(): Promise<string> {
    const arrays = await this.arrayKeys();
    const groups = await this.groupKeys();
    const items: [string, string][] = [
      ["Name", this.name],
      ["Type", "Group"],
      ["Read-only", this.readOnly ? "True" : "False"],
      ["Store type", this.store.constructor.name],
      ["No. members", String(arrays.length + groups.length)],
      ["No. arrays", String(arrays.length)],
      ["No. groups", String(groups.length)],
    ];
    if (arrays.length > 0) items.push(["Arrays", arrays.join(", ")]);
    if (groups.length > 0) items.push(["Groups", groups.join(", ")]);
    const width = Math.max(...items.map(([k]) => k.length));
    return `${items.map(([k, v]) => `${k.padEnd(width)} : ${v}`).join("\n")}\n`;
  }

  /** The last segment of the path (`""` for the root). */
  get basename(): string {
    return this.path.split("/").pop()!;
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
  if (!options.overwrite) {
    const found = await existingGroup(store, path, options);
    if (found !== undefined) return found;
  }
  await initGroup(store, path, options.overwrite ?? false, options.signal, options.zarrFormat);
  return Group.open(store, path, options);
}

/**
 * The group at `path`, or `undefined` when there is none there (of `zarrFormat`, when given): its
 * documents read once, by opening it, rather than asked for and then read again.
 */
async function existingGroup(
  store: Store,
  path: string,
  options: { readOnly?: boolean; signal?: AbortSignal; zarrFormat?: 2 | 3 },
): Promise<Group | undefined> {
  try {
    return await Group.open(store, path, options);
  } catch (error) {
    if (error instanceof NodeNotFoundError) return undefined;
    throw error;
  }
}

async function initGroup(
  store: Store,
  path: string,
  overwrite: boolean,
  signal?: AbortSignal,
  zarrFormat: 2 | 3 = 2,
): Promise<void> {
  if (!isWritable(store)) throw new ReadOnlyError("the store");
  await prepareNewNode(store, path, overwrite, signal, zarrFormat);
  await store.set(...(await groupDocument(path, zarrFormat)), { signal });
}

/** Opens (or, depending on `mode`, creates) a group, as zarr-python's `open_group` (default mode `a`). */
export async function openGroup(
  store: Store,
  options: { mode?: OpenMode; path?: string; signal?: AbortSignal; zarrFormat?: 2 | 3 } = {},
): Promise<Group> {
  const mode = options.mode ?? "a";
  const path = normalizeStoragePath(options.path);
  const { signal, zarrFormat } = options;
  const isArray = (): Promise<boolean> => containsArray(store, path, signal);
  switch (mode) {
    case "r":
    case "r+": {
      const found = await existingGroup(store, path, { readOnly: mode === "r", signal, zarrFormat });
      if (found !== undefined) return found;
      if (await isArray()) throw new NodeExistsError("array", path, { key: arrayMetaKey(path) });
      throw new NodeNotFoundError("group", path, { key: groupMetaKey(path) });
    }
    case "a": {
      const found = await existingGroup(store, path, { signal, zarrFormat });
      if (found !== undefined) return found;
      if (await isArray()) throw new NodeExistsError("array", path, { key: arrayMetaKey(path) });
      await initGroup(store, path, false, signal, zarrFormat);
      return Group.open(store, path, { signal, zarrFormat });
    }
    case "w":
      await initGroup(store, path, true, signal, zarrFormat);
      return Group.open(store, path, { signal, zarrFormat });
    case "w-":
    case "x":
      await initGroup(store, path, false, signal, zarrFormat);
      return Group.open(store, path, { signal, zarrFormat });
    default:
      throw new ArgumentError(`mode must be one of r, r+, a, w, w-, x; got ${JSON.stringify(mode)}`);
  }
}

/** Opens whatever is at `path`: an array if there is one, otherwise a group, as zarr-python's `zarr.open`. */
export async function open(
  store: Store,
  options: { mode?: OpenMode; path?: string } & Partial<CreateOptions> = {},
): Promise<ZarrArray | Group> {
  const path = normalizeStoragePath(options.path);
  const mode = options.mode ?? "a";
  if (mode === "r" || mode === "r+" || mode === "a") {
    if (await containsArray(store, path)) return openArray(store, { ...options, mode });
    if (await containsGroup(store, path)) return openGroup(store, { mode, path });
    if (mode !== "a") throw new NodeNotFoundError("array or group", path, { key: groupMetaKey(path) });
  }
  return options.shape === undefined
    ? openGroup(store, { mode, path, zarrFormat: options.zarrFormat })
    : openArray(store, { ...options, mode });
}
