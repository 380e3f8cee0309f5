/*
 * LZMA and LZMA2 decoding (not exported from the package).
 *
 * The decoder writes into the output buffer, which is also its dictionary: matches copy from
 * earlier output, never further back than the last dictionary reset. A range decoder that runs
 * past its input reads zeros and the decoder reports the overrun (a truncated LZMA stream, or an
 * LZMA2 chunk whose compressed size is too small).
 */
import { DecodeFailure, type OutputBuffer, corrupt, truncated } from "./bounded-output.js";
import { LEN_CHOICE, LEN_CHOICE2, LEN_HIGH, LEN_LOW, LEN_MID, Model, type LzmaProperties } from "./lzma-model.js";

const TOP = 0x1000000;

/** Range decoding of one LZMA stream or LZMA2 chunk from `data[pos..end)`. */
class RangeDecoder {
  data: Uint8Array = new Uint8Array(0);
  pos = 0;
  end = 0;
  range = 0;
  code = 0;

  init(data: Uint8Array, pos: number, end: number): void {
    if (end - pos < 5) truncated();
    if (data[pos] !== 0) corrupt("invalid range coder start (first byte not zero)");
    this.data = data;
    this.code = ((data[pos + 1]! << 24) | (data[pos + 2]! << 16) | (data[pos + 3]! << 8) | data[pos + 4]!) >>> 0;
    this.range = 0xffffffff;
    this.pos = pos + 5;
    this.end = end;
    if (this.code === 0xffffffff) corrupt("invalid range coder start");
  }

  /** Whether more bytes were read than the input holds. */
  overrun(): boolean {
    return this.pos > this.end;
  }

  bit(probs: Uint16Array, index: number): number {
    const p = probs[index]!;
    const bound = (this.range >>> 11) * p;
    let bit: number;
    if (this.code < bound) {
      this.range = bound;
      probs[index] = p + ((2048 - p) >>> 5);
      bit = 0;
    } else {
      this.range -= bound;
      this.code -= bound;
      probs[index] = p - (p >>> 5);
      bit = 1;
    }
    if (this.range < TOP) {
      this.range = (this.range << 8) >>> 0;
      this.code = ((this.code << 8) | (this.pos < this.end ? this.data[this.pos]! : 0)) >>> 0;
      this.pos++;
    }
    return bit;
  }

  /** `bits` bits through a binary tree of probabilities at `probs[base + 1 ..]`, most significant first. */
  tree(probs: Uint16Array, base: number, bits: number): number {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) | this.bit(probs, base + m);
    return m - (1 << bits);
  }

  /** Like `tree`, least significant bit first. */
  reverseTree(probs: Uint16Array, base: number, bits: number): number {
    let m = 1;
    let symbol = 0;
    for (let i = 0; i < bits; i++) {
      const bit = this.bit(probs, base + m);
      m = (m << 1) | bit;
      symbol |= bit << i;
    }
    return symbol;
  }

  /** `count` bits of probability one half, most significant first. */
  direct(count: number): number {
    let result = 0;
    for (let i = 0; i < count; i++) {
      this.range >>>= 1;
      let bit = 0;
      if (this.code >= this.range) {
        this.code -= this.range;
        bit = 1;
      }
      result = result * 2 + bit;
      if (this.range < TOP) {
        this.range = (this.range << 8) >>> 0;
        this.code = ((this.code << 8) | (this.pos < this.end ? this.data[this.pos]! : 0)) >>> 0;
        this.pos++;
      }
    }
    return result;
  }
}

/** The LZMA decoder: a model and state that persist across LZMA2 chunks. */
export class LzmaDecoder {
  readonly rc = new RangeDecoder();
  model: Model | undefined;
  state = 0;
  rep0 = 0;
  rep1 = 0;
  rep2 = 0;
  rep3 = 0;
  /** Bytes of a match still to copy when the last `decode` stopped at its limit. */
  pending = 0;
  /** Set when the end-of-payload marker has been decoded. */
  ended = false;
  /** Where in the output the dictionary starts (the last dictionary reset). */
  dictStart = 0;

  setProperties(properties: LzmaProperties): void {
    const model = this.model;
    if (!model || model.lc !== properties.lc || model.lp !== properties.lp || model.pb !== properties.pb) {
      this.model = new Model(properties);
    }
    this.reset();
  }

  /** Resets the state and probabilities (not the dictionary). */
  reset(): void {
    this.model!.reset();
    this.state = 0;
    this.rep0 = this.rep1 = this.rep2 = this.rep3 = 0;
    this.pending = 0;
    this.ended = false;
  }

  /**
   * Decodes into `out` from `pos` until `limit` or the end marker (`ended`); returns the new
   * position. Fails on invalid distances; the caller checks `rc.overrun()`.
   */
  decode(out: Uint8Array, pos: number, limit: number): number {
    const rc = this.rc;
    const model = this.model!;
    const probs = model.probs;
    const { lc, literalBase, isMatch, isRep, isRepG0, isRepG1, isRepG2, isRep0Long, lenCoder, repLenCoder } = model;
    const pbMask = (1 << model.pb) - 1;
    const lpMask = (1 << model.lp) - 1;
    const dictStart = this.dictStart;
    let { state, rep0, rep1, rep2, rep3 } = this;

    if (this.pending > 0) {
      const n = Math.min(this.pending, limit - pos);
      copyMatch(out, pos, rep0, n);
      pos += n;
      this.pending -= n;
    }
    while (pos < limit) {
      if (rc.pos > rc.end) break;
      const posState = (pos - dictStart) & pbMask;
      if (rc.bit(probs, isMatch + (state << 4) + posState) === 0) {
        // A literal, coded in the context of the previous byte and the position.
        const previous = pos > dictStart ? out[pos - 1]! : 0;
        const base = literalBase + 0x300 * ((((pos - dictStart) & lpMask) << lc) + (previous >>> (8 - lc)));
        let symbol = 1;
        if (state >= 7) {
          // After a match: coded against the byte at rep0 until the first bit that differs.
          const at = pos - rep0 - 1;
          let matchByte = at >= dictStart ? out[at]! : 0;
          do {
            const matchBit = (matchByte >>> 7) & 1;
            matchByte <<= 1;
            const bit = rc.bit(probs, base + ((1 + matchBit) << 8) + symbol);
            symbol = (symbol << 1) | bit;
            if (matchBit !== bit) break;
          } while (symbol < 0x100);
        }
        while (symbol < 0x100) symbol = (symbol << 1) | rc.bit(probs, base + symbol);
        out[pos++] = symbol & 0xff;
        state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
        continue;
      }
      let length: number;
      if (rc.bit(probs, isRep + state) === 0) {
        // A match with a new distance.
        length = decodeLength(rc, probs, lenCoder, posState);
        state = state < 7 ? 7 : 10;
        const distance = decodeDistance(rc, probs, model, length);
        if (distance === 0xffffffff) {
          this.ended = true;
          break;
        }
        rep3 = rep2;
        rep2 = rep1;
        rep1 = rep0;
        rep0 = distance;
      } else {
        if (pos === dictStart) corrupt("repeated match before any data");
        if (rc.bit(probs, isRepG0 + state) === 0) {
          if (rc.bit(probs, isRep0Long + (state << 4) + posState) === 0) {
            // A "short rep": one byte from rep0.
            state = state < 7 ? 9 : 11;
            if (rep0 >= pos - dictStart) corrupt("match distance beyond the start of the data");
            out[pos] = out[pos - rep0 - 1]!;
            pos++;
            continue;
          }
        } else {
          let distance: number;
          if (rc.bit(probs, isRepG1 + state) === 0) {
            distance = rep1;
          } else {
            if (rc.bit(probs, isRepG2 + state) === 0) {
              distance = rep2;
            } else {
              distance = rep3;
              rep3 = rep2;
            }
            rep2 = rep1;
          }
          rep1 = rep0;
          rep0 = distance;
        }
        length = decodeLength(rc, probs, repLenCoder, posState);
        state = state < 7 ? 8 : 11;
      }
      if (rep0 >= pos - dictStart) corrupt("match distance beyond the start of the data");
      const n = Math.min(length, limit - pos);
      copyMatch(out, pos, rep0, n);
      pos += n;
      this.pending = length - n;
    }
    this.state = state;
    this.rep0 = rep0;
    this.rep1 = rep1;
    this.rep2 = rep2;
    this.rep3 = rep3;
    return pos;
  }

  /** Decodes one symbol that must be the end marker (after the stated size of a .lzma stream). */
  expectEndMarker(pos: number): void {
    const rc = this.rc;
    const model = this.model!;
    const posState = (pos - this.dictStart) & ((1 << model.pb) - 1);
    const probs = model.probs;
    if (
      rc.bit(probs, model.isMatch + (this.state << 4) + posState) === 0 ||
      rc.bit(probs, model.isRep + this.state) === 1
    ) {
      corrupt("data continues past the uncompressed size");
    }
    const length = decodeLength(rc, probs, model.lenCoder, posState);
    if (decodeDistance(rc, probs, model, length) !== 0xffffffff) corrupt("data continues past the uncompressed size");
    this.ended = true;
  }
}

function copyMatch(out: Uint8Array, pos: number, rep0: number, n: number): void {
  const from = pos - rep0 - 1;
  if (rep0 + 1 >= n) {
    out.copyWithin(pos, from, from + n);
  } else {
    for (let k = 0; k < n; k++) out[pos + k] = out[from + k]!;
  }
}

function decodeLength(rc: RangeDecoder, probs: Uint16Array, base: number, posState: number): number {
  if (rc.bit(probs, base + LEN_CHOICE) === 0) return 2 + rc.tree(probs, base + LEN_LOW + (posState << 3), 3);
  if (rc.bit(probs, base + LEN_CHOICE2) === 0) return 10 + rc.tree(probs, base + LEN_MID + (posState << 3), 3);
  return 18 + rc.tree(probs, base + LEN_HIGH, 8);
}

function decodeDistance(rc: RangeDecoder, probs: Uint16Array, model: Model, length: number): number {
  const lenState = length < 6 ? length - 2 : 3;
  const slot = rc.tree(probs, model.posSlot + (lenState << 6), 6);
  if (slot < 4) return slot;
  const directBits = (slot >>> 1) - 1;
  let distance = (2 | (slot & 1)) * 2 ** directBits;
  if (slot < 14) return distance + rc.reverseTree(probs, model.specPos + distance - slot - 1, directBits);
  distance += rc.direct(directBits - 4) * 16;
  return distance + rc.reverseTree(probs, model.align, 4);
}

// ---------------------------------------------------------------------------------------------
// Streams

/**
 * Decodes an LZMA stream (`.lzma` payload or raw LZMA1) from `data[pos..)` onto `out`: `size`
 * bytes if known (an end marker may follow them), else up to the end marker. Returns where the
 * stream ends.
 */
export function decodeLzma1(
  data: Uint8Array,
  pos: number,
  out: OutputBuffer,
  properties: LzmaProperties,
  size: number | undefined,
): number {
  const decoder = new LzmaDecoder();
  decoder.setProperties(properties);
  decoder.dictStart = out.length;
  const rc = decoder.rc;
  rc.init(data, pos, data.length);
  if (size !== undefined) {
    const bytes = out.reserve(size);
    const target = out.length + size;
    const end = decoder.decode(bytes, out.length, target);
    if (rc.overrun()) truncated();
    if (decoder.ended || end !== target) corrupt("end marker before the uncompressed size");
    out.length = end;
    if (rc.code !== 0) decoder.expectEndMarker(end);
  } else {
    for (;;) {
      out.length = decoder.decode(out.bytes, out.length, out.bytes.length);
      if (rc.overrun()) truncated();
      if (decoder.ended) break;
      if (out.length === out.limit && decoder.pending === 0) {
        // At the limit, only the end marker may follow.
        try {
          decoder.expectEndMarker(out.length);
        } catch {
          throw new DecodeFailure("too-large", "decoded data is larger than the limit");
        }
        if (rc.overrun()) truncated();
        break;
      }
      out.grow();
    }
  }
  if (rc.overrun()) truncated();
  if (rc.code !== 0) corrupt("invalid data after the end marker (range coder not finished)");
  return rc.pos;
}

/** The dictionary size an LZMA2 properties byte stands for (0 to 40). */
export function lzma2DictionarySize(byte: number): number {
  if (byte > 40) corrupt(`invalid LZMA2 dictionary size byte ${byte}`);
  if (byte === 40) return 0xffffffff;
  return (2 | (byte & 1)) * 2 ** ((byte >>> 1) + 11);
}

/** lc, lp, pb from their byte `(pb * 5 + lp) * 9 + lc`; liblzma refuses lc + lp > 4. */
export function decodeProperties(byte: number): LzmaProperties {
  if (byte > (4 * 5 + 4) * 9 + 8) corrupt(`invalid LZMA properties byte 0x${byte.toString(16)}`);
  const lc = byte % 9;
  const rest = (byte - lc) / 9;
  const lp = rest % 5;
  const pb = (rest - lp) / 5;
  if (lc + lp > 4) corrupt(`unsupported LZMA properties lc=${lc} lp=${lp} (lc + lp > 4)`);
  return { lc, lp, pb };
}

/** Decodes an LZMA2 stream (chunks up to the end byte 0x00) onto `out`; returns where it ends. */
export function decodeLzma2(data: Uint8Array, pos: number, out: OutputBuffer): number {
  const decoder = new LzmaDecoder();
  let needDictionaryReset = true;
  let needProperties = true;
  const end = data.length;
  for (;;) {
    if (pos >= end) truncated();
    const control = data[pos++]!;
    if (control === 0x00) return pos;
    if (control === 0x01 || control === 0x02) {
      // An uncompressed chunk; 0x01 resets the dictionary first.
      if (control === 0x01) {
        decoder.dictStart = out.length;
        needDictionaryReset = false;
      } else if (needDictionaryReset) {
        corrupt("LZMA2 stream does not start with a dictionary reset");
      }
      if (pos + 2 > end) truncated();
      const size = ((data[pos]! << 8) | data[pos + 1]!) + 1;
      pos += 2;
      if (pos + size > end) truncated();
      const bytes = out.reserve(size);
      bytes.set(data.subarray(pos, pos + size), out.length);
      out.length += size;
      pos += size;
      continue;
    }
    if (control < 0x80) corrupt(`invalid LZMA2 control byte 0x${control.toString(16)}`);
    if (pos + 4 > end) truncated();
    const size = (control & 0x1f) * 65536 + ((data[pos]! << 8) | data[pos + 1]!) + 1;
    const packed = ((data[pos + 2]! << 8) | data[pos + 3]!) + 1;
    pos += 4;
    const reset = (control >>> 5) & 3;
    if (reset === 3) {
      decoder.dictStart = out.length;
      needDictionaryReset = false;
    } else if (needDictionaryReset) {
      corrupt("LZMA2 stream does not start with a dictionary reset");
    }
    if (reset >= 2) {
      if (pos >= end) truncated();
      decoder.setProperties(decodeProperties(data[pos++]!));
      needProperties = false;
    } else if (needProperties) {
      corrupt("LZMA2 chunk without properties");
    } else if (reset === 1) {
      decoder.reset();
    }
    if (pos + packed > end) truncated();
    const bytes = out.reserve(size);
    const rc = decoder.rc;
    rc.init(data, pos, pos + packed);
    const target = out.length + size;
    const stop = decoder.decode(bytes, out.length, target);
    if (decoder.ended) corrupt("end marker in an LZMA2 chunk");
    if (rc.overrun() || stop !== target) corrupt("LZMA2 chunk shorter than its stated compressed size");
    if (decoder.pending > 0) corrupt("match runs past the end of an LZMA2 chunk");
    if (rc.pos !== pos + packed || rc.code !== 0) corrupt("LZMA2 chunk longer than its stated compressed size");
    out.length = target;
    pos += packed;
  }
}
