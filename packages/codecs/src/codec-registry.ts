import { ZarrError, type CodecConfig } from "@z/meta";
import type { Codec } from "./codec.js";
import type { CodecCreateContext, CodecFactory } from "./define-codec.js";
import { describeValue } from "./describe-value.js";
import { CodecConfigError, CodecError, UnknownCodecError } from "./errors.js";

/**
 * Produces a codec factory when a codec is first needed, so heavy codecs (WASM ones) load only
 * when an array uses them: `() => import("./blosc.js").then((m) => m.blosc)`.
 */
export type CodecLoader = () => CodecFactory | Promise<CodecFactory>;

interface Entry {
  readonly loader: CodecLoader;
  factory?: Promise<CodecFactory>;
}

/**
 * Maps codec ids (`zlib`, `blosc`, …) to codec factories, loaded lazily, and builds codecs from
 * `.zarray` configs. Registering an id that is already registered replaces it (as numcodecs'
 * `register_codec` does).
 */
export class CodecRegistry {
  readonly #entries = new Map<string, Entry>();

  constructor(entries: Iterable<readonly [id: string, loader: CodecLoader]> = []) {
    for (const [id, loader] of entries) this.register(id, loader);
  }

  /** Registers (or replaces) the codec `id`; `loader` runs the first time the codec is needed. */
  register(id: string, loader: CodecLoader): this {
    if (typeof id !== "string" || id === "") throw new TypeError("register: codec id must be a non-empty string");
    if (typeof loader !== "function") throw new TypeError(`register(${JSON.stringify(id)}): loader must be a function`);
    this.#entries.set(id, { loader });
    return this;
  }

  /** Removes the codec `id`; returns whether it was registered. */
  unregister(id: string): boolean {
    return this.#entries.delete(id);
  }

  /**
   * The loader registered for `id`. Two registries with the same loader for an id make the same
   * codecs, which is how `@z/core` knows a pool thread (with its own registry) decodes alike.
   */
  loader(id: string): CodecLoader | undefined {
    return this.#entries.get(id)?.loader;
  }

  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /** The registered ids, sorted. */
  ids(): string[] {
    return [...this.#entries.keys()].sort();
  }

  /** A new registry with the same codecs, to add to without changing this one. */
  clone(): CodecRegistry {
    const copy = new CodecRegistry();
    for (const [id, entry] of this.#entries) copy.#entries.set(id, entry);
    return copy;
  }

  /**
   * The factory for `id`, loading it on first use. Throws `UnknownCodecError` for an unregistered
   * id and `CodecError` if the loader fails (a failed load is retried next time).
   */
  async factory(id: string, context: CodecCreateContext = {}): Promise<CodecFactory> {
    const entry = this.#entries.get(id);
    if (!entry) throw new UnknownCodecError(id, this.ids(), { key: context.key });
    if (!entry.factory) {
      entry.factory = Promise.resolve()
        .then(() => entry.loader())
        .then((factory) => checkFactory(id, factory));
      entry.factory.catch(() => {
        if (this.#entries.get(id) === entry) entry.factory = undefined;
      });
    }
    try {
      return await entry.factory;
    } catch (error) {
      if (error instanceof ZarrError) throw error;
      throw new CodecError(`failed to load codec ${JSON.stringify(id)}: ${message(error)}`, {
        codecId: id,
        key: context.key,
        cause: error,
      });
    }
  }

  /**
   * Builds the codec a `.zarray` config describes (`{"id": "zlib", "level": 1}`). Throws
   * `UnknownCodecError` (naming the id, `context.key` and the registered ids) for an unregistered
   * id, and `CodecConfigError` for a config the codec refuses.
   */
  async create(config: CodecConfig, context: CodecCreateContext = {}): Promise<Codec> {
    const where = context.key === undefined ? "" : ` in ${context.key}`;
    if (typeof config !== "object" || config === null || Array.isArray(config)) {
      throw new CodecConfigError(`a codec config${where} must be a JSON object, got ${describeValue(config)}`, {
        key: context.key,
      });
    }
    const id: unknown = config.id;
    if (typeof id !== "string") {
      throw new CodecConfigError(`a codec config${where} must have a string "id", got ${describeValue(config)}`, {
        key: context.key,
        field: "id",
        expected: "a string",
      });
    }
    const factory = await this.factory(id, context);
    let codec: Codec;
    try {
      codec = await factory.create(config, context);
    } catch (error) {
      if (error instanceof ZarrError) throw error;
      throw new CodecConfigError(`invalid config for codec ${JSON.stringify(id)}${where}: ${message(error)}`, {
        codecId: id,
        key: context.key,
        cause: error,
      });
    }
    if (
      typeof codec !== "object" ||
      codec === null ||
      typeof codec.encode !== "function" ||
      typeof codec.decode !== "function" ||
      typeof codec.toJSON !== "function"
    ) {
      throw new CodecError(`codec ${JSON.stringify(id)}: its factory did not return a codec`, {
        codecId: id,
        key: context.key,
      });
    }
    if (codec.id !== id) {
      throw new CodecError(
        `codec ${JSON.stringify(id)}: its factory returned a codec with id ${JSON.stringify(codec.id)}`,
        {
          codecId: id,
          key: context.key,
        },
      );
    }
    return codec;
  }
}

function checkFactory(id: string, factory: CodecFactory): CodecFactory {
  if (typeof factory !== "object" || factory === null || typeof factory.create !== "function") {
    throw new CodecError(`the loader registered for codec ${JSON.stringify(id)} did not return a codec factory`, {
      codecId: id,
    });
  }
  if (factory.id !== id) {
    throw new CodecError(
      `the loader registered for codec ${JSON.stringify(id)} returned the factory of codec ${JSON.stringify(factory.id)}`,
      { codecId: id },
    );
  }
  return factory;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The registry arrays use unless given another: this package's codecs, and any registered since. */
export const defaultRegistry: CodecRegistry = new CodecRegistry([
  ["gzip", () => import("./gzip.js").then((m) => m.gzip)],
  ["zlib", () => import("./zlib.js").then((m) => m.zlib)],
  ["bz2", () => import("./bz2.js").then((m) => m.bz2)],
  ["lzma", () => import("./lzma.js").then((m) => m.lzma)],
  ["delta", () => import("./delta.js").then((m) => m.delta)],
  ["fixedscaleoffset", () => import("./fixedscaleoffset.js").then((m) => m.fixedscaleoffset)],
  ["quantize", () => import("./quantize.js").then((m) => m.quantize)],
  ["packbits", () => import("./packbits.js").then((m) => m.packbits)],
  ["categorize", () => import("./categorize.js").then((m) => m.categorize)],
  ["astype", () => import("./astype.js").then((m) => m.astype)],
  ["shuffle", () => import("./shuffle.js").then((m) => m.shuffle)],
  ["bitround", () => import("./bitround.js").then((m) => m.bitround)],
  ["crc32", () => import("./crc32.js").then((m) => m.crc32)],
  ["crc32c", () => import("./crc32c.js").then((m) => m.crc32c)],
  ["adler32", () => import("./adler32.js").then((m) => m.adler32)],
  ["fletcher32", () => import("./fletcher32.js").then((m) => m.fletcher32)],
  ["jenkins_lookup3", () => import("./jenkins-lookup3.js").then((m) => m.jenkinsLookup3)],
  ["vlen-utf8", () => import("./vlen-utf8.js").then((m) => m.vlenUtf8)],
  ["vlen-bytes", () => import("./vlen-bytes.js").then((m) => m.vlenBytes)],
  ["vlen-array", () => import("./vlen-array.js").then((m) => m.vlenArray)],
  ["json2", () => import("./json2.js").then((m) => m.json2)],
  ["msgpack2", () => import("./msgpack2.js").then((m) => m.msgpack2)],
  ["base64", () => import("./base64.js").then((m) => m.base64)],
]);

/** Registers a codec in `defaultRegistry` (shorthand for `defaultRegistry.register(id, loader)`). */
export function registerCodec(id: string, loader: CodecLoader): void {
  defaultRegistry.register(id, loader);
}
