import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  dataTypeFromUser,
  dataTypeToJSON,
  decodeExtension,
  decodeFillValue,
  dtypeName,
  encodeExtension,
  encodeFillValue,
  EXTENSION_NAMES,
  fillValueBytes,
  normalizeFillValue,
  parseArrayMetadata,
  parseDataType,
  roundToExtension,
  serializeArrayMetadata,
  typedArrayConstructor,
  type ExtensionName,
  type SimpleDataType,
} from "@z/meta";

/** Conversions computed by ml_dtypes (0.6; test/python/ml_dtypes_goldens.py). */
interface FloatGolden {
  /** float32 bits of the value of each of the 256 codes */
  decode: number[];
  /** [float32 bits of an input, the code ml_dtypes rounds it to] */
  encode: [number, number][];
}
interface Goldens {
  bfloat16: { encode: [number, number][] };
  int4: { decode: number[] };
  int2: { decode: number[] };
  uint4: { decode: number[] };
  uint2: { decode: number[] };
  [name: string]: unknown;
}
const goldens = JSON.parse(
  readFileSync(new URL("./fixtures/ml-dtypes-goldens.json", import.meta.url), "utf8"),
) as Goldens;

const FLOAT8 = [
  "float8_e3m4",
  "float8_e4m3fn",
  "float8_e4m3fnuz",
  "float8_e4m3b11fnuz",
  "float8_e5m2",
  "float8_e5m2fnuz",
  "float4_e2m1fn",
  "float8_e8m0fnu",
] as const;

const f32 = (bits: number): number => new Float32Array(new Uint32Array([bits]).buffer)[0]!;
const bitsOf = (values: Float32Array): number[] => Array.from(new Uint32Array(values.buffer));
const codes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => i);
/** Float32s of the given bits, made without a JS number in between (which may quiet a NaN). */
const floats = (bits: readonly number[]): Float32Array => new Float32Array(Uint32Array.from(bits).buffer);

describe("TensorStore's extension dtypes in .zarray", () => {
  it("parse by name and write back the same name", () => {
    for (const name of EXTENSION_NAMES) {
      const dtype = parseDataType(name) as SimpleDataType;
      expect(dtype).toMatchObject({ kind: "x", extension: name, itemsize: name === "bfloat16" ? 2 : 1 });
      expect(dataTypeToJSON(dtype)).toBe(name);
      expect(dtypeName(dtype)).toBe(name);
      expect(dataTypeFromUser(name)).toEqual(dtype);
    }
    expect(() => parseDataType("float8_e4m3")).toThrow(/bfloat16, float8_e3m4/);
    expect(() => parseDataType([["a", "bfloat16"]])).toThrow(/extension dtype field/);
  });

  it("hold floats as Float32Array and int4/int2 as Int8Array", () => {
    expect(typedArrayConstructor(parseDataType("bfloat16"))).toBe(Float32Array);
    expect(typedArrayConstructor(parseDataType("float8_e5m2"))).toBe(Float32Array);
    expect(typedArrayConstructor(parseDataType("int4"))).toBe(Int8Array);
  });

  it("round-trip a TensorStore .zarray byte for byte", () => {
    // As TensorStore 0.1.85 writes it.
    const text =
      '{"chunks":[2],"compressor":null,"dimension_separator":".","dtype":"bfloat16","fill_value":1.5,"filters":null,"order":"C","shape":[5],"zarr_format":2}';
    const meta = parseArrayMetadata(new TextEncoder().encode(text));
    expect(meta.fillValue).toBe(1.5);
    expect(JSON.parse(serializeArrayMetadata(meta))).toEqual(JSON.parse(text));
  });
});

describe("float8 formats (and float4_e2m1fn) against ml_dtypes", () => {
  for (const name of FLOAT8) {
    const golden = goldens[name] as FloatGolden;
    it(`${name}: every one of the 256 codes decodes to ml_dtypes' float32, bit for bit (a NaN keeps its sign)`, () => {
      expect(bitsOf(decodeExtension(name, codes(256)) as Float32Array)).toEqual(golden.decode);
    });

    it(`${name}: every non-NaN code round-trips, and rounding matches ml_dtypes (ties, overflow, NaN and its sign, -0)`, () => {
      const values = decodeExtension(name, codes(256));
      const again = encodeExtension(name, values);
      for (let code = 0; code < 256; code++) {
        // float4's codes are its low four bits; ml_dtypes reads any byte above 7 as negative.
        const canonical = name === "float4_e2m1fn" && code > 7 ? 8 | (code & 7) : code;
        if (!Number.isNaN(values[code]!)) expect(again[code], `code ${code}`).toBe(canonical);
      }
      const inputs = floats(golden.encode.map(([bits]) => bits));
      const got = encodeExtension(name, inputs);
      const mismatches = golden.encode.filter(([, code], i) => got[i] !== code);
      expect(mismatches.length, JSON.stringify(mismatches.slice(0, 5))).toBe(0);
      expect(golden.encode.length).toBeGreaterThan(400);
      expect(golden.encode.filter(([bits]) => bits === 0xffc00000).length).toBe(1);
    });

    // float4_e2m1fn has no NaN.
    if (name !== "float4_e2m1fn") {
      it(`${name}: a stored NaN's sign survives a read and a write, as through ml_dtypes' float32`, () => {
        const nanCodes = Array.from(codes(256)).filter((code) => Number.isNaN(f32(golden.decode[code]!)));
        expect(nanCodes.length).toBeGreaterThan(0);
        const again = encodeExtension(name, decodeExtension(name, Uint8Array.from(nanCodes)));
        // What ml_dtypes writes for the float32 it read: the format's NaN of that sign.
        const written = new Map(golden.encode);
        expect(Array.from(again)).toEqual(nanCodes.map((code) => written.get(golden.decode[code]!)));
        // The same from doubles (a Float64Array's -NaN), as ml_dtypes converts float64.
        const doubles = new Float64Array(new BigUint64Array([0xfff8000000000000n, 0x7ff8000000000000n]).buffer);
        expect(Array.from(encodeExtension(name, doubles))).toEqual([written.get(0xffc00000), written.get(0x7fc00000)]);
      });
    }
  }

  it("fnuz formats have one NaN (0x80) and no negative zero; fn formats no infinity", () => {
    expect(Array.from(encodeExtension("float8_e4m3fnuz", [NaN, -0, Infinity, -1e30]))).toEqual([
      0x80, 0x00, 0x80, 0x80,
    ]);
    expect(Array.from(encodeExtension("float8_e4m3fn", [Infinity, 448, 464, 480]))).toEqual([0x7f, 0x7e, 0x7e, 0x7f]);
    expect(Array.from(encodeExtension("float8_e5m2", [Infinity, -Infinity, 61440, 57344]))).toEqual([
      0x7c, 0xfc, 0x7c, 0x7b,
    ]);
  });
});

describe("bfloat16 against ml_dtypes", () => {
  it("rounds float32 to nearest even (ties, overflow to infinity, subnormals) as ml_dtypes", () => {
    const inputs = floats(goldens.bfloat16.encode.map(([bits]) => bits));
    const bytes = encodeExtension("bfloat16", inputs);
    const got = new Uint16Array(bytes.buffer);
    // NaNs included: ml_dtypes keeps the sign and writes the quiet NaN (0x7fc0 or 0xffc0).
    const mismatches = goldens.bfloat16.encode.filter(([, code], i) => got[i] !== code);
    expect(mismatches.length, JSON.stringify(mismatches.slice(0, 5))).toBe(0);
  });

  it("decodes every code to the upper half of a float32", () => {
    const all = new Uint8Array(2 ** 17);
    for (let c = 0; c < 2 ** 16; c++) {
      all[2 * c] = c & 0xff;
      all[2 * c + 1] = c >> 8;
    }
    const values = decodeExtension("bfloat16", all) as Float32Array;
    const bits = new Uint32Array(values.buffer);
    for (let c = 0; c < 2 ** 16; c += 257) expect(bits[c]).toBe((c << 16) >>> 0);
    const back = new Uint16Array(encodeExtension("bfloat16", values).buffer);
    for (let c = 0; c < 2 ** 16; c++)
      if (!Number.isNaN(values[c]!) && back[c] !== c) throw new Error(`code ${c} came back as ${back[c]}`);
    // NaNs come back as ml_dtypes writes them from float32: the quiet NaN of their sign.
    for (const c of [0x7f81, 0x7fc0, 0x7fff, 0xff81, 0xffc0, 0xffff])
      expect(back[c], `code ${c.toString(16)}`).toBe(c & 0x8000 ? 0xffc0 : 0x7fc0);
  });
});

describe("int4 and int2", () => {
  for (const name of ["int4", "int2"] as const) {
    it(`${name}: every byte reads as ml_dtypes reads it (its low bits, sign-extended)`, () => {
      expect(Array.from(decodeExtension(name, codes(256)))).toEqual(goldens[name].decode);
    });
  }

  it("write values sign-extended into the byte, as TensorStore's padded ints, wrapping out-of-range values", () => {
    expect(Array.from(encodeExtension("int4", [-8, -1, 0, 7, 8, 100]))).toEqual([0xf8, 0xff, 0x00, 0x07, 0xf8, 0x04]);
    expect(Array.from(encodeExtension("int2", [-2, -1, 1, 2]))).toEqual([0xfe, 0xff, 0x01, 0xfe]);
  });
});

describe("uint4 and uint2 (Zarr v3 extension data types)", () => {
  for (const name of ["uint4", "uint2"] as const) {
    it(`${name}: every byte reads as ml_dtypes reads it (its low bits), as a Uint8Array`, () => {
      const values = decodeExtension(name, codes(256));
      expect(values).toBeInstanceOf(Uint8Array);
      expect(Array.from(values)).toEqual(goldens[name].decode);
      expect(typedArrayConstructor(parseDataType(name))).toBe(Uint8Array);
    });
  }

  it("write values zero-extended into the byte, wrapping out-of-range values", () => {
    expect(Array.from(encodeExtension("uint4", [0, 15, 16, 17, -1]))).toEqual([0, 15, 0, 1, 15]);
    expect(Array.from(encodeExtension("uint2", [0, 3, 4, -1]))).toEqual([0, 3, 0, 3]);
    expect(roundToExtension("uint4", 18)).toBe(2);
  });
});

describe("fill values of the extension dtypes", () => {
  const dt = (name: ExtensionName) => parseDataType(name);

  it("read as TensorStore reads them: floats rounded to the format, Infinity as NaN where there is none", () => {
    expect(decodeFillValue(0.1, dt("bfloat16"))).toBe(roundToExtension("bfloat16", 0.1));
    expect(decodeFillValue(0.1, dt("bfloat16"))).toBe(0.10009765625);
    expect(decodeFillValue("NaN", dt("float8_e5m2"))).toBeNaN();
    expect(decodeFillValue("Infinity", dt("float8_e5m2"))).toBe(Infinity);
    expect(decodeFillValue("Infinity", dt("float8_e4m3fn"))).toBeNaN();
    expect(decodeFillValue(-1, dt("int4"))).toBe(-1);
    expect(() => decodeFillValue(8, dt("int4"))).toThrow(/from -8 to 7/);
    expect(() => decodeFillValue("x", dt("float8_e4m3fn"))).toThrow(/fill_value/);
  });

  it("write numbers as TensorStore writes them", () => {
    expect(JSON.stringify(encodeFillValue(1.5, dt("bfloat16")) as object)).toBe('{"value":1.5}');
    expect(encodeFillValue(NaN, dt("float8_e4m3fnuz"))).toBe("NaN");
    expect(encodeFillValue(-3, dt("int4"))).toBe(-3);
  });

  it("normalise what users pass, and store the format's bits", () => {
    expect(normalizeFillValue(300, dt("float8_e4m3fn"))).toBe(288);
    expect(normalizeFillValue("inf", dt("float8_e4m3fnuz"))).toBeNaN();
    expect(() => normalizeFillValue(2, dt("int2"))).toThrow(/from -2 to 1/);
    expect(Array.from(fillValueBytes(1.5, dt("bfloat16")))).toEqual([0xc0, 0x3f]);
    expect(Array.from(fillValueBytes(-1, dt("int4")))).toEqual([0xff]);
  });
});

describe("the float32 fast path and the exact double path agree", () => {
  for (const name of ["bfloat16", ...FLOAT8] as const) {
    it(name, () => {
      const probes = name === "bfloat16" ? goldens.bfloat16.encode : (goldens[name] as FloatGolden).encode;
      const inputs = Float32Array.from(probes, ([bits]) => f32(bits)).filter((x) => !Number.isNaN(x));
      expect(Array.from(encodeExtension(name, inputs))).toEqual(Array.from(encodeExtension(name, Array.from(inputs))));
    });
  }
});
