import { describe, expect, it } from "vitest";
import { bz2, CodecError, defaultRegistry } from "@z/codecs";
import { checkCodec, pseudoRandomBytes } from "@z/codecs/testing";
import { encodeBzip2 } from "../src/bz2-encode.js";
import { byteChunk, compressFixtures, sameBytes, sha256 } from "./compress-fixtures.js";

// Level 9 (900k blocks) is checked below; the contract's many corrupt decodes run on 100k blocks.
checkCodec(bz2, { configs: [{ id: "bz2", level: 1 }], boundedDecode: true, timeout: 15000 }, { describe, it });

const { inputs, fixtures } = compressFixtures("bz2");

describe("bz2: fixtures made by Python", () => {
  for (const fixture of fixtures) {
    const { python } = fixture;
    if ("error" in python) {
      it(`refuses ${fixture.name} (Python: ${python.error})`, async () => {
        const codec = await defaultRegistry.create(fixture.config);
        const decode = async () => codec.decode(fixture.encoded, byteChunk(1 << 22, "a/1.2"));
        await expect(decode()).rejects.toThrow(CodecError);
        await expect(decode()).rejects.toThrow(/bz2 .*in chunk a\/1\.2/);
      });
    } else {
      it(`decodes ${fixture.name} as Python does`, async () => {
        const codec = await defaultRegistry.create(fixture.config);
        const decoded = (await codec.decode(fixture.encoded, byteChunk(python.size))) as Uint8Array;
        expect(decoded.length).toBe(python.size);
        expect(sha256(decoded)).toBe(python.sha256);
      });
    }
  }
});

describe("bz2: our encodings, decoded by Python", () => {
  const ours = fixtures.filter((f) => f.name.startsWith("ours "));
  it("has some", () => expect(ours.length).toBeGreaterThanOrEqual(4));
  for (const fixture of ours) {
    it(`Python decoded ${fixture.name} to its input`, () => {
      expect(fixture.python).toEqual(inputs[fixture.input!]);
    });
    if (!fixture.name.includes("randomised")) {
      it(`${fixture.name} is about as small as Python's`, () => {
        expect(fixture.encoded.length).toBeLessThanOrEqual(Math.ceil(fixture.python_size! * 1.05) + 16);
      });
    }
  }
});

describe("bz2: decoding", () => {
  const text = new TextEncoder().encode("bzip2 test data, ".repeat(2000));
  const encoded = encodeBzip2(text, 1);

  it("reads randomised blocks", () => {
    const data = pseudoRandomBytes(120000, 5).map((b) => b & 7);
    const randomised = encodeBzip2(data, 1, { randomise: true });
    expect(randomised).not.toEqual(encodeBzip2(data, 1));
    expect(sameBytes(bz2.create().decode(randomised, byteChunk(data.length)), data)).toBe(true);
  });

  it("reads several blocks and streams, and ignores invalid data after a stream", () => {
    const data = pseudoRandomBytes(250000, 9).map((b) => b & 3);
    const joined = new Uint8Array([
      ...encodeBzip2(data, 1),
      ...encoded,
      ...new TextEncoder().encode("not bzip2 at all"),
    ]);
    const decoded = bz2.create().decode(joined, byteChunk(data.length + text.length)) as Uint8Array;
    expect(sameBytes(decoded.subarray(0, data.length), data)).toBe(true);
    expect(sameBytes(decoded.subarray(data.length), text)).toBe(true);
  });

  it("decodes an empty input to nothing, as Python does", () => {
    expect(bz2.create().decode(new Uint8Array(0), byteChunk(10))).toEqual(new Uint8Array(0));
  });

  const failures: [string, Uint8Array, RegExp][] = [
    ["not bzip2", new TextEncoder().encode("PK\x03\x04 hello"), /corrupt bz2 data in chunk k\/0: not bzip2 data/],
    ["a bad block size", Uint8Array.of(0x42, 0x5a, 0x68, 0x30, 0x31, 0x41), /invalid block size/],
    ["a header only", Uint8Array.of(0x42, 0x5a, 0x68, 0x39), /unexpected end of data/],
    ["a truncated stream", encoded.subarray(0, encoded.length - 3), /unexpected end of data/],
    ["a wrong block CRC", flip(encoded, 11, 0), /block 0: CRC mismatch/],
    ["a wrong stream CRC", flip(encoded, encoded.length - 2, 3), /stream CRC mismatch/],
    ["a bad block magic", flip(encoded, 5, 1), /bad block magic/],
    ["a truncated trailing stream", new Uint8Array([...encoded, 0x42, 0x5a]), /unexpected end of data/],
  ];
  for (const [what, data, message] of failures) {
    it(`refuses ${what} with a CodecError naming the codec and chunk`, () => {
      let error: unknown;
      try {
        bz2.create().decode(data, { ...byteChunk(1 << 20), key: "k/0" });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CodecError);
      expect((error as CodecError).codecId).toBe("bz2");
      expect((error as CodecError).key).toBe("k/0");
      expect((error as Error).message).toMatch(message);
    });
  }

  it("refuses output larger than the chunk as soon as it gets there (a decompression bomb)", () => {
    const bomb = encodeBzip2(new Uint8Array(50 << 20), 9);
    expect(bomb.length).toBeLessThan(200);
    // Cut off in its end-of-stream marker, after all its blocks: a decoder that went on past the
    // chunk's 1 MiB, decoding what it no longer keeps, would find the end missing, as it does for 64 MiB.
    const cut = bomb.subarray(0, bomb.length - 4);
    expect(() => bz2.create().decode(cut, byteChunk(64 << 20, "x/0"))).toThrow(
      /corrupt bz2 data in chunk x\/0: unexpected end of data/,
    );
    expect(() => bz2.create().decode(cut, byteChunk(1 << 20, "x/0"))).toThrow(
      /bz2 data in chunk x\/0 decodes to more than 1048576 bytes/,
    );
    // Encoding 50 MiB and decoding it whole take a few seconds on a loaded machine.
  }, 60_000);
});

describe("bz2: config", () => {
  it("is numcodecs' BZ2 config", () => {
    expect(bz2.create().toJSON()).toEqual({ id: "bz2", level: 1 });
    expect(bz2.create({ level: 9 }).toJSON()).toEqual({ id: "bz2", level: 9 });
    expect(() => bz2.create({ level: 0 })).toThrow(/level/);
    expect(() => bz2.create({ level: 10 })).toThrow(/level/);
  });
  it("is in the default registry", async () => {
    expect(defaultRegistry.has("bz2")).toBe(true);
    expect((await defaultRegistry.create({ id: "bz2", level: 3 })).toJSON()).toEqual({ id: "bz2", level: 3 });
  });
  it("encodes every level to what it decodes", async () => {
    const data = pseudoRandomBytes(20000, 3).map((b) => b % 5);
    for (let level = 1; level <= 9; level++) {
      const codec = bz2.create({ level });
      const encoded = await codec.encode(data, byteChunk(data.length));
      expect(sameBytes(await codec.decode(encoded, byteChunk(data.length)), data)).toBe(true);
    }
  });
});

function flip(bytes: Uint8Array, index: number, bit: number): Uint8Array {
  const copy = bytes.slice();
  copy[index]! ^= 1 << bit;
  return copy;
}
