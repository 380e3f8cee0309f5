import { ZarrError } from "@z/meta";

/**
 * A codec failed on a chunk: corrupt or truncated input, a checksum mismatch, output larger than a
 * chunk can be (a decompression bomb), or data of the wrong kind. The message names the codec and
 * the chunk key, e.g. `corrupt zlib data in chunk foo/0.0: unexpected end of data`.
 */
export class CodecError extends ZarrError {
  /** The id of the codec that failed (`zlib`, `gzip`, …). */
  readonly codecId: string;

  constructor(message: string, options: { codecId: string; key?: string; cause?: unknown }) {
    super("ZARR_CODEC", message, options);
    this.codecId = options.codecId;
  }
}

/**
 * A codec config (an entry of `compressor` or `filters` in `.zarray`) that the codec cannot be built
 * from: a missing required field, a field of the wrong type or out of range, or an unknown key.
 */
export class CodecConfigError extends ZarrError {
  /** The id of the codec whose config is wrong (`undefined` when the config has no usable id). */
  readonly codecId: string | undefined;
  /** The offending field, e.g. `level` or `labels[2]`, when one is to blame. */
  readonly field: string | undefined;
  /** What the field should have been, e.g. `an integer from -1 to 9`. */
  readonly expected: string | undefined;

  constructor(
    message: string,
    options: { codecId?: string; field?: string; expected?: string; key?: string; cause?: unknown } = {},
  ) {
    super("ZARR_CODEC_CONFIG", message, options);
    this.codecId = options.codecId;
    this.field = options.field;
    this.expected = options.expected;
  }
}

/** A codec id that no codec is registered for (zarr-python: `ValueError: codec not available`). */
export class UnknownCodecError extends ZarrError {
  readonly codecId: string;
  /** The ids that were registered when the lookup failed, sorted. */
  readonly registered: readonly string[];

  constructor(codecId: string, registered: readonly string[], options: { key?: string } = {}) {
    const where = options.key === undefined ? "" : ` in ${options.key}`;
    const known = registered.length === 0 ? "none" : registered.join(", ");
    super(
      "ZARR_UNKNOWN_CODEC",
      `unknown codec ${JSON.stringify(codecId)}${where} (registered codecs: ${known}); ` +
        `register it with registerCodec(${JSON.stringify(codecId)}, loader)`,
      options,
    );
    this.codecId = codecId;
    this.registered = registered;
  }
}

/** ` in chunk foo/0.0` when the chunk has a key, else nothing: for building CodecError messages. */
export function inChunk(key: string | undefined): string {
  return key === undefined ? "" : ` in chunk ${key}`;
}

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
