/*
 * How a codec reaches its encoder (`withEncoder`), and the error when none is registered: what
 * codecs import (through `@z/codecs/define`), not the registry's users.
 */
import { ZarrError } from "@z/meta";
import type { ChunkContext } from "./codec.js";
import { encoders } from "./encoders.js";
import { inChunk } from "./errors.js";

/**
 * A codec was asked to encode in a program that has not registered its encoder. Encoders are
 * modules of their own, loaded when a codec first encodes, and a browser bundle holds them only if
 * the page registers them (`enableEncoders()` of `@z/core`, or of `@z/codecs` and `@z/codecs-wasm`),
 * so a page that only reads ships none. Node registers them all.
 */
export class MissingEncoderError extends ZarrError {
  /** The id of the codec that was to encode (`zlib`, `blosc`, …). */
  readonly codecId: string;
  /** The encoder it needs (a name `registerEncoder` takes). */
  readonly encoder: string;

  constructor(codecId: string, encoder: string, options: { key?: string } = {}) {
    super(
      "ZARR_MISSING_ENCODER",
      `codec ${codecId} cannot encode${inChunk(options.key)}: its encoder (${JSON.stringify(encoder)}) is not ` +
        "registered here; call enableEncoders() from @z/core once before writing (browser bundles leave " +
        "encoders out unless a page asks for them; Node registers them)",
      options,
    );
    this.codecId = codecId;
    this.encoder = encoder;
  }
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
