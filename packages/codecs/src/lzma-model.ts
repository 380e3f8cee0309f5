/*
 * The LZMA probability model, shared by the decoder and the encoder (not exported from the
 * package): where each group of adaptive probabilities lives in one Uint16Array.
 */

/** Literal context bits (0-8), literal position bits (0-4), position bits (0-4). */
export interface LzmaProperties {
  readonly lc: number;
  readonly lp: number;
  readonly pb: number;
}

/** Offsets inside a length coder: two choice bits, then low/mid trees per position state, then high. */
export const LEN_CHOICE = 0;
export const LEN_CHOICE2 = 1;
export const LEN_LOW = 2;
export const LEN_MID = LEN_LOW + 16 * 8;
export const LEN_HIGH = LEN_MID + 16 * 8;
const LEN_SIZE = LEN_HIGH + 256;

/** Probabilities are 11-bit; every one starts at one half. */
export const PROBABILITY_INIT = 1024;

export class Model {
  readonly lc: number;
  readonly lp: number;
  readonly pb: number;
  // 12 states × 16 position states for the per-position bits; 4 length states × 64 slots.
  readonly isMatch = 0;
  readonly isRep = this.isMatch + 12 * 16;
  readonly isRepG0 = this.isRep + 12;
  readonly isRepG1 = this.isRepG0 + 12;
  readonly isRepG2 = this.isRepG1 + 12;
  readonly isRep0Long = this.isRepG2 + 12;
  readonly posSlot = this.isRep0Long + 12 * 16;
  /** Reverse trees for the low bits of distances of slots 4 to 13 (114 probabilities). */
  readonly specPos = this.posSlot + 4 * 64;
  readonly align = this.specPos + 114;
  readonly lenCoder = this.align + 16;
  readonly repLenCoder = this.lenCoder + LEN_SIZE;
  /** 0x300 probabilities for each of the 2^(lc + lp) literal contexts. */
  readonly literalBase = this.repLenCoder + LEN_SIZE;
  readonly probs: Uint16Array;

  constructor({ lc, lp, pb }: LzmaProperties) {
    this.lc = lc;
    this.lp = lp;
    this.pb = pb;
    this.probs = new Uint16Array(this.literalBase + (0x300 << (lc + lp)));
    this.reset();
  }

  reset(): void {
    this.probs.fill(PROBABILITY_INIT);
  }
}

/** What the encoder does; liblzma's presets map onto these (see `lzmaPresetOptions`). */
export interface LzmaEncoderOptions extends LzmaProperties {
  /** The dictionary size: no match reaches further back. */
  readonly dictSize: number;
  /** Matches this long are taken without looking further (2 to 273). */
  readonly niceLength: number;
  /** How many hash-chain candidates to try per position; 0 for liblzma's default for `mf`. */
  readonly depth: number;
  /** liblzma's match finder id (HC3 3, HC4 4, BT2-BT4 0x12-0x14): here only sets the default depth. */
  readonly mf: number;
  /** `fast` (liblzma presets 0-3) or `normal` (4-9): normal also looks two bytes ahead. */
  readonly mode: "fast" | "normal";
}

/** liblzma's dictionary sizes by preset level (0-9). */
const PRESET_DICT_BITS = [18, 20, 21, 22, 22, 23, 23, 24, 25, 26] as const;

/** The options of a liblzma preset: level 0-9, optionally `| 0x80000000` (extreme). */
export function lzmaPresetOptions(preset: number): LzmaEncoderOptions {
  const level = preset % 0x80000000;
  const extreme = preset >= 0x80000000;
  const dictSize = 2 ** PRESET_DICT_BITS[level]!;
  if (extreme) {
    const nice = level === 3 || level === 5;
    return {
      lc: 3,
      lp: 0,
      pb: 2,
      dictSize,
      mode: "normal",
      mf: 0x14,
      niceLength: nice ? 192 : 273,
      depth: nice ? 0 : 512,
    };
  }
  if (level <= 3) {
    const niceLength = level <= 1 ? 128 : 273;
    return {
      lc: 3,
      lp: 0,
      pb: 2,
      dictSize,
      mode: "fast",
      mf: level === 0 ? 3 : 4,
      niceLength,
      depth: [4, 8, 24, 48][level]!,
    };
  }
  const niceLength = level === 4 ? 16 : level === 5 ? 32 : 64;
  return { lc: 3, lp: 0, pb: 2, dictSize, mode: "normal", mf: 0x14, niceLength, depth: 0 };
}
