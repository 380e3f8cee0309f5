/*
 * Encoders that are modules of their own (DEFLATE, LZMA and bzip2 here; blosc, LZ4, Zstandard and
 * the WebAssembly DEFLATE in @z/codecs-wasm), found by name when a codec first encodes. A codec
 * never imports its encoder: what reaches an encoder is a registration (`enableEncoders`), so a
 * bundle holds encoders only if the program registers them, and a page that only reads ships none,
 * even bundled as one file. Node's entries of @z/codecs, @z/codecs-wasm and @z/core register them.
 */
import type { ChunkContext } from "./codec.js";
import { MissingEncoderError } from "./errors.js";

/** Loads an encoder module, a dynamic `import()` (so it stays out of what loads first). */
export type EncoderLoader = () => Promise<unknown>;

interface Entry {
  readonly load: EncoderLoader;
  module?: unknown;
  pending?: Promise<unknown>;
}

const encoders = new Map<string, Entry>();

/**
 * Registers (or replaces) encoder `name`, loaded by `load` when a codec first encodes with it.
 * Registering the same loader again keeps what it loaded.
 */
export function registerEncoder(name: string, load: EncoderLoader): void {
  if (typeof load !== "function")
    throw new TypeError(`registerEncoder(${JSON.stringify(name)}): load must be a function`);
  if (encoders.get(name)?.load !== load) encoders.set(name, { load });
}

/** Whether encoder `name` is registered. */
export function hasEncoder(name: string): boolean {
  return encoders.has(name);
}

/**
 * Runs `use` with encoder module `name`: at once when it is loaded, after loading it otherwise (a
 * failed load is tried again next time). Throws `MissingEncoderError` (naming `codecId` and the
 * chunk) when no encoder of that name is registered.
 */
export function withEncoder<M, R>(
  name: string,
  codecId: string,
  chunk: ChunkContext,
  use: (encoder: M) => R | Promise<R>,
): R | Promise<R> {
  const entry = encoders.get(name);
  if (entry === undefined) throw new MissingEncoderError(codecId, name, { key: chunk.key });
  if (entry.module !== undefined) return use(entry.module as M);
  entry.pending ??= entry.load().then(
    (module) => {
      entry.module = module;
      return module;
    },
    (error: unknown) => {
      entry.pending = undefined;
      throw error;
    },
  );
  return entry.pending.then((module) => use(module as M));
}
