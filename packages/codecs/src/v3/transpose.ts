import type { JsonValue } from "@z/meta";
import type { Codec, CodecData } from "../codec.js";
import { invalidField, onlyMembers, type CodecPlace } from "./errors.js";
import { inversePermutation, permuteBytes, permuteShape, permuteValues } from "./permute.js";
import { describeData, stageCodec } from "./stage-codec.js";
import type { StageChunk } from "./types.js";

/**
 * The `order` of a `transpose` codec for input of `rank` dimensions: a permutation of `0 .. rank-1`
 * (the spec), or `"C"` (identity) and `"F"` (reversed), which TensorStore reads (it writes the
 * permutation). zarr-python 3 takes any list of integers and checks it is such a permutation.
 */
export function parseTransposeOrder(
  place: CodecPlace,
  configuration: { readonly [k: string]: JsonValue } | undefined,
  rank: number,
): number[] {
  if (configuration === undefined) {
    throw invalidField(place, "configuration", 'an object with "order"', undefined);
  }
  onlyMembers(place, configuration, ["order"]);
  const order = configuration.order;
  const identity = Array.from({ length: rank }, (_, i) => i);
  if (order === "C") return identity;
  if (order === "F") return identity.reverse();
  const expected =
    rank === 0
      ? "[] (the chunk it receives has no dimensions)"
      : `a permutation of 0 to ${rank - 1} (the chunk it receives has ${rank} dimension${rank === 1 ? "" : "s"}), "C" or "F"`;
  if (!Array.isArray(order)) throw invalidField(place, "configuration.order", expected, order);
  const items = order as readonly JsonValue[];
  const seen = new Set<number>();
  for (const item of items) {
    if (typeof item !== "number" || !Number.isInteger(item) || item < 0 || item >= rank || seen.has(item)) {
      throw invalidField(place, "configuration.order", expected, order);
    }
    seen.add(item);
  }
  if (items.length !== rank) throw invalidField(place, "configuration.order", expected, order);
  return items as number[];
}

/** Whether `order` leaves every axis where it is. */
export const isIdentity = (order: readonly number[]): boolean => order.every((axis, i) => axis === i);

/**
 * The `transpose` codec (array → array) for chunks as `chunk` describes them: encoding permutes
 * the axes by `order` (C-order element bytes, or JS values for object dtypes), decoding by its
 * inverse.
 */
export function transposeCodec(order: readonly number[], chunk: StageChunk): Codec {
  const inShape = chunk.shape;
  const outShape = permuteShape(inShape, order);
  const inverse = inversePermutation(order);
  const { itemsize, elements } = chunk;
  const permute = (data: CodecData, shape: readonly number[], perm: readonly number[]): CodecData => {
    const expected = data instanceof Uint8Array ? elements * itemsize : elements;
    if (data.length !== expected) {
      const what = data instanceof Uint8Array ? `${expected} bytes` : `${expected} values`;
      throw new Error(`expected a chunk of shape [${shape.join(", ")}] (${what}), got ${describeData(data)}`);
    }
    return data instanceof Uint8Array ? permuteBytes(data, shape, perm, itemsize) : permuteValues(data, shape, perm);
  };
  return stageCodec(
    "transpose",
    { id: "transpose", order: [...order] },
    (data) => permute(data, inShape, order),
    (data) => permute(data, outShape, inverse),
  );
}
