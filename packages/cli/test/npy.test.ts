import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dataTypeToJSON, parseDataType, type JsonValue } from "@z/meta";
import {
  descrRepr,
  descrToDataType,
  encodeNpy,
  encodeNpyHeader,
  npyDataOffset,
  parseNpyHeader,
  readNpy,
  NpyError,
} from "../src/npy/index.js";
import { parsePyLiteral, PyTuple } from "../src/npy/python-literal.js";
import { reorder } from "../src/nd.js";
import { arrayRepr } from "../src/repr/array-repr.js";

interface Entry {
  dtype: JsonValue;
  shape: number[];
  fortran_order: boolean;
  version: [number, number];
  data: string;
  repr: string;
}

/** numpy 1.24 wrote these files (test/python/npy_fixtures.py). */
const DIR = new URL("./fixtures/npy/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("manifest.json", DIR), "utf8")) as Record<string, Entry>;
const file = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`${name}.npy`, DIR)));
const entries = Object.entries(manifest);

describe("reading .npy files numpy wrote", () => {
  it.each(entries)("%s", (name, entry) => {
    const { header, data } = readNpy(file(name), name);
    expect(header.version).toEqual(entry.version);
    expect(header.shape).toEqual(entry.shape);
    expect(header.fortranOrder).toBe(entry.fortran_order);
    // numpy's padding fields are offsets, not fields, so compare the descr numpy wrote back
    expect(dataTypeToJSON(header.dtype)).toEqual(entry.dtype);
    const cOrder = header.fortranOrder ? reorder(data, header.shape, header.dtype.itemsize, "F") : data;
    expect(Buffer.from(cOrder).toString("base64")).toBe(entry.data);
    // An aligned struct's flag is not part of a Zarr dtype (its layout, padding included, is).
    expect(arrayRepr(cOrder, header.shape, header.dtype)).toBe(entry.repr.replace(", 'aligned': True", ""));
  });
});

describe("writing .npy files", () => {
  it.each(entries)("%s: byte for byte as numpy wrote it", (name, entry) => {
    const bytes = file(name);
    const { header, data } = readNpy(bytes, name);
    if (entry.version[0] === 2) return; // numpy writes 2.0 only when asked; we choose as np.save does
    expect(Buffer.from(encodeNpy(header, data)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("chooses version 2.0 for headers over 64 KiB", () => {
    const fields = Array.from({ length: 3000 }, (_, i) => [`field_number_${i}`, "<i4"]);
    const header = encodeNpyHeader({ dtype: parseDataType(fields), shape: [1], fortranOrder: false });
    expect([header[6], header[7]]).toEqual([2, 0]);
    expect(header.length % 64).toBe(0);
    expect(parseNpyHeader(header).dtype.itemsize).toBe(12000);
  });

  it("aligns the data to 64 bytes and leaves room to grow the shape", () => {
    for (const shape of [[], [3], [123456789, 2]]) {
      const header = encodeNpyHeader({ dtype: parseDataType("<f8"), shape, fortranOrder: false });
      expect(header.length % 64).toBe(0);
      expect(npyDataOffset(header)).toBe(header.length);
      expect(header[header.length - 1]).toBe(0x0a);
    }
  });

  it("writes numpy's descr for structured dtypes, padding included", () => {
    const dtype = descrToDataType(parsePyLiteral("[('a', '|u1'), ('', '|V3'), ('b', '<i4', (2,))]"));
    expect(dtype.kind === "structured" && dtype.fields.map((f) => [f.name, f.offset])).toEqual([
      ["a", 0],
      ["b", 4],
    ]);
    expect(descrRepr(dtype)).toBe("[('a', '|u1'), ('', '|V3'), ('b', '<i4', (2,))]");
  });

  it("refuses data of the wrong length", () => {
    expect(() =>
      encodeNpy({ dtype: parseDataType("<i4"), shape: [2], fortranOrder: false }, new Uint8Array(4)),
    ).toThrow(NpyError);
  });
});

describe("bad .npy files", () => {
  const good = file("i8");
  const cases: [string, Uint8Array, RegExp][] = [
    ["not npy", new TextEncoder().encode("hello world, not numpy"), /not a \.npy file/],
    ["empty", new Uint8Array(0), /not a \.npy file/],
    [
      "version 4",
      Uint8Array.from([...good.slice(0, 6), 4, 0, ...good.slice(8)]),
      /unsupported \.npy format version 4\.0/,
    ],
    ["cut header", good.slice(0, 40), /cut short/],
    ["cut data", good.slice(0, good.length - 3), /holds 21 bytes of data, its header needs 24/],
  ];
  it.each(cases)("%s", (_, bytes, message) => {
    expect(() => readNpy(bytes, "x.npy")).toThrow(message);
  });

  const withHeader = (text: string): Uint8Array => {
    const body = new TextEncoder().encode(text);
    const out = new Uint8Array(10 + body.length);
    out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, body.length, 0]);
    out.set(body, 10);
    return out;
  };
  const headers: [string, RegExp][] = [
    ["{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", /pickle/],
    ["{'descr': [(('title', 'a'), '<i4')], 'fortran_order': False, 'shape': (1,), }", /titled fields/],
    ["{'descr': '<f8', 'fortran_order': 0, 'shape': (1,), }", /fortran_order/],
    ["{'descr': '<f8', 'fortran_order': False, 'shape': [1], }", /shape is not a tuple/],
    ["{'descr': '<f8', 'shape': (1,), }", /exactly the keys/],
    ["{'descr': '<x9', 'fortran_order': False, 'shape': (1,), }", /unsupported \.npy descr/],
    ["{'descr': '<f8', 'fortran_order': False, 'shape': (1,) ", /cannot parse/],
    ["['descr']", /not a dict/],
  ];
  it.each(headers)("header %s", (text, message) => {
    expect(() => parseNpyHeader(withHeader(text), "x.npy")).toThrow(message);
  });
});

describe("Python literals", () => {
  it("reads what numpy writes and what older numpy wrote", () => {
    const dict = parsePyLiteral("{'descr': '<f8', 'fortran_order': True, 'shape': (3L, 4L), }") as Map<
      unknown,
      unknown
    >;
    expect(dict.get("descr")).toBe("<f8");
    expect(dict.get("fortran_order")).toBe(true);
    expect((dict.get("shape") as PyTuple).items).toEqual([3, 4]);
    expect(parsePyLiteral("()")).toEqual(new PyTuple([]));
    expect(parsePyLiteral("(5,)")).toEqual(new PyTuple([5]));
    expect(parsePyLiteral("(5)")).toBe(5);
    expect(parsePyLiteral(`"it's" `)).toBe("it's");
    expect(parsePyLiteral(String.raw`'\xe9\u00e9\U0001f600\n\\\''`)).toBe("éé😀\n\\'");
    expect(parsePyLiteral("[None, -1, +2]")).toEqual([null, -1, 2]);
  });

  it.each(["{'a': }", "(1, 2", "'open", "1.5", "{'a' 1}", "12345678901234567890", "Truth"])("refuses %s", (text) => {
    expect(() => parsePyLiteral(text)).toThrow();
  });
});

describe("reorder", () => {
  it("moves between C and Fortran order", () => {
    const c = Uint8Array.from([0, 1, 2, 3, 4, 5]); // shape (2, 3) in C order
    const f = reorder(c, [2, 3], 1, "C");
    expect([...f]).toEqual([0, 3, 1, 4, 2, 5]);
    expect([...reorder(f, [2, 3], 1, "F")]).toEqual([...c]);
    const c3 = Uint8Array.from({ length: 24 }, (_, i) => i);
    expect([...reorder(reorder(c3, [2, 3, 4], 1, "C"), [2, 3, 4], 1, "F")]).toEqual([...c3]);
    expect(reorder(c, [1, 6], 1, "C")).toBe(c);
  });
});
