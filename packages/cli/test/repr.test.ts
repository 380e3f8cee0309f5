import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseDataType, type JsonValue } from "@z/meta";
import { arrayRepr } from "../src/repr/array-repr.js";
import { civilFromDays } from "../src/repr/datetime.js";
import { exactDigits, shortestDigits } from "../src/repr/float-format.js";

interface Case {
  dtype: JsonValue;
  shape: number[];
  data: string;
  repr: string;
}

/** numpy 1.24 wrote these (test/python/repr_cases.py). */
const cases = JSON.parse(readFileSync(new URL("./fixtures/repr-cases.json", import.meta.url), "utf8")) as Case[];

describe("arrayRepr matches numpy's repr", () => {
  it.each(cases.map((c, i) => [i, c.repr.split("\n")[0]!.slice(0, 60), c] as const))("case %i: %s", (_, __, c) => {
    const bytes = new Uint8Array(Buffer.from(c.data, "base64"));
    expect(arrayRepr(bytes, c.shape, parseDataType(c.dtype))).toBe(c.repr);
  });
});

describe("float digits", () => {
  it("finds the shortest round-trip digits per float size", () => {
    expect(shortestDigits(0.1, 8)).toEqual({ digits: "1", exponent: -1 });
    expect(shortestDigits(Math.fround(0.1), 4)).toEqual({ digits: "1", exponent: -1 });
    expect(shortestDigits(Math.fround(1 / 3), 4)).toEqual({ digits: "33333334", exponent: -1 });
  });

  it("expands doubles exactly", () => {
    expect(exactDigits(0.5)).toEqual({ digits: "5", exponent: -1 });
    expect(exactDigits(0.1).digits).toBe("1000000000000000055511151231257827021181583404541015625");
    expect(exactDigits(2 ** 70)).toEqual({ digits: "1180591620717411303424", exponent: 21 });
  });

  it("computes civil dates", () => {
    expect(civilFromDays(0)).toEqual([1970, 1, 1]);
    expect(civilFromDays(-1)).toEqual([1969, 12, 31]);
    expect(civilFromDays(18262)).toEqual([2020, 1, 1]);
  });
});
