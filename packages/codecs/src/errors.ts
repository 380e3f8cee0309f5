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
