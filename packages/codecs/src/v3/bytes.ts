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

/** Reverses the bytes of every `size`-byte run of `src` into `dst`. */
function reverseRuns(src: Uint8Array, dst: Uint8Array, size: number): void {
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
