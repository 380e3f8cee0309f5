import { describe, expect, it } from "vitest";
import { dataTypeFromUser } from "@z/meta";
import { canCastSafely } from "../src/can-cast.js";

// Rows from numpy 1.24: np.can_cast(a, b) for every pair (1 = True).
const NAMES = ["b1", "u1", "u2", "u4", "u8", "i1", "i2", "i4", "i8", "f2", "f4", "f8", "c8", "c16"];
const NUMPY = [
  "11111111111111",
  "01111011111111",
  "00111001101111",
  "00011000100101",
  "00001000000101",
  "00000111111111",
  "00000011101111",
  "00000001100101",
  "00000000100101",
  "00000000011111",
  "00000000001111",
  "00000000000101",
  "00000000000011",
  "00000000000001",
];

describe("safe casting, as numpy's can_cast", () => {
  it("agrees with numpy on every pair of numeric dtypes", () => {
    const got = NAMES.map((a) =>
      NAMES.map((b) => (canCastSafely(dataTypeFromUser(a), dataTypeFromUser(b)) ? "1" : "0")).join(""),
    );
    expect(got).toEqual(NUMPY);
  });
});
