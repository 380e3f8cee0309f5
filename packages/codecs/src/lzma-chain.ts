/*
 * What LZMA's decoder and encoder share (not exported from the package): Python's constants, filter
 * specs and the filter chain they describe.
 */
import type { ChunkContext } from "./codec.js";
import { CodecError, inChunk } from "./errors.js";
import { lzmaPresetOptions, type LzmaEncoderOptions } from "./lzma-model.js";
import { FILTER_DELTA, FILTER_LZMA2 } from "./xz.js";

/** Python's `lzma.FORMAT_*`. */
export const LZMA_FORMAT_AUTO = 0;
export const LZMA_FORMAT_XZ = 1;
export const LZMA_FORMAT_ALONE = 2;
export const LZMA_FORMAT_RAW = 3;
/** Python's `lzma.FILTER_LZMA1` (0x4000000000000001, beyond 2^53: a bigint). */
export const LZMA_FILTER_LZMA1 = 0x4000000000000001n;
/** Python's `lzma.FILTER_LZMA2`. */
export const LZMA_FILTER_LZMA2 = FILTER_LZMA2;
/** Python's `lzma.FILTER_DELTA`. */
export const LZMA_FILTER_DELTA = FILTER_DELTA;
/** Python's `lzma.PRESET_EXTREME`, or-ed into a preset level. */
export const LZMA_PRESET_EXTREME = 0x80000000;

/**
 * A filter of a filter chain, as Python's `lzma` module takes it: `{"id": 33, "preset": 9}`,
 * `{"id": 3, "dist": 4}`. LZMA1/LZMA2 filters may set `preset`, `dict_size`, `lc`, `lp`, `pb`,
 * `mode`, `nice_len`, `mf`, `depth`; delta filters `dist`.
 */
export interface LzmaFilterSpec {
  readonly id: number | bigint;
  readonly [option: string]: number | bigint;
}

export type FilterKind = "lzma1" | "lzma2" | "delta";

export function filterKind(id: number | bigint): FilterKind | undefined {
  if (id === LZMA_FILTER_LZMA1 || id === 2 ** 62) return "lzma1";
  if (id === 33 || id === 33n) return "lzma2";
  if (id === 3 || id === 3n) return "delta";
  return undefined;
}

export interface Chain {
  /** Delta distances, in chain order. */
  readonly deltas: number[];
  readonly last: "lzma1" | "lzma2";
  readonly options: LzmaEncoderOptions;
}

/** The encoder options of an LZMA1/LZMA2 filter spec: its preset, then its own options. */
export function filterOptions(spec: LzmaFilterSpec | undefined, presetLevel: number): LzmaEncoderOptions {
  const base = lzmaPresetOptions(spec?.preset === undefined ? presetLevel : Number(spec.preset));
  if (!spec) return base;
  const get = (key: string, fallback: number) => (spec[key] === undefined ? fallback : Number(spec[key]));
  return {
    lc: get("lc", base.lc),
    lp: get("lp", base.lp),
    pb: get("pb", base.pb),
    dictSize: get("dict_size", base.dictSize),
    niceLength: get("nice_len", base.niceLength),
    depth: get("depth", base.depth),
    mf: get("mf", base.mf),
    mode: spec.mode === undefined ? base.mode : Number(spec.mode) === 1 ? "fast" : "normal",
  };
}

export function failConfig(chunk: ChunkContext, message: string): never {
  throw new CodecError(`codec lzma${inChunk(chunk.key)}: ${message}`, { codecId: "lzma", key: chunk.key });
}

/** The chain `filters` describe, checked for `format` (Python's rules). */
export function chainOf(filters: readonly LzmaFilterSpec[], format: number, chunk: ChunkContext): Chain {
  const deltas: number[] = [];
  for (const [index, spec] of filters.entries()) {
    const kind = filterKind(spec.id)!;
    const last = index === filters.length - 1;
    if (kind === "delta") {
      if (last || format === LZMA_FORMAT_ALONE) break;
      deltas.push(spec.dist === undefined ? 1 : Number(spec.dist));
      continue;
    }
    if (!last) break;
    if (format === LZMA_FORMAT_ALONE && (kind !== "lzma1" || filters.length !== 1)) break;
    if (format === LZMA_FORMAT_XZ && kind !== "lzma2") break;
    return { deltas, last: kind, options: filterOptions(spec, 6) };
  }
  return failConfig(
    chunk,
    format === LZMA_FORMAT_ALONE
      ? "invalid filter chain for FORMAT_ALONE: must be a single LZMA1 filter"
      : format === LZMA_FORMAT_XZ
        ? "invalid filter chain for FORMAT_XZ: delta filters then LZMA2"
        : "invalid filter chain for FORMAT_RAW: delta filters then LZMA1 or LZMA2",
  );
}

/** The dictionary size a .lzma header states: rounded up to 2^n or 2^n + 2^(n-1), as liblzma does. */
export function aloneDictionarySize(size: number): number {
  for (let bits = 0; bits < 32; bits++) {
    if (2 ** bits >= size) return 2 ** bits;
    if (3 * 2 ** (bits - 1) >= size) return 3 * 2 ** (bits - 1);
  }
  return 0xffffffff;
}
