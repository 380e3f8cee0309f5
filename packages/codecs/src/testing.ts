/**
 * `@z/codecs/testing`: the contract every codec must meet, as checks any test runner can run.
 *
 * ```ts
 * import { describe, it } from "vitest";
 * import { checkCodec } from "@z/codecs/testing";
 *
 * checkCodec(xor, { configs: [{ id: "xor", key: 90 }], corruption: "none" }, { describe, it });
 * ```
 *
 * With `{ describe, it }` the checks are registered as tests (one per check, config and fixture);
 * without, `checkCodec` returns a promise that rejects with a `CodecContractError` at the first
 * failure. The single checks are exported too. Nothing here depends on a test framework.
 *
 * @packageDocumentation
 */
import type { CodecConfig, DataType, JsonObject, NamedConfig } from "@z/meta";
import { JsonFloat, MetadataError } from "@z/meta";
import type { ChunkContext, Codec, CodecData } from "./codec.js";
import type { CodecRegistry } from "./codec-registry.js";
import type { CodecFactory } from "./define-codec.js";
import { CodecConfigError, CodecError } from "./errors.js";
import { buildCodecV3 } from "./v3/compile.js";

/** A failed contract check. The message says which check, codec config and sample. */
export class CodecContractError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CodecContractError";
  }
}

/** An input for round trips: bytes, or JS values for an object codec. */
export interface CodecSample {
  readonly name: string;
  readonly data: CodecData;
  /** Overrides for the chunk context (by default it describes `data` as one chunk). */
  readonly context?: Partial<ChunkContext>;
}

/** Bytes an implementation of the codec is known to have produced (e.g. numcodecs). */
export interface EncodedFixture {
  readonly name?: string;
  /** The config of the codec that produced `encoded`. */
  readonly config: CodecConfig;
  /** What `encoded` decodes to. */
  readonly decoded: CodecData;
  readonly encoded: Uint8Array;
  readonly context?: Partial<ChunkContext>;
}

/**
 * What the codec's format detects in corrupt input:
 * - `checksum`: everything: truncated input, flipped bits, random bytes must all throw a
 *   `CodecError` (a flipped bit that does not matter, like a gzip mtime bit, may decode to the
 *   original data, never to anything else). For formats with checksums (zlib, gzip, zstd, …).
 * - `truncation`: truncated input must throw; other corruption may decode to something.
 * - `none`: anything may decode to something (filters such as delta or an xor).
 * In every mode, a decode that throws must throw a `CodecError` (code `ZARR_CODEC`) naming the
 * codec and the chunk key, and no decode may hang (still running after `timeout`).
 */
export type CorruptionDetection = "checksum" | "truncation" | "none";

export interface CodecCheckOptions {
  /** Configs to check the codec with. Default: the codec's own config (`{ id }`, defaults, for a factory). */
  readonly configs?: readonly CodecConfig[];
  /** Round-trip inputs. Default: `defaultSamples(itemsize)`. */
  readonly samples?: readonly (CodecSample | Uint8Array)[];
  /** Known encodings the codec must decode (backwards compatibility). */
  readonly encoded?: readonly EncodedFixture[];
  /** Also require `encode(decoded)` to equal each fixture's `encoded` byte for byte. Default `false`. */
  readonly exactEncoding?: boolean;
  /** See `CorruptionDetection`. Default `checksum`. */
  readonly corruption?: CorruptionDetection;
  /**
   * Require decode to refuse (with a `CodecError`) output larger than the chunk context's
   * `elements * itemsize` (compressors; see `maxDecodedSize`). Default `false`.
   */
  readonly boundedDecode?: boolean;
  /**
   * Require a codec rebuilt from `toJSON()` to encode like the original (so `toJSON` loses nothing).
   * Turn off for codecs whose output is not deterministic. Default `true`.
   */
  readonly deterministic?: boolean;
  /** Require unknown config keys to be refused with a `CodecConfigError`, as numcodecs does. Default `true`. */
  readonly strictConfig?: boolean;
  /** Bytes per element of the default samples and contexts. Default 1. */
  readonly itemsize?: number;
  /** How long one encode or decode may go on before it counts as hung (a guard, not a speed check). Default 60000. */
  readonly timeout?: number;
  /** Rebuilds codecs from configs when the subject is a `Codec` (to check configs other than its own). */
  readonly factory?: CodecFactory;
}

/** The subset of vitest's / jest's / mocha's API the kit registers tests with. */
export interface TestApi {
  describe(name: string, body: () => void): unknown;
  /** `timeout` (ms) is generous, as checks with 1 MiB samples take a while on slow machines. */
  it(name: string, body: () => Promise<void>, timeout?: number): unknown;
}

const KEY = "checks/0.0";

// ---------------------------------------------------------------------------------------------
// Samples

/** A deterministic pseudo-random byte generator (xorshift32). */
export function pseudoRandomBytes(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * Inputs that exercise a byte codec: empty, one item, short text, random (incompressible),
 * repetitive, zeros, counting integers, and a large (1 MiB) mix. Lengths are whole items.
 */
export function defaultSamples(itemsize = 1): CodecSample[] {
  const whole = (bytes: Uint8Array) => bytes.subarray(0, bytes.length - (bytes.length % itemsize));
  const text = new TextEncoder().encode("Hello, Zarr! ".repeat(8));
  const repetitive = new Uint8Array(16384);
  for (let i = 0; i < repetitive.length; i++) repetitive[i] = "abcdefg".charCodeAt(i % 7);
  const counting = new Uint8Array(new Int32Array(Array.from({ length: 16384 }, (_, i) => i)).buffer);
  const large = new Uint8Array((1 << 20) + 3 * itemsize);
  for (let offset = 0, run = 0; offset < large.length; run++) {
    const size = Math.min(4096 + ((run * 7919) % 8192), large.length - offset);
    if (run % 3 === 0) large.set(pseudoRandomBytes(size, run + 7), offset);
    else if (run % 3 === 1) large.fill(run & 0xff, offset, offset + size);
    else large.set(counting.subarray(0, size), offset);
    offset += size;
  }
  return [
    { name: "empty", data: new Uint8Array(0) },
    { name: "one item", data: new Uint8Array(itemsize).fill(0x2a) },
    { name: "short text", data: whole(text) },
    { name: "random 4 KiB", data: whole(pseudoRandomBytes(4096, 42)) },
    { name: "repetitive 16 KiB", data: whole(repetitive) },
    { name: "zeros 64 KiB", data: new Uint8Array(65536 - (65536 % itemsize)) },
    { name: "counting int32", data: whole(counting) },
    { name: "large 1 MiB mix", data: whole(large) },
  ];
}

function asSample(sample: CodecSample | Uint8Array, index: number): CodecSample {
  return sample instanceof Uint8Array ? { name: `sample ${index} (${sample.length} bytes)`, data: sample } : sample;
}

// ---------------------------------------------------------------------------------------------
// Contexts, comparison, timing

/** The chunk context for `data` as one whole chunk: bytes of `itemsize`-byte items, or object values. */
export function contextFor(data: CodecData, itemsize = 1, overrides: Partial<ChunkContext> = {}): ChunkContext {
  if (!(data instanceof Uint8Array)) {
    const dtype: DataType = { kind: "O", byteOrder: "|", itemsize: 8 };
    return { dtype, itemsize: 8, elements: data.length, key: KEY, ...overrides };
  }
  const dtype: DataType =
    itemsize === 1 || itemsize === 2 || itemsize === 4 || itemsize === 8
      ? { kind: "u", byteOrder: itemsize === 1 ? "|" : "<", itemsize }
      : { kind: "V", byteOrder: "|", itemsize };
  return { dtype, itemsize, elements: Math.floor(data.length / itemsize), key: KEY, ...overrides };
}

function describeData(data: unknown): string {
  if (data instanceof Uint8Array) {
    const head = Array.from(data.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join(" ");
    return `${data.length} bytes [${head}${data.length > 16 ? " …" : ""}]`;
  }
  if (Array.isArray(data)) return `an array of ${data.length} values`;
  return data === null ? "null" : typeof data === "object" ? `a ${(data as object).constructor?.name}` : typeof data;
}

/** Where two values first differ, or `undefined` if they are equal. */
function difference(actual: unknown, expected: unknown, path = ""): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  if (ArrayBuffer.isView(expected) && !(expected instanceof DataView)) {
    if (!ArrayBuffer.isView(actual) || actual.constructor !== expected.constructor) {
      return `${path || "value"}: expected ${describeData(expected)}, got ${describeData(actual)}`;
    }
    const a = actual as unknown as ArrayLike<unknown>;
    const e = expected as unknown as ArrayLike<unknown>;
    if (a.length !== e.length) return `${path || "value"}: expected length ${e.length}, got ${a.length}`;
    for (let i = 0; i < e.length; i++) {
      if (!Object.is(a[i], e[i])) return `${path}[${i}]: expected ${String(e[i])}, got ${String(a[i])}`;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual))
      return `${path || "value"}: expected ${describeData(expected)}, got ${describeData(actual)}`;
    if (actual.length !== expected.length)
      return `${path || "value"}: expected length ${expected.length}, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (expected instanceof JsonFloat && actual instanceof JsonFloat)
    return difference(actual.value, expected.value, path);
  if (typeof expected === "object" && expected !== null && typeof actual === "object" && actual !== null) {
    const ek = Object.keys(expected).filter((k) => (expected as Record<string, unknown>)[k] !== undefined);
    const ak = Object.keys(actual).filter((k) => (actual as Record<string, unknown>)[k] !== undefined);
    if (ek.join("\0") !== ak.join("\0"))
      return `${path || "value"}: expected keys [${ek.join(", ")}], got [${ak.join(", ")}]`;
    for (const k of ek) {
      const d = difference(
        (actual as Record<string, unknown>)[k],
        (expected as Record<string, unknown>)[k],
        `${path}.${k}`,
      );
      if (d) return d;
    }
    return undefined;
  }
  return `${path || "value"}: expected ${String(expected)}, got ${String(actual)}`;
}

function copyOf(data: CodecData): CodecData {
  return data instanceof Uint8Array ? data.slice() : structuredCloneValues(data);
}

function structuredCloneValues(values: readonly unknown[]): unknown[] {
  return values.map((v) =>
    Array.isArray(v) ? structuredCloneValues(v) : ArrayBuffer.isView(v) ? (v as Uint8Array).slice() : v,
  );
}

/** `bytes` copied into the middle of a larger buffer filled with guard bytes, to catch codecs that
 * read `.buffer` directly or write outside their input. */
function offsetView(bytes: Uint8Array): { view: Uint8Array; guardsIntact: () => boolean } {
  const before = 5;
  const after = 7;
  const backing = new Uint8Array(before + bytes.length + after).fill(0xa5);
  backing.set(bytes, before);
  const view = backing.subarray(before, before + bytes.length);
  const guardsIntact = () =>
    backing.subarray(0, before).every((b) => b === 0xa5) &&
    backing.subarray(before + bytes.length).every((b) => b === 0xa5);
  return { view, guardsIntact };
}

/**
 * `run`, failing only when it has not settled after `timeout` ms: a guard against a decoder that
 * never returns on corrupt input, not a measure of speed (a slow machine is no contract breach).
 */
async function timed<T>(what: string, timeout: number, run: () => T | Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const result = await Promise.race([
      Promise.resolve().then(run),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new CodecContractError(`${what} did not finish within ${timeout} ms`)),
          timeout,
        );
      }),
    ]);
    return result;
  } finally {
    clearTimeout(timer);
  }
}

function configText(codec: Codec): string {
  try {
    return JSON.stringify(codec.toJSON(), (_, v: unknown) =>
      typeof v === "bigint" ? v.toString() : v instanceof JsonFloat ? v.value : v,
    );
  } catch {
    return codec.id;
  }
}

function isCodecError(error: unknown): error is Error & { code: string; key?: string } {
  return error instanceof Error && (error as { code?: unknown }).code === "ZARR_CODEC";
}

/** Checks an error thrown by decode is a CodecError naming the codec and the chunk key. */
function checkThrown(error: unknown, codec: Codec, context: ChunkContext, what: string): void {
  if (error instanceof CodecContractError) throw error;
  if (!isCodecError(error)) {
    throw new CodecContractError(
      `${what}: threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}, ` +
        `expected a CodecError (code "ZARR_CODEC")`,
      { cause: error },
    );
  }
  if (context.key !== undefined && (error.key !== context.key || !error.message.includes(context.key))) {
    throw new CodecContractError(
      `${what}: the CodecError does not name the chunk key ${context.key}: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  if (!error.message.includes(codec.id)) {
    throw new CodecContractError(`${what}: the CodecError does not name the codec ${codec.id}: ${error.message}`, {
      cause: error,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Checks

/**
 * Encodes and decodes every sample: the result must equal the input; encode and decode must not
 * change their input nor write outside it, and must work on views at an offset into a buffer.
 */
export async function checkRoundTrip(
  codec: Codec,
  samples: readonly (CodecSample | Uint8Array)[] = defaultSamples(),
  options: Pick<CodecCheckOptions, "itemsize" | "timeout"> = {},
): Promise<void> {
  const timeout = options.timeout ?? 60000;
  for (const [index, raw] of samples.entries()) {
    const sample = asSample(raw, index);
    const what = `${configText(codec)}: round trip of ${sample.name}`;
    const context = contextFor(sample.data, options.itemsize, sample.context);
    const original = copyOf(sample.data);
    let input: CodecData = sample.data;
    let inputGuards = () => true;
    if (sample.data instanceof Uint8Array) ({ view: input, guardsIntact: inputGuards } = offsetView(sample.data));

    const encoded = await timed(`${what}: encode`, timeout, () => codec.encode(input, context));
    if (!(encoded instanceof Uint8Array))
      throw new CodecContractError(`${what}: encode returned ${describeData(encoded)}, not bytes`);
    const changed = difference(input, original);
    if (changed || !inputGuards()) {
      throw new CodecContractError(
        `${what}: encode changed its input${changed ? ` (${changed})` : " (wrote outside it)"}`,
      );
    }

    const stored = encoded.slice();
    const { view, guardsIntact } = offsetView(stored);
    const decoded = await timed(`${what}: decode`, timeout, () => codec.decode(view, context));
    if (difference(view, stored) || !guardsIntact()) throw new CodecContractError(`${what}: decode changed its input`);
    const wrong = difference(decoded, original);
    if (wrong) throw new CodecContractError(`${what}: decode(encode(x)) differs from x: ${wrong}`);
  }
}

/**
 * For a codec with `decodeRange` or `decodeInto` (see `Codec`): for every byte sample, ranges of
 * what `decode` gives (empty, whole, at both ends, inside, past the end) must come out exactly,
 * with the whole chunk's size, reading through a range reader over the encoded bytes; a reader
 * finding no stored chunk gives `undefined`; `decodeInto` must write the same bytes into a larger
 * buffer, report their count and leave the rest alone. Codecs with neither pass trivially.
 */
export async function checkPartialDecode(
  codec: Codec,
  samples: readonly (CodecSample | Uint8Array)[] = defaultSamples(),
  options: Pick<CodecCheckOptions, "itemsize" | "timeout"> = {},
): Promise<void> {
  const { decodeRange, decodeInto } = codec;
  if (decodeRange === undefined && decodeInto === undefined) return;
  const timeout = options.timeout ?? 60000;
  for (const [index, raw] of samples.entries()) {
    const sample = asSample(raw, index);
    if (!(sample.data instanceof Uint8Array)) continue;
    const what = `${configText(codec)}: ${sample.name}`;
    const context = contextFor(sample.data, options.itemsize, sample.context);
    const encoded = await timed(`${what}: encode`, timeout, () => codec.encode(sample.data, context));
    if (!(encoded instanceof Uint8Array))
      throw new CodecContractError(`${what}: encode returned ${describeData(encoded)}, not bytes`);
    const whole = await timed(`${what}: decode`, timeout, () => codec.decode(encoded.slice(), context));
    if (!(whole instanceof Uint8Array))
      throw new CodecContractError(`${what}: decode returned ${describeData(whole)}, not bytes`);
    const n = whole.length;
    if (decodeRange !== undefined) {
      const read = async (offset: number, length: number) => encoded.slice(offset, offset + length);
      const third = Math.floor(n / 3);
      for (const [start, end] of [
        [0, n],
        [0, 0],
        [third, Math.floor(n / 2)],
        [Math.max(0, n - 1), n],
        [Math.max(0, n - 5), n + 10],
        [n, n + 3],
      ] as const) {
        const result = await timed(`${what}: decodeRange(${start}, ${end})`, timeout, () =>
          decodeRange.call(codec, read, start, end, context),
        );
        const expected = whole.subarray(start, end);
        if (result === undefined) throw new CodecContractError(`${what}: decodeRange(${start}, ${end}) found no chunk`);
        if (result.decodedSize !== n)
          throw new CodecContractError(
            `${what}: decodeRange(${start}, ${end}) reported a chunk of ${result.decodedSize} bytes, decode gives ${n}`,
          );
        const wrong = difference(result.bytes, expected);
        if (wrong)
          throw new CodecContractError(`${what}: decodeRange(${start}, ${end}) differs from decode's bytes: ${wrong}`);
      }
      const missing = await decodeRange.call(codec, async () => undefined, 0, n, context);
      if (missing !== undefined)
        throw new CodecContractError(
          `${what}: decodeRange of a chunk that is not stored gave ${describeData(missing)}, not undefined`,
        );
    }
    if (decodeInto !== undefined) {
      const out = new Uint8Array(n + 8).fill(0xa5);
      const count = await timed(`${what}: decodeInto`, timeout, () =>
        decodeInto.call(codec, encoded.slice(), out, context),
      );
      if (count !== n) throw new CodecContractError(`${what}: decodeInto reported ${count} bytes, decode gives ${n}`);
      const wrong = difference(out.subarray(0, n), whole);
      if (wrong) throw new CodecContractError(`${what}: decodeInto differs from decode: ${wrong}`);
      if (out.subarray(n).some((b) => b !== 0xa5))
        throw new CodecContractError(`${what}: decodeInto wrote past the decoded bytes`);
    }
  }
}

/**
 * For each config: `toJSON()` must be plain JSON whose `id` is the codec's, and building a codec from
 * it must give the same `toJSON()` again and (with `deterministic`) a codec that encodes the same
 * bytes: what `.zarray` stores rebuilds the same codec. With `strictConfig`, an unknown key must be
 * refused with a `CodecConfigError` naming the codec and the key.
 */
export async function checkConfigRoundTrip(
  factory: CodecFactory,
  configs: readonly CodecConfig[] = [{ id: factory.id }],
  options: Pick<CodecCheckOptions, "strictConfig" | "deterministic" | "itemsize" | "samples"> = {},
): Promise<void> {
  for (const config of configs) {
    const what = `${factory.id}: config ${JSON.stringify(config, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`;
    const codec = await factory.create(config, { key: "checks/.zarray" });
    if (codec.id !== factory.id) throw new CodecContractError(`${what}: the codec's id is ${JSON.stringify(codec.id)}`);
    const json = codec.toJSON();
    if (json.id !== factory.id) throw new CodecContractError(`${what}: toJSON().id is ${JSON.stringify(json.id)}`);
    const notJson = nonJson(json, "toJSON()");
    if (notJson) throw new CodecContractError(`${what}: ${notJson}`);
    const rebuilt = await factory.create(json, { key: "checks/.zarray" });
    const again = rebuilt.toJSON();
    const d = difference(again, json);
    if (d) throw new CodecContractError(`${what}: create(toJSON()).toJSON() differs from toJSON(): ${d}`);
    if (options.deterministic ?? true) {
      const samples = (options.samples ?? defaultSamples(options.itemsize)).map(asSample).slice(0, 5);
      for (const sample of samples) {
        const context = contextFor(sample.data, options.itemsize, sample.context);
        const a = await codec.encode(copyOf(sample.data), context);
        const b = await rebuilt.encode(copyOf(sample.data), context);
        const differs = difference(b, a);
        if (differs) {
          throw new CodecContractError(
            `${what}: the codec rebuilt from toJSON() ${JSON.stringify(json)} encodes ${sample.name} differently ` +
              `(${differs}): toJSON() loses part of the config`,
          );
        }
      }
    }
  }
  if (options.strictConfig ?? true) {
    const bogus = { ...(configs[0] ?? { id: factory.id }), "unknown-key": 1 };
    const what = `${factory.id}: config with an unknown key`;
    try {
      await factory.create(bogus, { key: "checks/.zarray" });
    } catch (error) {
      const e = error as { code?: unknown; message?: unknown };
      if (e.code !== "ZARR_CODEC_CONFIG") {
        throw new CodecContractError(
          `${what}: threw ${String(error)}, expected a CodecConfigError (code "ZARR_CODEC_CONFIG")`,
          {
            cause: error,
          },
        );
      }
      const message = String(e.message);
      if (!message.includes(factory.id) || !message.includes("unknown-key")) {
        throw new CodecContractError(`${what}: the error should name the codec and the key: ${message}`, {
          cause: error,
        });
      }
      return;
    }
    throw new CodecContractError(`${what}: was accepted (numcodecs refuses unknown parameters)`);
  }
}

function nonJson(value: unknown, path: string): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "bigint")
    return undefined;
  if (typeof value === "number" || value instanceof JsonFloat) return undefined;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const bad = nonJson(v, `${path}[${i}]`);
      if (bad) return bad;
    }
    return undefined;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value)) {
      const bad = nonJson(v, `${path}.${k}`);
      if (bad) return bad;
    }
    return undefined;
  }
  return `${path} is ${value === undefined ? "undefined" : describeData(value)}, not JSON`;
}

/**
 * Decodes bytes another implementation produced (numcodecs' `check_backwards_compatibility`): each
 * must decode to its `decoded`; with `exactEncoding`, encoding `decoded` must give `encoded`.
 */
export async function checkFixtures(
  build: (config: CodecConfig) => Codec | Promise<Codec>,
  fixtures: readonly EncodedFixture[],
  options: Pick<CodecCheckOptions, "exactEncoding" | "itemsize" | "timeout"> = {},
): Promise<void> {
  const timeout = options.timeout ?? 60000;
  for (const [index, fixture] of fixtures.entries()) {
    const codec = await build(fixture.config);
    const what = `${configText(codec)}: fixture ${fixture.name ?? index}`;
    const context = contextFor(fixture.decoded, options.itemsize, fixture.context);
    const decoded = await timed(`${what}: decode`, timeout, () => codec.decode(fixture.encoded.slice(), context));
    const wrong = difference(decoded, fixture.decoded);
    if (wrong) throw new CodecContractError(`${what}: decodes wrongly: ${wrong}`);
    if (options.exactEncoding) {
      const encoded = await timed(`${what}: encode`, timeout, () => codec.encode(copyOf(fixture.decoded), context));
      const d = difference(encoded, fixture.encoded);
      if (d) throw new CodecContractError(`${what}: encodes differently: ${d}`);
    }
  }
}

/**
 * Feeds decode corrupt versions of each sample's encoding (truncated, with flipped bits) and random
 * bytes; see `CorruptionDetection` for what must happen. Never garbage when `checksum`.
 */
export async function checkCorruptInput(
  codec: Codec,
  samples: readonly (CodecSample | Uint8Array)[] = defaultSamples(),
  options: Pick<CodecCheckOptions, "corruption" | "itemsize" | "timeout" | "boundedDecode"> = {},
): Promise<void> {
  const mode = options.corruption ?? "checksum";
  const timeout = options.timeout ?? 60000;
  const attempt = async (
    what: string,
    input: Uint8Array,
    context: ChunkContext,
    mustThrow: boolean,
    allowed?: CodecData,
  ): Promise<void> => {
    let decoded: CodecData;
    try {
      decoded = await timed(what, timeout, () => codec.decode(input, context));
    } catch (error) {
      checkThrown(error, codec, context, what);
      return;
    }
    if (allowed !== undefined && !difference(decoded, allowed)) return;
    if (mustThrow) {
      throw new CodecContractError(`${what}: decoded to ${describeData(decoded)} instead of throwing a CodecError`);
    }
    if (
      options.boundedDecode &&
      decoded instanceof Uint8Array &&
      decoded.length > context.elements * context.itemsize
    ) {
      throw new CodecContractError(`${what}: decoded to ${decoded.length} bytes, more than the chunk holds`);
    }
  };

  for (const [index, raw] of samples.entries()) {
    const sample = asSample(raw, index);
    const context = contextFor(sample.data, options.itemsize, sample.context);
    const encoded = await timed(`${sample.name}: encode`, timeout, () => codec.encode(sample.data, context));
    if (!(encoded instanceof Uint8Array))
      throw new CodecContractError(`${sample.name}: encode returned ${describeData(encoded)}`);
    const what = `${configText(codec)}: ${sample.name} encoded to ${encoded.length} bytes`;
    const n = encoded.length;
    const cuts = new Set([n - 1, Math.floor(n / 2), 1].filter((c) => c > 0 && c < n));
    for (const cut of cuts) {
      await attempt(`${what}, truncated to ${cut}`, encoded.slice(0, cut), context, mode !== "none");
    }
    const flips = Math.min(n, 24);
    for (let i = 0; i < flips; i++) {
      const position = Math.floor((i * n) / flips);
      const bit = 1 << (i % 8);
      const flipped = encoded.slice();
      flipped[position]! ^= bit;
      await attempt(
        `${what}, bit ${i % 8} of byte ${position} flipped`,
        flipped,
        context,
        mode === "checksum",
        sample.data,
      );
    }
  }
  const garbageContext = contextFor(new Uint8Array(4096), options.itemsize);
  for (const size of [1, 7, 64, 1000]) {
    await attempt(
      `${configText(codec)}: ${size} random bytes`,
      pseudoRandomBytes(size, size * 31 + 3),
      garbageContext,
      mode === "checksum",
    );
  }
}

/**
 * Decoding must refuse output larger than the chunk (`elements * itemsize`): each sample's encoding
 * decoded with a context one item smaller must throw a `CodecError`, and so must 16 MiB of zeros
 * (a decompression bomb) decoded as a 4 KiB chunk, quickly.
 */
export async function checkBoundedDecode(
  codec: Codec,
  samples: readonly (CodecSample | Uint8Array)[] = defaultSamples(),
  options: Pick<CodecCheckOptions, "itemsize" | "timeout"> = {},
): Promise<void> {
  const itemsize = options.itemsize ?? 1;
  const timeout = options.timeout ?? 60000;
  const cases: { what: string; data: Uint8Array; elements: number }[] = [];
  for (const [index, raw] of samples.entries()) {
    const sample = asSample(raw, index);
    if (sample.data instanceof Uint8Array && sample.data.length >= itemsize) {
      cases.push({ what: sample.name, data: sample.data, elements: sample.data.length / itemsize - 1 });
    }
  }
  const bomb = 16 << 20;
  cases.push({
    what: "16 MiB of zeros (a decompression bomb)",
    data: new Uint8Array(bomb - (bomb % itemsize)),
    elements: Math.floor(4096 / itemsize),
  });
  for (const { what: name, data, elements } of cases) {
    const full = contextFor(data, itemsize);
    const encoded = await timed(`${name}: encode`, timeout, () => codec.encode(data, full));
    const small = { ...full, elements: Math.floor(elements) };
    const what = `${configText(codec)}: ${name} decoded as a chunk of ${small.elements * itemsize} bytes`;
    let decoded: CodecData;
    try {
      decoded = await timed(what, timeout, () => codec.decode(encoded as Uint8Array, small));
    } catch (error) {
      checkThrown(error, codec, small, what);
      continue;
    }
    throw new CodecContractError(`${what}: returned ${describeData(decoded)} instead of throwing a CodecError`);
  }
}

// ---------------------------------------------------------------------------------------------
// Everything

interface Plan {
  readonly id: string;
  readonly factory: CodecFactory | undefined;
  readonly configs: readonly CodecConfig[];
  build(config: CodecConfig): Promise<Codec>;
}

function isCodec(subject: CodecFactory | Codec): subject is Codec {
  return typeof (subject as Codec).encode === "function" && typeof (subject as Codec).decode === "function";
}

function plan(subject: CodecFactory | Codec, options: CodecCheckOptions): Plan {
  const factory = isCodec(subject) ? options.factory : subject;
  const own = isCodec(subject) ? subject.toJSON() : undefined;
  const configs = options.configs ?? [own ?? { id: subject.id }];
  return {
    id: subject.id,
    factory,
    configs,
    async build(config) {
      if (isCodec(subject) && !difference(config, own)) return subject;
      if (!factory) {
        throw new CodecContractError(`${subject.id}: to check config ${JSON.stringify(config)}, pass options.factory`);
      }
      return factory.create(config, { key: "checks/.zarray" });
    },
  };
}

interface NamedCheck {
  readonly group: string | undefined;
  readonly name: string;
  run(): Promise<void>;
}

function checks(subject: CodecFactory | Codec, options: CodecCheckOptions): NamedCheck[] {
  const p = plan(subject, options);
  const samples = options.samples ?? defaultSamples(options.itemsize);
  const list: NamedCheck[] = [];
  for (const config of p.configs) {
    const group = JSON.stringify(config, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v));
    list.push({
      group,
      name: "round-trips samples",
      run: async () => checkRoundTrip(await p.build(config), samples, options),
    });
    list.push({
      group,
      name: `handles corrupt input (${options.corruption ?? "checksum"})`,
      run: async () => checkCorruptInput(await p.build(config), samples, options),
    });
    list.push({
      group,
      name: "decodes ranges and into buffers as decode does (when it can)",
      run: async () => checkPartialDecode(await p.build(config), samples, options),
    });
    if (options.boundedDecode) {
      list.push({
        group,
        name: "refuses output larger than a chunk",
        run: async () => checkBoundedDecode(await p.build(config), samples, options),
      });
    }
  }
  if (p.factory) {
    const factory = p.factory;
    list.push({
      group: undefined,
      name: "config round trip",
      run: () => checkConfigRoundTrip(factory, p.configs, options),
    });
  } else if (isCodec(subject)) {
    list.push({
      group: undefined,
      name: "toJSON is JSON with the codec's id",
      run: async () => {
        const json = subject.toJSON();
        if (json.id !== subject.id)
          throw new CodecContractError(`${subject.id}: toJSON().id is ${JSON.stringify(json.id)}`);
        const bad = nonJson(json, "toJSON()");
        if (bad) throw new CodecContractError(`${subject.id}: ${bad}`);
      },
    });
  }
  for (const [index, fixture] of (options.encoded ?? []).entries()) {
    list.push({
      group: undefined,
      name: `decodes ${fixture.name ?? `fixture ${index}`}`,
      run: () => checkFixtures((config) => p.build(config), [fixture], options),
    });
  }
  return list;
}

/**
 * Checks a codec (or a codec factory) against the codec contract: round trips of varied buffers,
 * partial and in-place decoding (for codecs that offer them), config round trip, decoding known
 * encodings, corrupt input, and (with `boundedDecode`) refusing oversized output. Without `api`, runs every check and rejects with a `CodecContractError` at the
 * first failure. With `{ describe, it }` (vitest, jest, mocha), registers one test per check.
 */
export function checkCodec(subject: CodecFactory | Codec, options?: CodecCheckOptions): Promise<void>;
export function checkCodec(subject: CodecFactory | Codec, options: CodecCheckOptions, api: TestApi): void;
export function checkCodec(
  subject: CodecFactory | Codec,
  options: CodecCheckOptions = {},
  api?: TestApi,
): Promise<void> | void {
  const all = checks(subject, options);
  if (!api) {
    return (async () => {
      for (const check of all) await check.run();
    })();
  }
  const testTimeout = Math.max(120_000, 2 * (options.timeout ?? 60000));
  api.describe(`codec contract: ${subject.id}`, () => {
    const groups = new Map<string | undefined, NamedCheck[]>();
    for (const check of all) groups.set(check.group, [...(groups.get(check.group) ?? []), check]);
    for (const [group, members] of groups) {
      const register = () => {
        for (const check of members) api.it(check.name, () => check.run(), testTimeout);
      };
      if (group === undefined) register();
      else api.describe(group, register);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Zarr v3

/**
 * The codec a Zarr v3 `codecs` entry `name` stands for, as `@z/codecs/v3` builds it from `registry`,
 * as a factory of configs `{ id: name, ...configuration }`: its codecs have the v3 name as `id` and
 * `toJSON()` gives the configuration back (for `numcodecs.<id>` and bare registered ids, the v2
 * codec's normalised config without its `id`). A bad configuration is a `CodecConfigError`.
 */
function v3Factory(name: string, registry: CodecRegistry, itemsize: number): CodecFactory {
  const dtype = contextFor(new Uint8Array(itemsize), itemsize).dtype;
  return {
    id: name,
    async create(config) {
      const { id: _id, ...configuration } = config;
      let built: Awaited<ReturnType<typeof buildCodecV3>>;
      try {
        built = await buildCodecV3({ name, configuration }, { dtype, itemsize, elements: 1, shape: [1] }, registry, {
          key: "checks/zarr.json",
        });
      } catch (error) {
        if (!(error instanceof MetadataError)) throw error;
        throw new CodecConfigError(error.message, { codecId: name, field: error.field, key: error.key, cause: error });
      }
      if (built === undefined) throw new CodecConfigError(`${name} is not a codec z builds`, { codecId: name });
      const { codec } = built;
      const registryConfig = built.registryConfigs[0];
      const own = name.startsWith("numcodecs.") || registryConfig?.id === name;
      const json: CodecConfig =
        own && registryConfig ? { ...registryConfig, id: name } : { ...configuration, id: name };
      return renamed(codec, name, json);
    },
  };
}

/** `codec` under the v3 `name`: its `CodecError`s name the v3 codec too (`numcodecs.zlib: corrupt zlib data ...`). */
function renamed(codec: Codec, name: string, json: CodecConfig): Codec {
  const rename = (error: unknown): never => {
    if (!(error instanceof CodecError) || error.codecId === name) throw error;
    throw new CodecError(`${name}: ${error.message}`, { codecId: name, key: error.key, cause: error });
  };
  const guard =
    <A extends unknown[], R>(step: (...args: A) => R | Promise<R>) =>
    (...args: A): R | Promise<R> => {
      try {
        const result = step(...args);
        return result instanceof Promise ? result.catch(rename) : result;
      } catch (error) {
        return rename(error);
      }
    };
  const { decodeRange, decodeInto } = codec;
  return {
    id: name,
    encode: guard(codec.encode.bind(codec)),
    decode: guard(codec.decode.bind(codec)),
    ...(decodeRange && {
      decodeRange: (read, start, end, chunk) => decodeRange.call(codec, read, start, end, chunk).catch(rename),
    }),
    ...(decodeInto && { decodeInto: guard(decodeInto.bind(codec)) }),
    toJSON: () => json,
  };
}

/**
 * `checkCodec` for a codec under its Zarr v3 name: `{ name: "numcodecs.zlib", configuration: { level: 1 } }`,
 * a codec registered by its v2 id under its bare name, or a v3 core bytes → bytes codec (`gzip`,
 * `crc32c`, `blosc` and `zstd` with `@z/codecs-wasm` registered), built as `@z/codecs/v3` builds it
 * from `options.registry` (the default registry's codecs otherwise need registering there). For codecs
 * whose work does not depend on the chunk's shape (not `transpose` or `bytes`); the chunk's item size
 * is `options.itemsize` (1). `options.configs`, when given, are v3 configurations as `{ id: name, ...configuration }`.
 */
export function checkCodecV3(
  codec: NamedConfig,
  options: CodecCheckOptions & { readonly registry: CodecRegistry },
): Promise<void>;
export function checkCodecV3(
  codec: NamedConfig,
  options: CodecCheckOptions & { readonly registry: CodecRegistry },
  api: TestApi,
): void;
export function checkCodecV3(
  codec: NamedConfig,
  options: CodecCheckOptions & { readonly registry: CodecRegistry },
  api?: TestApi,
): Promise<void> | void {
  const { registry, ...rest } = options;
  const factory = v3Factory(codec.name, registry, options.itemsize ?? 1);
  const configuration: JsonObject = codec.configuration ?? {};
  const checked = { configs: [{ ...configuration, id: codec.name }], ...rest };
  return api === undefined ? checkCodec(factory, checked) : checkCodec(factory, checked, api);
}
