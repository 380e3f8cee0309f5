import { ZarrError, type CodecConfig } from "@z/meta";
import type { ChunkContext, Codec, CodecData, DecodedRange, StoredRangeReader } from "./codec.js";
import {
  parseConfig,
  serializeConfig,
  type ConfigInput,
  type ConfigSchema,
  type ConfigValues,
} from "./config-schema.js";
import { checkChunkContext } from "./chunk-bytes.js";
import { encoders } from "./encoders.js";
import { CodecError, inChunk } from "./errors.js";
import type { CodecV3Declaration } from "./v3/types.js";

/** Where a codec is being built, for error messages (`foo/.zarray`). */
export interface CodecCreateContext {
  readonly key?: string;
}

/**
 * Builds codecs of one id from their `.zarray` configs. This is what a registry holds; anyone can
 * implement it (or use `defineCodec`). `create` throws `CodecConfigError` for a config it cannot
 * use.
 */
export interface CodecFactory {
  readonly id: string;
  /**
   * What the codec is in Zarr v3, where an array's `codecs` name it by its id (`numcodecs.<id>` or
   * the bare id): its kind, `bytes → bytes` when not said (see `@z/codecs/v3`).
   */
  readonly v3?: CodecV3Declaration;
  create(config: CodecConfig, context?: CodecCreateContext): Codec | Promise<Codec>;
}

/**
 * The encode/decode pair a codec definition builds from its parsed config, and optionally the
 * partial and in-place decoders (see `Codec.decodeRange` and `Codec.decodeInto`).
 */
export interface CodecImplementation {
  encode(data: CodecData, chunk: ChunkContext): CodecData | Promise<CodecData>;
  decode(data: CodecData, chunk: ChunkContext): CodecData | Promise<CodecData>;
  decodeRange?(
    read: StoredRangeReader,
    start: number,
    end: number,
    chunk: ChunkContext,
  ): Promise<DecodedRange | undefined>;
  decodeInto?(data: Uint8Array, out: Uint8Array, chunk: ChunkContext): number | Promise<number>;
}

/** What `defineCodec` takes: the id, the config declaration, and how to build the codec. */
export interface CodecDefinition<S extends ConfigSchema> {
  /** The numcodecs `codec_id`. */
  readonly id: string;
  /** The config fields, in the order numcodecs' `get_config()` writes them (see `config-schema`). */
  readonly config: S;
  /** What the codec is in Zarr v3 (`CodecFactory.v3`), e.g. `{ kind: "array-array" }` for a filter. */
  readonly v3?: CodecV3Declaration;
  /** Builds the codec from a validated config with defaults filled. */
  create(config: ConfigValues<S>): CodecImplementation;
}

/** A codec built by `defineCodec`: a `Codec` that also exposes its parsed config. */
export interface ConfiguredCodec<S extends ConfigSchema> extends Codec {
  readonly config: ConfigValues<S>;
  toJSON(): CodecConfig;
}

/** The factory `defineCodec` returns. */
export interface DefinedCodec<S extends ConfigSchema> extends CodecFactory {
  readonly id: string;
  /** The config declaration. */
  readonly schema: S;
  /**
   * Builds a codec from a config, e.g. `zlib.create({ level: 5 })` or a `.zarray` entry
   * `{"id": "zlib", "level": 5}`; left-out fields take their defaults. Throws `CodecConfigError`.
   */
  create(config?: ConfigInput<S> | CodecConfig, context?: CodecCreateContext): ConfiguredCodec<S>;
  /** Validates a config and returns its values with defaults filled (throws `CodecConfigError`). */
  parse(config?: unknown, context?: CodecCreateContext): ConfigValues<S>;
}

/**
 * Declares a codec once: its id, its config fields, and how to build it. The factory it returns
 * validates configs (errors name the codec, the field and what was expected), fills defaults, and
 * builds codecs whose `toJSON()` is the normalised config, keys in numcodecs' order. Errors thrown
 * by `encode`/`decode` that are not already a `ZarrError` become `CodecError`s naming the codec
 * and the chunk key.
 *
 * ```ts
 * const xor = defineCodec({
 *   id: "xor",
 *   config: { key: integer({ min: 0, max: 255, default: 0x5a }) },
 *   create: ({ key }) => {
 *     const apply = (data: CodecData, chunk: ChunkContext) => requireBytes(data, "xor", chunk).map((b) => b ^ key);
 *     return { encode: apply, decode: apply };
 *   },
 * });
 * ```
 */
export function defineCodec<const S extends ConfigSchema>(definition: CodecDefinition<S>): DefinedCodec<S> {
  const { id, config: schema } = definition;
  if (typeof id !== "string" || id === "") throw new TypeError("defineCodec: id must be a non-empty string");
  if (Object.hasOwn(schema, "id")) throw new TypeError(`defineCodec(${id}): "id" is not a config field, it is implied`);

  const parse = (config?: unknown, context: CodecCreateContext = {}): ConfigValues<S> =>
    parseConfig(id, schema, config, context);

  const create = (config?: ConfigInput<S> | CodecConfig, context: CodecCreateContext = {}): ConfiguredCodec<S> => {
    const values = parse(config, context);
    const implementation = definition.create(values);
    const encode = guard(id, "encode", implementation.encode.bind(implementation));
    const decode = guard(id, "decode", implementation.decode.bind(implementation));
    const { decodeRange, decodeInto } = implementation;
    return Object.freeze({
      id,
      config: values,
      encode,
      decode,
      ...(decodeRange && { decodeRange: guardRange(id, decodeRange.bind(implementation)) }),
      ...(decodeInto && { decodeInto: guardInto(id, decodeInto.bind(implementation)) }),
      toJSON: () => serializeConfig(id, schema, values),
    });
  };

  return Object.freeze({ id, schema, create, parse, ...(definition.v3 && { v3: definition.v3 }) });
}

type Step = (data: CodecData, chunk: ChunkContext) => CodecData | Promise<CodecData>;
type RangeStep = NonNullable<CodecImplementation["decodeRange"]>;
type IntoStep = NonNullable<CodecImplementation["decodeInto"]>;

/** Rethrows our own errors and an abort as they are; anything else becomes a CodecError naming the codec and chunk. */
function failure(id: string, name: string, error: unknown, chunk: ChunkContext): never {
  if (error instanceof ZarrError) throw error;
  if (chunk.signal?.aborted && error === chunk.signal.reason) throw error;
  const message = error instanceof Error ? error.message : String(error);
  throw new CodecError(`codec ${id} failed to ${name}${inChunk(chunk.key)}: ${message}`, {
    codecId: id,
    key: chunk.key,
    cause: error,
  });
}

/** `decodeRange` with foreign errors wrapped and the range and result checked. */
function guardRange(id: string, step: RangeStep): RangeStep {
  return async (read, start, end, chunk) => {
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
      throw new CodecError(
        `codec ${id} cannot decode the range ${start} to ${end}${inChunk(chunk.key)}: expected 0 <= start <= end`,
        {
          codecId: id,
          key: chunk.key,
        },
      );
    }
    let result: DecodedRange | undefined;
    try {
      chunk.signal?.throwIfAborted();
      result = await step(read, start, end, chunk);
    } catch (error) {
      return failure(id, "decode a range", error, chunk);
    }
    if (result === undefined) return undefined;
    const { bytes, decodedSize } = result;
    const expected = Math.max(0, Math.min(end, decodedSize) - start);
    if (!(bytes instanceof Uint8Array) || !Number.isSafeInteger(decodedSize) || bytes.length !== expected) {
      throw new CodecError(
        `codec ${id} decoded the range ${start} to ${end}${inChunk(chunk.key)} to something other than its ${expected} bytes`,
        {
          codecId: id,
          key: chunk.key,
        },
      );
    }
    return result;
  };
}

/** `decodeInto` with foreign errors wrapped and the count checked. */
function guardInto(id: string, step: IntoStep): IntoStep {
  const check = (n: number, out: Uint8Array, chunk: ChunkContext): number => {
    if (Number.isSafeInteger(n) && n >= 0 && n <= out.length) return n;
    throw new CodecError(
      `codec ${id} decoded${inChunk(chunk.key)} into a buffer of ${out.length} bytes and reported ${n} bytes`,
      {
        codecId: id,
        key: chunk.key,
      },
    );
  };
  return (data, out, chunk) => {
    let result: number | Promise<number>;
    try {
      chunk.signal?.throwIfAborted();
      checkChunkContext(id, chunk);
      result = step(data, out, chunk);
    } catch (error) {
      return failure(id, "decode", error, chunk);
    }
    if (result instanceof Promise) {
      return result.then(
        (n) => check(n, out, chunk),
        (error: unknown) => failure(id, "decode", error, chunk),
      );
    }
    return check(result, out, chunk);
  };
}

/** Wraps a step so foreign errors become CodecErrors and results are checked. */
function guard(id: string, name: "encode" | "decode", step: Step): Step {
  const fail = (error: unknown, chunk: ChunkContext): never => failure(id, name, error, chunk);
  const check = (result: CodecData, chunk: ChunkContext): CodecData => {
    if (result instanceof Uint8Array || Array.isArray(result)) return result;
    const what =
      result === null ? "null" : typeof result === "object" ? (result as object).constructor?.name : typeof result;
    throw new CodecError(`codec ${id} ${name}d${inChunk(chunk.key)} to ${what}, not bytes or an array`, {
      codecId: id,
      key: chunk.key,
    });
  };
  return (data, chunk) => {
    let result: CodecData | Promise<CodecData>;
    try {
      chunk.signal?.throwIfAborted();
      // A chunk too large to hold is refused before a decoder allocates for it.
      if (name === "decode") checkChunkContext(id, chunk);
      result = step(data, chunk);
    } catch (error) {
      return fail(error, chunk);
    }
    if (result instanceof Promise) {
      return result.then(
        (value) => check(value, chunk),
        (error: unknown) => fail(error, chunk),
      );
    }
    return check(result, chunk);
  };
}

// ---------------------------------------------------------------------------------------------
// Encoders: a codec reaches its encoder by name (see encoders.ts), never by importing it.

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
