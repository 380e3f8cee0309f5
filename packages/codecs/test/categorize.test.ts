import { describe, expect, it } from "vitest";
import { categorize, CodecConfigError } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkFilterFixtures, filterCases, bytes } from "./python-fixtures.js";

const labels = ["female", "male", "ñandú", "日本", "😀"];
const objectContext = (n: number) => ({
  dtype: { kind: "O", byteOrder: "|", itemsize: 8 } as const,
  itemsize: 8,
  elements: n,
  key: "c/0",
});

checkCodec(
  categorize,
  {
    configs: [
      { id: "categorize", labels, dtype: "|O", astype: "|u1" },
      { id: "categorize", labels, dtype: "|O", astype: "<i4" },
    ],
    samples: [
      { name: "empty", data: [] },
      { name: "labels", data: Array.from({ length: 1000 }, (_, i) => ["", ...labels][i % 6]!) },
    ],
    corruption: "none",
  },
  { describe, it },
);

describe("categorize: numcodecs fixtures of object arrays", () => {
  for (const c of filterCases("categorize").filter((c) => c.config.dtype === "|O")) {
    it(c.name, async () => {
      const codec = categorize.create(c.config);
      expect(codec.toJSON()).toEqual(c.config);
      const encoded = bytes(c.encoded);
      if (c.input !== undefined) {
        // The generator's object arrays of words (see numcodecs_fixtures.py).
        const words = ["male", "female", "female", "unexpected", "ñandú", "日本", "😀", "", "male", "femal"];
        const input = c.name.includes("repeated") ? ["a", "b", "c"] : words;
        expect(await codec.encode(input, objectContext(input.length))).toEqual(encoded);
      }
      const decoded = await codec.decode(encoded, objectContext(encoded.length));
      expect(decoded).toEqual(
        c.name.includes("repeated")
          ? ["a", "b", ""]
          : expectedWords(encoded, c.config.labels as string[], c.config.astype as string),
      );
    });
  }
});

/** numcodecs' decoding of codes: the label of each code, "" for 0 and unknown codes. */
function expectedWords(encoded: Uint8Array, labels: string[], astype: string): string[] {
  const size = Number(astype.slice(2));
  const view = new DataView(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  const out: string[] = [];
  for (let i = 0; i < encoded.length; i += size) {
    const le = astype[0] !== ">";
    const kind = astype[1];
    const code =
      kind === "f"
        ? size === 4
          ? view.getFloat32(i, le)
          : view.getFloat64(i, le)
        : size === 1
          ? view.getUint8(i)
          : size === 2
            ? kind === "i"
              ? view.getInt16(i, le)
              : view.getUint16(i, le)
            : size === 4
              ? kind === "i"
                ? view.getInt32(i, le)
                : view.getUint32(i, le)
              : Number(view.getBigUint64(i, le));
    out.push(code >= 1 && code <= labels.length && Number.isInteger(code) ? labels[code - 1]! : "");
  }
  return out;
}

// Fixed-width unicode data is bytes, as any filter's.
checkFilterFixtures({ create: (config) => categorize.create(config) }, "categorize", {
  describe: (name, body) => describe(`${name}, unicode dtypes`, body),
  it: (name, body) => (name.includes("<U") || name.includes(">U") ? it(name, body) : undefined),
  expect,
});

describe("categorize config", () => {
  it("takes object and unicode dtypes, astype |u1 by default", () => {
    expect(categorize.create({ labels: ["a"], dtype: "object" }).toJSON()).toEqual({
      id: "categorize",
      labels: ["a"],
      dtype: "|O",
      astype: "|u1",
    });
    expect(() => categorize.create({ labels: ["a"], dtype: "<i4" })).toThrow(CodecConfigError);
    expect(() => categorize.create({ id: "categorize", labels: [1], dtype: "|O" })).toThrow(/labels\[0\]/);
  });

  it("encodes anything that is not a label as 0", async () => {
    const codec = categorize.create({ labels: ["a", "b"], dtype: "|O" });
    expect(await codec.encode(["b", null, 1, "a", "c", undefined], objectContext(6))).toEqual(
      new Uint8Array([2, 0, 0, 1, 0, 0]),
    );
    expect(() => codec.encode(new Uint8Array(3), objectContext(3))).toThrow(/categorize.*c\/0/);
  });
});
