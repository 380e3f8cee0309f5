import { describe, expect, it } from "vitest";
import { cStrides, stridesFor } from "@z/meta";

describe("stridesFor", () => {
  // Expected: NumPy 1.24's `np.empty(shape, dtype="u1", order=order).strides` (elements of one byte).
  // Zero-size shapes are left out: NumPy gives them all-zero strides, which address no element either way.
  it.each([
    [[2, 3, 4], "C", [12, 4, 1]],
    [[2, 3, 4], "F", [1, 2, 6]],
    [[5], "C", [1]],
    [[5], "F", [1]],
    [[], "C", []],
    [[], "F", []],
    [[1, 7], "C", [7, 1]],
    [[1, 7], "F", [1, 1]],
  ] as const)("%j in %s order: %j", (shape, order, strides) => {
    expect(stridesFor(shape, order)).toEqual(strides);
  });

  it("cStrides is the C-order case", () => {
    expect(cStrides([4, 5, 6])).toEqual([30, 6, 1]);
    expect(cStrides([4, 5, 6])).toEqual(stridesFor([4, 5, 6], "C"));
  });
});
