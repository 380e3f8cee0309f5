import { describe, expect, it } from "vitest";
import { chunkKey, parseChunkKey } from "@z/meta";

describe("chunkKey", () => {
  it("joins chunk indices with the dimension separator", () => {
    // zarr-python: a[2, 3, 4] = 1 with chunks (1, 2, 2) writes "2.1.2", or "2/1/2" with "/".
    expect(chunkKey([2, 1, 2], ".")).toBe("2.1.2");
    expect(chunkKey([2, 1, 2], "/")).toBe("2/1/2");
    expect(chunkKey([7], "/")).toBe("7");
  });

  it("names the single chunk of a 0-d array 0, as zarr-python does", () => {
    expect(chunkKey([], ".")).toBe("0");
    expect(chunkKey([], "/")).toBe("0");
  });
});

describe("parseChunkKey", () => {
  it("reads back the indices of a chunk key", () => {
    expect(parseChunkKey("2.1.2", 3, ".")).toEqual([2, 1, 2]);
    expect(parseChunkKey("2/1/2", 3, "/")).toEqual([2, 1, 2]);
    expect(parseChunkKey("10", 1, ".")).toEqual([10]);
    expect(parseChunkKey("0", 0, ".")).toEqual([]);
  });

  it.each([
    [".zarray", 1, "."],
    [".zattrs", 2, "/"],
    ["0.0", 1, "."],
    ["0", 2, "."],
    ["0/0", 2, "."],
    ["0.0", 2, "/"],
    ["01.0", 2, "."],
    ["1.", 1, "."],
    ["-1", 1, "."],
    ["1e3", 1, "."],
    [" 1", 1, "."],
    ["99999999999999999999", 1, "."],
    ["1", 0, "."],
    ["", 1, "."],
  ] as const)("ignores %j for %i dimensions separated by %j", (key, ndim, separator) => {
    expect(parseChunkKey(key, ndim, separator)).toBeUndefined();
  });
});
