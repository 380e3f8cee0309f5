import {
  encodeAttributes,
  isWritable,
  parseAttributes,
  withLock,
  type JsonObject,
  type JsonValue,
  type Store,
  type Synchronizer,
} from "@z/meta";
import { ReadOnlyError } from "./errors.js";

/**
 * How attributes sit in the document at `Attributes.key`: v2's `.zattrs` is the attributes
 * themselves (the default); v3's `zarr.json` holds them as its `attributes` member, beside the
 * node's metadata, which a write keeps.
 */
export interface AttributesDocument {
  /** The attributes in the stored document (`{}` when it has none). */
  read(bytes: Uint8Array, key: string): JsonObject;
  /** The document to store for `values`; `stored` reads the one stored now, if the document needs it. */
  write(values: JsonObject, stored: () => Promise<Uint8Array | undefined>, key: string): Promise<Uint8Array>;
}

/** v2 and v1: a document of the attributes alone. */
const ZATTRS: AttributesDocument = {
  read: (bytes, key) => parseAttributes(bytes, key),
  write: async (values) => encodeAttributes(values),
};

/**
 * The user attributes of an array or group, kept in its `.zattrs` document (v3: its `zarr.json`).
 * Every call reads the document afresh, so changes made by other writers are seen; writes replace
 * all the attributes, as zarr-python does.
 */
export class Attributes {
  constructor(
    readonly store: Store,
    readonly key: string,
    readonly readOnly: boolean,
    /** Locks the document around read-modify-write updates, when writers may race. */
    readonly synchronizer?: Synchronizer,
    readonly document: AttributesDocument = ZATTRS,
  ) {}

  /** All attributes (`{}` when the node has no `.zattrs`). */
  async asObject(): Promise<Record<string, JsonValue>> {
    const bytes = await this.store.get(this.key);
    return bytes === undefined ? {} : { ...this.document.read(bytes, this.key) };
  }

  async get(name: string): Promise<JsonValue | undefined> {
    return (await this.asObject())[name];
  }

  async has(name: string): Promise<boolean> {
    return name in (await this.asObject());
  }

  async keys(): Promise<string[]> {
    return Object.keys(await this.asObject());
  }

  async set(name: string, value: JsonValue): Promise<void> {
    await this.update({ [name]: value });
  }

  /** Adds or replaces the given attributes, keeping the others. */
  async update(values: JsonObject): Promise<void> {
    await this.#write(async () => ({ ...(await this.asObject()), ...values }));
  }

  async delete(name: string): Promise<void> {
    await this.#write(async () => {
      const current = await this.asObject();
      delete current[name];
      return current;
    });
  }

  /** Replaces all attributes with `values`. */
  async put(values: JsonObject): Promise<void> {
    await this.#write(async () => values);
  }

  /** Writes the document `next` computes, holding the lock from its read to the write. */
  async #write(next: () => Promise<JsonObject>): Promise<void> {
    if (this.readOnly || !isWritable(this.store)) throw new ReadOnlyError("attributes", { key: this.key });
    const store = this.store;
    await withLock(this.synchronizer, this.key, async () => {
      // v2 replaces its document unread; v3 keeps the metadata around the attributes.
      await store.set(this.key, await this.document.write(await next(), () => store.get(this.key), this.key));
    });
  }
}
