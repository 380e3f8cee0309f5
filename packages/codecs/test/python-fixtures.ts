/**
 * The fixtures test/python/numcodecs_fixtures.py wrote with numcodecs 0.11 (see that script for
 * their layout), loaded for the filter, checksum and object codec tests.
 */
import { readFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import {
  byteSwapInPlace,
  JsonFloat,
  parseDataType,
  parseJson,
  typedArrayConstructor,
  valuesPerElement,
  type CodecConfig,
  type DataType,
  type JsonValue,
} from "@z/meta";
import type { ChunkContext, Codec, CodecData } from "@z/codecs";
import { MsgpackExt } from "@z/codecs";
import { contextFor, defaultSamples, type CodecSample } from "@z/codecs/testing";

/**
 * A fixture file, parsed (once, when first needed) as zarr reads JSON: keeping Python floats
 * (`1000.0`) apart from ints, and NaN readable.
 */
function load<T>(name: string): () => T {
  let value: T | undefined;
  return () =>
    (value ??= parseJson(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)), name, {
      keepFloats: true,
    }) as T);
}

export const bytes = (base64: string): Uint8Array => new Uint8Array(Buffer.from(base64, "base64"));

export interface FilterCase {
  readonly name: string;
  readonly config: CodecConfig;
  /** The dtype of `input` (absent for decode-only cases). */
  readonly dtype?: string;
  readonly input?: string;
  readonly encoded: string;
  readonly decoded: string;
}

export const filterFixtures = load<{
  numcodecs: string;
  cases: FilterCase[];
  quantizeScales: [number, string][];
  resultTypes: [string, { int?: string; float?: string }, string | null][];
  configs: { arguments: Record<string, JsonValue>; config: CodecConfig }[];
}>("numcodecs-filters.json");

export function filterCases(id: string): FilterCase[] {
  return filterFixtures().cases.filter((c) => c.config.id === id);
}

/** A chunk context for a filter's input: its dtype, one dimension. */
export function filterContext(dtype: string | undefined, data: Uint8Array): ChunkContext {
  if (dtype === undefined) return contextFor(data);
  const type = parseDataType(dtype);
  return { dtype: type, itemsize: type.itemsize, elements: data.length / type.itemsize, key: "fixtures/0" };
}

export interface ChecksumCase {
  readonly name: string;
  readonly config: CodecConfig;
  readonly input: string;
  readonly checksum: string;
  readonly at: "start" | "end";
}

type ChecksumFile = { inputs: Record<string, string>; cases: ChecksumCase[] };

/** numcodecs 0.11's checksums (numcodecs_fixtures.py), and 0.16's: crc32c, `location` (numcodecs_016_fixtures.py). */
const checksumFiles = {
  "0.11": load<ChecksumFile>("numcodecs-checksums.json"),
  "0.16": load<ChecksumFile>("numcodecs-0.16-checksums.json"),
};

/** The numcodecs version whose checksum fixtures to use. */
export type ChecksumFixtureVersion = keyof typeof checksumFiles;

/** Each checksum case as input bytes and the bytes the codec encodes them to. */
export function checksumCases(
  id: string,
  version: ChecksumFixtureVersion = "0.11",
): { name: string; config: CodecConfig; input: Uint8Array; encoded: Uint8Array }[] {
  const file = checksumFiles[version]();
  return file.cases
    .filter((c) => c.config.id === id)
    .map((c) => {
      const input = bytes(file.inputs[c.input]!);
      const checksum = Uint8Array.from(Buffer.from(c.checksum, "hex"));
      const encoded = new Uint8Array(input.length + 4);
      encoded.set(c.at === "start" ? checksum : input);
      encoded.set(c.at === "start" ? input : checksum, c.at === "start" ? 4 : input.length);
      return { name: c.name, config: c.config, input, encoded };
    });
}

export interface ObjectCase {
  readonly name: string;
  readonly config: CodecConfig;
  readonly encoded?: string;
  readonly encodedDeflated?: string;
  /** Tagged object values (object arrays) … */
  readonly input?: unknown;
  /** … or the dtype and bytes of a numeric array. */
  readonly dtype?: string;
  readonly bytes?: string;
  readonly shape?: number[];
  readonly decoded?: unknown;
  readonly decodedBytes?: string;
  readonly decodeError?: string;
}

const objectFile = load<{
  cases: ObjectCase[];
  base64: { name: string; config: CodecConfig; input?: string; encoded: string; decoded?: string; error?: string }[];
}>("numcodecs-objects.json");

export const base64Fixtures = () => objectFile().base64;

export function objectCases(id: string): ObjectCase[] {
  return objectFile().cases.filter((c) => c.config.id === id);
}

export function encodedOf(c: ObjectCase): Uint8Array {
  return c.encoded !== undefined ? bytes(c.encoded) : new Uint8Array(inflateSync(bytes(c.encodedDeflated!)));
}

/** What the codec encodes for the case, and the chunk context it encodes it in. */
export function objectInput(c: ObjectCase): { data: CodecData; context: ChunkContext } {
  if (c.input !== undefined) {
    const values = untag(c.input) as unknown[];
    const dtype: DataType = { kind: "O", byteOrder: "|", itemsize: 8 };
    return {
      data: values,
      context: { dtype, itemsize: 8, elements: values.length, key: "fixtures/0", shape: c.shape },
    };
  }
  const data = bytes(c.bytes!);
  const dtype = parseDataType(c.dtype!);
  const elements = data.length / dtype.itemsize;
  return { data, context: { dtype, itemsize: dtype.itemsize, elements, key: "fixtures/0", shape: c.shape } };
}

/** What numcodecs decoded the case's bytes to (undefined when it failed to). */
export function objectDecoded(c: ObjectCase): CodecData | undefined {
  if (c.decoded !== undefined) return untag(c.decoded) as unknown[];
  if (c.decodedBytes !== undefined) return bytes(c.decodedBytes);
  return undefined;
}

function pyFloatOf(repr: string): number | JsonFloat {
  const value = repr === "nan" ? NaN : repr === "inf" ? Infinity : repr === "-inf" ? -Infinity : Number(repr);
  return Number.isInteger(value) ? new JsonFloat(value) : value;
}

/** Rebuilds the JS value of a tagged Python value (see the generator's docstring). */
export function untag(value: unknown): unknown {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(untag);
  const tagged = value as Record<string, unknown>;
  if ("int" in tagged) {
    const big = BigInt(tagged.int as string);
    return big >= -(2n ** 53n) && big <= 2n ** 53n ? Number(big) : big;
  }
  if ("float" in tagged) return pyFloatOf(tagged.float as string);
  if ("str" in tagged) {
    const { repeat, count } = tagged.str as { repeat: string; count: number };
    return repeat.repeat(count);
  }
  if ("bytes" in tagged) {
    const spec = tagged.bytes;
    if (typeof spec === "string") return bytes(spec);
    const { repeat, count } = spec as { repeat: number; count: number };
    return new Uint8Array(count).fill(repeat);
  }
  if ("repeat" in tagged) return Array.from({ length: tagged.count as number }, () => untag(tagged.repeat));
  if ("dict" in tagged) {
    const entries = (tagged.dict as [unknown, unknown][]).map(([k, v]) => [untag(k), untag(v)] as const);
    if (entries.some(([k]) => typeof k !== "string")) return new Map(entries);
    const object: Record<string, unknown> = {};
    for (const [k, v] of entries)
      Object.defineProperty(object, k as string, { value: v, enumerable: true, writable: true, configurable: true });
    return object;
  }
  if ("ndarray" in tagged) {
    const dtype = parseDataType(tagged.ndarray as string);
    const raw = bytes(tagged.data as string);
    byteSwapInPlace(raw, dtype);
    const Constructor = typedArrayConstructor(dtype);
    return new Constructor(raw.buffer as ArrayBuffer, 0, (raw.length / dtype.itemsize) * valuesPerElement(dtype));
  }
  if ("ext" in tagged) return new MsgpackExt(tagged.ext as number, bytes(tagged.data as string));
  throw new Error(`unknown tag ${JSON.stringify(value)}`);
}

export function hex(data: Uint8Array): string {
  return Buffer.from(data).toString("hex");
}

/**
 * Registers one test per numcodecs fixture of a filter: the config round-trips exactly, encoding
 * the input gives numcodecs' bytes, and decoding those gives what numcodecs decoded them to.
 */
export function checkFilterFixtures(
  factory: { create(config: CodecConfig): Codec },
  id: string,
  api: {
    describe: (name: string, body: () => void) => void;
    it: (name: string, body: () => Promise<void>) => void;
    expect: typeof import("vitest").expect;
  },
): void {
  const { describe, it, expect } = api;
  const cases = filterCases(id);
  describe(`${id}: numcodecs ${filterFixtures().numcodecs} fixtures (${cases.length})`, () => {
    for (const c of cases) {
      it(c.name, async () => {
        const codec = factory.create(c.config);
        expect(codec.toJSON()).toEqual(c.config);
        const encoded = bytes(c.encoded);
        if (c.input !== undefined) {
          const input = bytes(c.input);
          const out = (await codec.encode(input, filterContext(c.dtype, input))) as Uint8Array;
          expect(hex(out)).toBe(hex(encoded));
        }
        const decoded = (await codec.decode(encoded, filterContext(c.dtype, bytes(c.decoded)))) as Uint8Array;
        expect(hex(decoded)).toBe(hex(bytes(c.decoded)));
      });
    }
  });
}

/**
 * The contract kit's default samples without the 1 MiB one, for filters that compute element by
 * element in JS (the fixtures check their values; the kit checks the contract, which small inputs
 * show as well).
 */
export function filterSamples(itemsize: number): CodecSample[] {
  return defaultSamples(itemsize).filter((sample) => !sample.name.startsWith("large"));
}
