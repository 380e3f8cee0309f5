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
