import { describe, expect, it } from "vitest";
import { MetadataError, guessChunks, normalizeChunks } from "@z/meta";

describe("guessChunks", () => {
  // Expected values from zarr.util.guess_chunks(shape, itemsize) in zarr-python 2.13.
  it.each([
    [[10000, 10000], 8, [313, 625]],
    [[1000, 2000, 3000], 2, [63, 125, 375]],
    [[512, 512, 512], 4, [64, 64, 128]],
    [[1e9], 1, [1953125]],
    [[], 8, []],
    [[0], 8, [1]],
    [[0, 0], 4, [1, 1]],
    [[100, 0, 5], 8, [100, 1, 5]],
    [[1], 1e8, [1]],
    [[10, 10], 1e8, [1, 1]],
    [[100], 8, [100]],
    [[1e6], 8, [62500]],
    [[1e7], 4, [156250]],
    [[4096, 4096], 1, [512, 1024]],
    [[365, 721, 1440], 4, [46, 91, 180]],
    [[3, 1000000], 8, [1, 125000]],
    [[2 ** 40], 1, [16777216]],
    [[20, 30], 8, [20, 30]],
  ])("guesses chunks of %j for itemsize %i", (shape, itemsize, expected) => {
    expect(guessChunks(shape, itemsize)).toEqual(expected);
  });
});

describe("normalizeChunks", () => {
  // Expected values from zarr.util.normalize_chunks(chunks, shape, 8) in zarr-python 2.13.
  it.each([
    [true, [100, 100], [100, 100]],
    [undefined, [100], [100]],
    [undefined, [10000, 10000], [313, 625]],
    [5, [20, 30], [5, 5]],
    [[10], [20, 30], [10, 30]],
    [
      [null, 7],
      [20, 30],
      [20, 7],
    ],
    [
      [-1, -1],
      [20, 30],
      [20, 30],
    ],
    [false, [20, 30], [20, 30]],
    [-1, [20, 30], [20, 30]],
    [[], [20, 30], [20, 30]],
    [5, [], []],
    [[100], [10], [100]],
  ] as const)("normalizes %j for shape %j", (chunks, shape, expected) => {
    expect(normalizeChunks(chunks, shape, 8)).toEqual(expected);
  });

  it("uses 1, not zarr-python's unusable 0, where a zero-length dimension is copied", () => {
    // zarr-python writes chunks [5, 0] / [10, 0] / [0] here and then fails to read or write them.
    expect(normalizeChunks([5], [10, 0], 8)).toEqual([5, 1]);
    expect(normalizeChunks(false, [10, 0], 8)).toEqual([10, 1]);
    expect(normalizeChunks([-1], [0], 8)).toEqual([1]);
  });

  it.each([
    [0, [10]],
    [[0], [10]],
    [[-2], [10]],
    [[2.5], [10]],
    [[NaN], [10]],
    [[5, 5], [10]],
  ] as const)("refuses chunks %j for shape %j", (chunks, shape) => {
    let error: unknown;
    try {
      normalizeChunks(chunks, shape, 8);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MetadataError);
    expect((error as MetadataError).code).toBe("ZARR_METADATA");
    expect((error as MetadataError).field).toBe("chunks");
  });

  it("refuses a shape that is not a list of non-negative integers", () => {
    expect(() => normalizeChunks(1, [10, -1], 8)).toThrow(expect.objectContaining({ field: "shape" }));
    expect(() => guessChunks([1.5], 8)).toThrow(expect.objectContaining({ field: "shape" }));
  });
});
