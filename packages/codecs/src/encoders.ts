/*
 * Encoders that are modules of their own (DEFLATE, LZMA and bzip2 here; blosc, LZ4, Zstandard and
 * the WebAssembly DEFLATE in @z/codecs-wasm), found by name when a codec first encodes. A codec
 * never imports its encoder: what reaches an encoder is a registration (`enableEncoders`), so a
 * bundle holds encoders only if the program registers them, and a page that only reads ships none,
 * even bundled as one file. Node's entries of @z/codecs, @z/codecs-wasm and @z/core register them.
 */

/** Loads an encoder module, a dynamic `import()` (so it stays out of what loads first). */
export type EncoderLoader = () => Promise<unknown>;

/** An encoder registered, and what its loader gave once it has run. */
export interface Entry {
  readonly load: EncoderLoader;
  module?: unknown;
  pending?: Promise<unknown>;
}

/** The encoders registered, by name. */
export const encoders = new Map<string, Entry>();

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
