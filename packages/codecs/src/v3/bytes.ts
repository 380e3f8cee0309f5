import type { DataType, JsonValue } from "@z/meta";
import type { Codec, CodecData } from "../codec.js";
import { invalidField, onlyMembers, type CodecPlace } from "./errors.js";
import { describeData, stageCodec } from "./stage-codec.js";
import type { StageChunk } from "./types.js";

export type Endian = "little" | "big";

/** A run of bytes of one element to reverse: a number (or one half of a complex, one UTF-32 unit). */
interface Swap {
  readonly offset: number;
  readonly size: number;
}

/**
 * Where the bytes of one element of `dtype` are reversed to store it in `endian`: none for one-byte
 * and byte-string kinds, the whole element for numbers, each half of a complex (the spec: "two
 * consecutive ... values"), each 4-byte unit of a UTF-32 string, and each field of a structure in
 * its own way (zarr-python 3 and TensorStore store every multi-byte field in the codec's endian).
 */
function swaps(dtype: DataType, endian: Endian, at = 0, out: Swap[] = []): Swap[] {
  if (dtype.kind === "structured") {
    for (const field of dtype.fields) {
      const count = field.shape.reduce((a, b) => a * b, 1);
      for (let i = 0; i < count; i++) swaps(field.dtype, endian, at + field.offset + i * field.dtype.itemsize, out);
    }
    return out;
  }
  const order = dtype.byteOrder;
  if (order === "|" || dtype.itemsize <= 1 || order === (endian === "little" ? "<" : ">")) return out;
  const unit = dtype.kind === "c" ? dtype.itemsize / 2 : dtype.kind === "U" ? 4 : dtype.itemsize;
  for (let offset = 0; offset < dtype.itemsize; offset += unit) out.push({ offset: at + offset, size: unit });
  return out;
}

/** Whether `dtype`'s elements depend on byte order (so `bytes` must say which). */
export function hasEndianness(dtype: DataType): boolean {
  return swaps(dtype, "little").length > 0 || swaps(dtype, "big").length > 0;
}

/**
 * The `endian` of a `bytes` codec: required for data types with a byte order (the spec; zarr-python 3
 * and TensorStore refuse it missing), except structures, which zarr-python 3 takes as little-endian
 * ("for legacy compatibility"); ignored for the others (TensorStore writes none for them).
 */
export function parseBytesEndian(
  place: CodecPlace,
  configuration: { readonly [k: string]: JsonValue } | undefined,
  dtype: DataType,
): Endian {
  onlyMembers(place, configuration ?? {}, ["endian"]);
  const endian = configuration?.endian;
  if (endian === "little" || endian === "big") return endian;
  if (endian !== undefined) throw invalidField(place, "configuration.endian", '"little" or "big"', endian);
  if (dtype.kind !== "structured" && hasEndianness(dtype)) {
    throw invalidField(
      place,
      "configuration.endian",
      `"little" or "big" (required for a data type of ${dtype.itemsize}-byte elements)`,
      undefined,
    );
  }
  return "little";
}

const bswap32 = (x: number): number => ((x << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24)) >>> 0;

/**
 * Reverses the bytes of every `size`-byte run of `src` into `dst` (a new, so aligned, buffer): 2-,
 * 4- and 8-byte runs as 16- and 32-bit words when `src` is aligned too (several times faster than
 * byte by byte), others byte by byte.
 */
function reverseRuns(src: Uint8Array, dst: Uint8Array, size: number): void {
  const words = size === 2 ? 2 : size === 4 || size === 8 ? 4 : 0;
  if (words !== 0 && src.byteOffset % words === 0) {
    if (words === 2) {
      const s = new Uint16Array(src.buffer, src.byteOffset, src.length / 2);
      const d = new Uint16Array(dst.buffer, dst.byteOffset, dst.length / 2);
      for (let i = 0; i < s.length; i++) {
        const x = s[i]!;
        d[i] = ((x & 0xff) << 8) | (x >>> 8);
      }
      return;
    }
    const s = new Uint32Array(src.buffer, src.byteOffset, src.length / 4);
    const d = new Uint32Array(dst.buffer, dst.byteOffset, dst.length / 4);
    if (size === 4) {
      for (let i = 0; i < s.length; i++) d[i] = bswap32(s[i]!);
    } else {
      for (let i = 0; i < s.length; i += 2) {
        d[i] = bswap32(s[i + 1]!);
        d[i + 1] = bswap32(s[i]!);
      }
    }
    return;
  }
  for (let i = 0; i < src.length; i += size) {
    for (let j = 0; j < size; j++) dst[i + j] = src[i + size - 1 - j]!;
  }
}

/**
 * The `bytes` codec (array → bytes) for chunks as `chunk` describes them, storing elements in
 * `endian`. `identity` when that is how z holds them already (little-endian, or a type without byte
 * order): its codec then checks the size and passes the bytes on, and a chain leaves it out.
 */
export function bytesCodec(endian: Endian, chunk: StageChunk): { readonly codec: Codec; readonly identity: boolean } {
  const { dtype, itemsize, elements } = chunk;
  const plan = swaps(dtype, endian);
  const size = elements * itemsize;
  const config = { id: "bytes", endian };
  const check = (data: CodecData): Uint8Array => {
    if (!(data instanceof Uint8Array) || data.length !== size) {
      throw new Error(`expected ${size} bytes (${elements} elements of ${itemsize} bytes), got ${describeData(data)}`);
    }
    return data;
  };
  if (plan.length === 0) return { codec: stageCodec("bytes", config, check, check), identity: true };
  // Most types reverse runs of one size end to end (numbers, complexes, UTF-32, uniform structures).
  const uniform =
    plan.every((s, i) => s.size === plan[0]!.size && s.offset === i * s.size) &&
    plan.length * plan[0]!.size === itemsize;
  const swap = (input: CodecData): Uint8Array => {
    const data = check(input);
    const out = new Uint8Array(size);
    if (uniform) {
      reverseRuns(data, out, plan[0]!.size);
      return out;
    }
    out.set(data);
    for (let base = 0; base < size; base += itemsize) {
      for (const { offset, size: n } of plan) {
        const at = base + offset;
        for (let j = 0; j < n; j++) out[at + j] = data[at + n - 1 - j]!;
      }
    }
    return out;
  };
  return { codec: stageCodec("bytes", config, swap, swap), identity: false };
}
