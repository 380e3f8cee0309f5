/**
 * Error messages built from metadata values must work for any JSON value: a bigint (an integer past
 * 2^53, which parseJson keeps exact), huge floats, nested lists and objects, strings with control
 * characters or lone surrogates. Building one with JSON.stringify threw
 * `TypeError: Do not know how to serialize a BigInt` instead of the typed error.
 */
import { describe, expect, it } from "vitest";
import {
  DataTypeError,
  describeJson,
  guessChunks,
  MetadataError,
  normalizeChunks,
  parseArrayMetadata,
  parseArrayMetadataV1,
  parseDataType,
  parseJson,
  type JsonValue,
} from "@z/meta";

const big = 2n ** 70n;

describe("error messages from hostile metadata values", () => {
  it("describeJson renders anything briefly and never throws", () => {
    expect(describeJson(big)).toBe("1180591620717411303424");
    expect(describeJson([big, 1])).toBe("[1180591620717411303424, 1]");
    expect((parseJson("[1e400, -1e400, NaN]", "x", { keepFloats: true }) as JsonValue[]).map(describeJson)).toEqual([
      "Infinity",
      "-Infinity",
      "NaN",
    ]);
    expect(describeJson({ a: [big] })).toBe("an object");
    expect(describeJson([[[[big]]]])).toBe("a list of 1 items");
    expect(describeJson(`\u0000\ud800${"x".repeat(100)}`)).toMatch(/^"\\u0000\\ud800x+…"$/);
    expect(describeJson(undefined)).toBe("nothing");
  });

  it("shape and chunks with bigints are MetadataErrors naming the field", () => {
    for (const doc of [
      `{"zarr_format": 2, "shape": [${big}], "chunks": [1], "dtype": "<f4", "compressor": null, "fill_value": 0, "order": "C", "filters": null}`,
      `{"zarr_format": 2, "shape": [1], "chunks": [${big}, [${big}]], "dtype": "<f4", "compressor": null, "fill_value": 0, "order": "C", "filters": null}`,
    ]) {
      const error = (() => {
        try {
          return parseArrayMetadata(doc, "a/.zarray");
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(MetadataError);
      expect(error).toMatchObject({ key: "a/.zarray" });
      expect((error as Error).message).toContain("1180591620717411303424");
    }
    // Shapes and chunks handed in as values (from JSON a caller parsed) too.
    expect(() => guessChunks([big as unknown as number], 4)).toThrow(MetadataError);
    expect(() => guessChunks([big as unknown as number], 4)).toThrow(/found \[1180591620717411303424\]/);
    expect(() => normalizeChunks([big as unknown as number], [10], 4)).toThrow(
      /Invalid chunks \[1180591620717411303424\]/,
    );
  });

  it("dtypes with bigints, nested lists and long strings are DataTypeErrors", () => {
    for (const dtype of [
      [["a", "<f4", [big]]],
      [["a", [["b", [["c", "<f4", [big]]]]]]],
      `<${"x".repeat(500)}`,
      big,
    ] as JsonValue[]) {
      let error: unknown;
      try {
        parseDataType(dtype, "a/.zarray");
      } catch (e) {
        error = e;
      }
      expect(error, String(error)).toBeInstanceOf(DataTypeError);
      // The message says what a dtype may be (~370 characters) and shows at most ~120 of the value.
      expect((error as Error).message.length).toBeLessThan(520);
      expect((error as Error).message).not.toContain("x".repeat(130));
    }
  });

  it("v1 metadata with bigints is a MetadataError", () => {
    const doc = `{"zarr_format": 1, "shape": [${big}], "chunks": [1], "dtype": "<f4", "compression": "none", "compression_opts": null, "fill_value": 0, "order": "C"}`;
    expect(() => parseArrayMetadataV1(doc)).toThrow(MetadataError);
  });
});
