import { describe, expect, expectTypeOf, it } from "vitest";
import { JsonFloat } from "@z/meta";
import {
  boolean,
  CodecConfigError,
  dtype,
  integer,
  json,
  list,
  normalizeDtype,
  nullable,
  number,
  object,
  optional,
  parseConfig,
  serializeConfig,
  string,
  type ConfigInput,
  type ConfigValues,
} from "@z/codecs";

// A made-up codec with every kind of field, declared in the order numcodecs' get_config() would
// write them. (Blosc, Delta, Categorize, LZMA... are declared the same way.)
const schema = {
  cname: string({ enum: ["lz4", "zstd", "zlib"], default: "lz4" }),
  clevel: integer({ min: 0, max: 9, default: 5 }),
  scale: number({ min: 0, float: true }),
  dtype: dtype({ default: "<f8" }),
  astype: nullable(dtype(), { default: null }),
  labels: list(string(), { default: [] }),
  checksum: boolean({ default: false }),
  preset: optional(integer()),
  extra: json({ default: null }),
  window: object({ size: integer({ min: 1 }), step: integer({ default: 1 }) }, { default: { size: 3 } }),
};

describe("parseConfig", () => {
  it("fills defaults and normalises values", () => {
    const values = parseConfig("demo", schema, { id: "demo", scale: 10, dtype: "int32" });
    expect(values).toEqual({
      cname: "lz4",
      clevel: 5,
      scale: 10,
      dtype: "<i4",
      astype: null,
      labels: [],
      checksum: false,
      preset: undefined,
      extra: null,
      window: { size: 3, step: 1 },
    });
  });

  it("gives the parsed config its TypeScript type", () => {
    const values = parseConfig("demo", schema, { scale: 1 });
    expectTypeOf(values.cname).toEqualTypeOf<"lz4" | "zstd" | "zlib">();
    expectTypeOf(values.clevel).toEqualTypeOf<number>();
    expectTypeOf(values.astype).toEqualTypeOf<string | null>();
    expectTypeOf(values.labels).toEqualTypeOf<readonly string[]>();
    expectTypeOf(values.preset).toEqualTypeOf<number | undefined>();
    expectTypeOf(values.window).toEqualTypeOf<{ readonly size: number; readonly step: number }>();
    expectTypeOf<ConfigValues<typeof schema>>().toEqualTypeOf(values);
    // Only `scale` has no default, so it is the only key a caller must give.
    expectTypeOf<{ scale: number }>().toExtend<ConfigInput<typeof schema>>();
    expectTypeOf<{ clevel: number }>().not.toExtend<ConfigInput<typeof schema>>();
  });

  it("writes keys in declaration order, floats as floats, and leaves unset optional keys out", () => {
    const values = parseConfig("demo", schema, { scale: 10, labels: ["a", "b"], preset: 3 });
    const config = serializeConfig("demo", schema, values);
    expect(Object.keys(config)).toEqual([
      "id",
      "cname",
      "clevel",
      "scale",
      "dtype",
      "astype",
      "labels",
      "checksum",
      "preset",
      "extra",
      "window",
    ]);
    expect(config.scale).toEqual(new JsonFloat(10)); // written 10.0, like Python
    expect(Object.keys(serializeConfig("demo", schema, parseConfig("demo", schema, { scale: 1 })))).not.toContain(
      "preset",
    );
  });

  it("accepts a float parsed with keepFloats where a number is expected", () => {
    expect(parseConfig("demo", schema, { scale: new JsonFloat(2.5) }).scale).toBe(2.5);
  });

  describe("errors name the codec, the field and what was expected", () => {
    const error = (config: unknown) => {
      try {
        parseConfig("demo", schema, config, { key: "arr/.zarray" });
      } catch (e) {
        expect(e).toBeInstanceOf(CodecConfigError);
        expect(e).toMatchObject({ code: "ZARR_CODEC_CONFIG", codecId: "demo", key: "arr/.zarray" });
        return e as CodecConfigError;
      }
      throw new Error("expected a CodecConfigError");
    };
    const prefix = 'invalid config for codec "demo" in arr/.zarray: ';

    it("missing required field", () => {
      const e = error({ id: "demo" });
      expect(e.message).toBe(`${prefix}missing required field "scale" (a number >= 0)`);
      expect(e).toMatchObject({ field: "scale", expected: "a number >= 0" });
    });

    it("wrong type", () => {
      expect(error({ scale: "1" }).message).toBe(`${prefix}field "scale" must be a number >= 0, got "1"`);
      expect(error({ scale: 1, checksum: 1 }).message).toBe(`${prefix}field "checksum" must be true or false, got 1`);
      expect(error({ scale: 1, clevel: new JsonFloat(3) }).message).toBe(
        `${prefix}field "clevel" must be an integer from 0 to 9, got 3.0`,
      );
    });

    it("out of range, or not one of the allowed values", () => {
      expect(error({ scale: 1, clevel: -1 }).message).toBe(
        `${prefix}field "clevel" must be an integer from 0 to 9, got -1`,
      );
      expect(error({ scale: 1, cname: "snappy" }).message).toBe(
        `${prefix}field "cname" must be one of "lz4", "zstd", "zlib", got "snappy"`,
      );
      expect(error({ scale: 1, dtype: "<i3" }).message).toBe(
        `${prefix}field "dtype" must be a NumPy dtype string such as '<i4' or '|u1', got "<i3"`,
      );
      expect(error({ scale: 1, astype: 4 }).message).toContain(`field "astype" must be a NumPy dtype string`);
      expect(error({ scale: 1, astype: 4 }).message).toContain("or null, got 4");
    });

    it("inside lists and nested objects", () => {
      const e = error({ scale: 1, labels: ["a", 2] });
      expect(e.message).toBe(`${prefix}field "labels[1]" must be a string, got 2`);
      expect(e.field).toBe("labels[1]");
      expect(error({ scale: 1, window: { size: 0 } }).message).toBe(
        `${prefix}field "window.size" must be an integer >= 1, got 0`,
      );
      expect(error({ scale: 1, window: {} }).message).toBe(
        `${prefix}missing required field "window.size" (an integer >= 1)`,
      );
    });

    it("unknown keys", () => {
      const e = error({ scale: 1, shuffle: 1 });
      expect(e.field).toBe("shuffle");
      expect(e.message).toBe(
        `${prefix}unknown field "shuffle" (the codec takes one of the keys ` +
          `cname, clevel, scale, dtype, astype, labels, checksum, preset, extra, window)`,
      );
    });

    it("a config that is not an object, or names another codec", () => {
      expect(error([1]).message).toBe(`${prefix}expected a JSON object, got [1]`);
      expect(error({ id: "other", scale: 1 }).message).toBe(`${prefix}"id" is "other", expected "demo"`);
    });
  });

  it("refuses a declaration whose default its own field rejects", () => {
    expect(() => integer({ min: 0, max: 9, default: 10 })).toThrow(/default 10 is not an integer from 0 to 9/);
  });
});

describe("normalizeDtype", () => {
  it("normalises like numpy.dtype(s).str", () => {
    // /usr/bin/python3 -c "import numpy; print(numpy.dtype(s).str)"
    const numpy: Record<string, string> = {
      i4: "<i4",
      ">i4": ">i4",
      "=i4": "<i4",
      "|i4": "<i4",
      i1: "|i1",
      ">i1": "|i1",
      "?": "|b1",
      bool: "|b1",
      float64: "<f8",
      int32: "<i4",
      S10: "|S10",
      U3: "<U3",
      ">U3": ">U3",
      V8: "|V8",
      O: "|O",
      "M8[ns]": "<M8[ns]",
      "m8[10s]": "<m8[10s]",
      M8: "<M8",
      c16: "<c16",
      S: "|S0",
    };
    for (const [text, expected] of Object.entries(numpy)) expect(normalizeDtype(text), text).toBe(expected);
    for (const bad of ["i3", "f1", "x4", "<i4[ns]", "", "int"]) expect(normalizeDtype(bad), bad).toBeUndefined();
  });
});

describe("nullable and optional", () => {
  it("nullable takes its own default, or the inner field's", () => {
    const s = {
      a: nullable(integer(), { default: null }),
      b: nullable(integer({ default: 3 })),
      c: nullable(integer()),
    };
    expect(parseConfig("x", s, { c: null })).toEqual({ a: null, b: 3, c: null });
    expect(() => parseConfig("x", s, {})).toThrow('missing required field "c" (an integer or null)');
    expectTypeOf<ConfigInput<typeof s>>().toEqualTypeOf<{
      readonly c: number | null;
      readonly a?: number | null;
      readonly b?: number | null;
    }>();
  });

  it("optional keys are left out when unset and written when set", () => {
    const s = { p: optional(string()) };
    expect(serializeConfig("x", s, parseConfig("x", s, {}))).toEqual({ id: "x" });
    expect(serializeConfig("x", s, parseConfig("x", s, { p: "v" }))).toEqual({ id: "x", p: "v" });
  });
});
