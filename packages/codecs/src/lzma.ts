import type { JsonValue } from "@z/meta";
import type { ChunkContext } from "./codec.js";
import { DecodeFailure, OutputBuffer, corrupt, truncated } from "./bounded-output.js";
import { decodedTooLarge, maxDecodedSize, requireBytes } from "./chunk-bytes.js";
import { field, FieldMismatch, integer, list, nullable, UnknownField, type ConfigValues } from "./config-schema.js";
import { CodecError, inChunk } from "./errors.js";
import { defineCodec, withEncoder } from "./define-codec.js";
import {
  aloneDictionarySize,
  chainOf,
  failConfig,
  filterKind,
  LZMA_FILTER_LZMA1,
  LZMA_FORMAT_ALONE,
  LZMA_FORMAT_AUTO,
  LZMA_FORMAT_RAW,
  LZMA_FORMAT_XZ,
  LZMA_PRESET_EXTREME,
  type Chain,
  type LzmaFilterSpec,
} from "./lzma-chain.js";
import { decodeLzma1, decodeLzma2, decodeProperties } from "./lzma-decode.js";
import type { encodeLzmaChunk } from "./lzma-encode.js";
import { decodeXzStream, deltaDecode, XZ_MAGIC } from "./xz.js";

export {
  LZMA_FILTER_DELTA,
  LZMA_FILTER_LZMA1,
  LZMA_FILTER_LZMA2,
  LZMA_FORMAT_ALONE,
  LZMA_FORMAT_AUTO,
  LZMA_FORMAT_RAW,
  LZMA_FORMAT_XZ,
  LZMA_PRESET_EXTREME,
  type LzmaFilterSpec,
} from "./lzma-chain.js";

const LZMA_OPTIONS: Readonly<Record<string, { min: number; max: number; also?: readonly number[] }>> = {
  preset: { min: 0, max: 9, also: Array.from({ length: 10 }, (_, i) => LZMA_PRESET_EXTREME + i) },
  dict_size: { min: 4096, max: 1.5 * 2 ** 30 },
  lc: { min: 0, max: 4 },
  lp: { min: 0, max: 4 },
  pb: { min: 0, max: 4 },
  mode: { min: 1, max: 2 },
  nice_len: { min: 2, max: 273 },
  mf: { min: 3, max: 4, also: [0x12, 0x13, 0x14] },
  depth: { min: 0, max: 0xffffffff },
};
const DELTA_OPTIONS: Readonly<Record<string, { min: number; max: number }>> = { dist: { min: 1, max: 256 } };
const BCJ_NAMES: Readonly<Record<number, string>> = {
  4: "x86",
  5: "PowerPC",
  6: "IA-64",
  7: "ARM",
  8: "ARM-Thumb",
  9: "SPARC",
};

const FILTER_EXPECTED = 'a filter {"id": 33 (LZMA2) | 4611686018427387905 (LZMA1) | 3 (delta), ...options}';

/** One filter of `filters`: its id and options checked as liblzma checks them. */
const filterSpec = field<LzmaFilterSpec>({
  kind: "object",
  expected: FILTER_EXPECTED,
  parse(value) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || ArrayBuffer.isView(value)) {
      throw new FieldMismatch(FILTER_EXPECTED, value);
    }
    const entries = value as { readonly [key: string]: JsonValue };
    const id = entries.id;
    if (typeof id !== "number" && typeof id !== "bigint") throw new FieldMismatch("a filter id", id, ["id"]);
    const kind = filterKind(id);
    if (!kind) {
      const bcj = BCJ_NAMES[Number(id)];
      throw new FieldMismatch(
        bcj
          ? `a supported filter (the ${bcj} BCJ filter is not supported)`
          : "the id of a filter: 33 (LZMA2), 4611686018427387905 (LZMA1) or 3 (delta)",
        id,
        ["id"],
      );
    }
    const allowed = kind === "delta" ? DELTA_OPTIONS : LZMA_OPTIONS;
    const out: Record<string, number | bigint> = {};
    for (const [key, option] of Object.entries(entries)) {
      if (key === "id") {
        out.id = kind === "lzma1" ? LZMA_FILTER_LZMA1 : Number(id);
        continue;
      }
      const range = allowed[key];
      if (!range) throw new UnknownField(["id", ...Object.keys(allowed)], option, [key]);
      const n = typeof option === "number" || typeof option === "bigint" ? Number(option) : NaN;
      const ok =
        Number.isInteger(n) &&
        ((n >= range.min && n <= range.max) || ((range as { also?: number[] }).also ?? []).includes(n));
      if (!ok) throw new FieldMismatch(`an integer from ${range.min} to ${range.max}`, option, [key]);
      out[key] = n;
    }
    if (kind !== "delta") {
      const lc = out.lc ?? 3;
      const lp = out.lp ?? 0;
      if (Number(lc) + Number(lp) > 4) throw new FieldMismatch("lc + lp of at most 4", value);
    }
    return Object.freeze(out) as LzmaFilterSpec;
  },
});

/** A preset level 0-9, optionally or-ed with `PRESET_EXTREME` (0x80000000). */
const preset = field<number>({
  kind: "integer",
  expected: "a preset from 0 to 9, optionally | 0x80000000 (PRESET_EXTREME)",
  parse(value) {
    const n = typeof value === "number" || typeof value === "bigint" ? Number(value) : NaN;
    const level = n >= LZMA_PRESET_EXTREME ? n - LZMA_PRESET_EXTREME : n;
    if (!Number.isInteger(n) || level < 0 || level > 9) {
      throw new FieldMismatch("a preset from 0 to 9, optionally | 0x80000000 (PRESET_EXTREME)", value);
    }
    return n;
  },
});

/**
 * numcodecs `LZMA(format=1, check=-1, preset=None, filters=None)`:
 * `{"id": "lzma", "format": 1, "check": -1, "preset": null, "filters": null}`.
 */
export const lzmaConfig = {
  format: integer({ min: 0, max: 3, default: LZMA_FORMAT_XZ }),
  check: integer({ min: -1, max: 15, default: -1 }),
  preset: nullable(preset, { default: null }),
  filters: nullable(list(filterSpec, { minLength: 1, maxLength: 4 }), { default: null }),
};

/**
 * numcodecs `LZMA`: Python's `lzma.compress(buf, format, check, preset, filters)` and
 * `lzma.decompress(buf, format, filters=filters)`, in pure TypeScript.
 *
 * Formats: `1` .xz (CRC-32, CRC-64 — the default — SHA-256 or no check), `2` .lzma ("alone"),
 * `3` raw (needs `filters`), `0` auto (decoding only, .xz or .lzma). Filter chains: LZMA2 or
 * LZMA1 (raw and .lzma only), after up to three delta filters; BCJ filters are not supported.
 * Presets 0-9 (| `PRESET_EXTREME`) set the dictionary size as liblzma's do (256 KiB to 64 MiB)
 * and how hard the encoder searches; the encoder is its own (hash chains, lazy parsing), so the
 * bytes differ from liblzma's though any xz/lzma decoder reads them.
 *
 * Decoding reads what `lzma.decompress` reads: concatenated streams, .xz with any number of
 * blocks, every check, index and footer verified; after a complete stream, data that is not a
 * valid stream is ignored but a truncated one is an error. Output larger than the chunk is refused.
 * Unlike Python, a config with both `format` 1 or 2 and `filters` also decodes (the container says
 * how it was filtered).
 */
export const lzma = defineCodec({
  id: "lzma",
  config: lzmaConfig,
  create: (config) => ({
    encode: (data, chunk) => {
      const bytes = requireBytes(data, "lzma", chunk);
      return withEncoder("lzma", "lzma", chunk, (m: { encodeLzmaChunk: typeof encodeLzmaChunk }) =>
        m.encodeLzmaChunk(bytes, config, chunk),
      );
    },
    decode: (data, chunk) => decodeLzmaChunk(requireBytes(data, "lzma", chunk), config, chunk),
  }),
});

type LzmaConfig = ConfigValues<typeof lzmaConfig>;

// ---------------------------------------------------------------------------------------------
// Decoding

function decodeLzmaChunk(data: Uint8Array, config: LzmaConfig, chunk: ChunkContext): Uint8Array {
  const { format, filters } = config;
  let raw: Chain | undefined;
  if (format === LZMA_FORMAT_RAW) {
    if (filters === null) failConfig(chunk, "must specify filters for FORMAT_RAW");
    raw = chainOf(filters, format, chunk);
  }
  const limit = maxDecodedSize(chunk);
  const out = new OutputBuffer(limit, Number.isFinite(limit) ? limit : data.length * 4);
  try {
    let pos = 0;
    for (let streams = 0; ; streams++) {
      const start = out.length;
      try {
        pos = decodeStream(data, pos, out, format, raw);
      } catch (error) {
        // Like Python's lzma.decompress, ignore invalid data after a complete stream.
        if (streams > 0 && error instanceof DecodeFailure && error.problem === "corrupt") {
          out.length = start;
          break;
        }
        throw error;
      }
      if (pos >= data.length) break;
    }
  } catch (error) {
    if (!(error instanceof DecodeFailure)) throw error;
    if (error.problem === "too-large") throw decodedTooLarge("lzma", chunk, limit);
    throw new CodecError(`corrupt lzma data${inChunk(chunk.key)}: ${error.message}`, {
      codecId: "lzma",
      key: chunk.key,
      cause: error,
    });
  }
  return out.result();
}

function decodeStream(
  data: Uint8Array,
  pos: number,
  out: OutputBuffer,
  format: number,
  raw: Chain | undefined,
): number {
  if (format === LZMA_FORMAT_XZ) return decodeXzStream(data, pos, out);
  if (format === LZMA_FORMAT_ALONE) return decodeAlone(data, pos, out, false);
  if (format === LZMA_FORMAT_AUTO) {
    if (pos >= data.length) truncated();
    return data[pos] === XZ_MAGIC[0] ? decodeXzStream(data, pos, out) : decodeAlone(data, pos, out, true);
  }
  const chain = raw!;
  const start = out.length;
  const end =
    chain.last === "lzma2" ? decodeLzma2(data, pos, out) : decodeLzma1(data, pos, out, chain.options, undefined);
  for (let i = chain.deltas.length - 1; i >= 0; i--) deltaDecode(out.bytes, start, out.length, chain.deltas[i]!);
  return end;
}

/**
 * A .lzma stream: properties byte, dictionary size, uncompressed size (all ones: unknown, the end
 * marker ends the data). `picky` (format auto) refuses headers liblzma would not recognise as .lzma.
 */
function decodeAlone(data: Uint8Array, pos: number, out: OutputBuffer, picky: boolean): number {
  if (data.length - pos < 13) truncated();
  const properties = decodeProperties(data[pos]!);
  const view = new DataView(data.buffer, data.byteOffset + pos, 13);
  const dictSize = view.getUint32(1, true);
  const low = view.getUint32(5, true);
  const high = view.getUint32(9, true);
  const unknown = low === 0xffffffff && high === 0xffffffff;
  if (picky) {
    if (dictSize !== 0xffffffff && aloneDictionarySize(dictSize) !== dictSize) corrupt("not xz or lzma data");
    if (!unknown && high >= 64) corrupt("not xz or lzma data");
  }
  return decodeLzma1(data, pos + 13, out, properties, unknown ? undefined : high * 2 ** 32 + low);
}
