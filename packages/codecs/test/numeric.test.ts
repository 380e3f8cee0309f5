import { describe, expect, it } from "vitest";
import { JsonFloat } from "@z/meta";
import { numericType, scalarResultType, typeString, type PyScalar } from "../src/numeric.js";
import { filterFixtures } from "./python-fixtures.js";

describe("NumPy 1.24 value-based result types of array op scalar", () => {
  it("match numpy.result_type for every numeric dtype and a range of Python scalars", () => {
    let checked = 0;
    for (const [dtype, tagged, expected] of filterFixtures().resultTypes) {
      const scalar: PyScalar =
        tagged.int !== undefined
          ? { float: false, value: BigInt(tagged.int) }
          : {
              float: true,
              value: tagged.float === "nan" ? NaN : tagged.float === "inf" ? Infinity : Number(tagged.float),
            };
      let actual: string | null;
      try {
        actual = typeString(scalarResultType(numericType(dtype)!, scalar));
      } catch {
        actual = null;
      }
      // NumPy writes one-byte types with "|", and picks "object" where we refuse.
      expect([dtype, tagged, actual]).toEqual([dtype, tagged, expected === "|O" ? null : expected]);
      checked++;
    }
    expect(checked).toBeGreaterThan(400);
  });

  it("the fixture file keeps Python floats", () => {
    expect(filterFixtures().cases.some((c) => c.config.offset instanceof JsonFloat)).toBe(true);
  });
});
