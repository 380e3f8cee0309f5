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
 * The user attributes of an array or group, kept in its `.zattrs` document. Every call reads the
 * document afresh, so changes made by other writers are seen; writes replace the whole document,
 * as zarr-python does.
 */
export class Attributes {
  constructor(
    readonly store: Store,
    readonly key: string,
    readonly readOnly: boolean,
    /** Locks the document around read-modify-write updates, when writers may race. */
    readonly synchronizer?: Synchronizer,
  ) {}

  /** All attributes (`{}` when the node has no `.zattrs`). */
  async asObject(): Promise<Record<string, JsonValue>> {
    const bytes = await this.store.get(this.key);
    return bytes === undefined ? {} : { ...parseAttributes(bytes, this.key) };
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
      await store.set(this.key, encodeAttributes(await next()));
    });
  }
}
