import { describe, expect, it } from "vitest";
import { CodecError, defaultRegistry, lzma } from "@z/codecs";
import { checkCodec, defaultSamples, pseudoRandomBytes } from "@z/codecs/testing";
import { byteChunk, compressFixtures, sameBytes, sha256 } from "./compress-fixtures.js";

const { inputs, fixtures } = compressFixtures("lzma");

describe("lzma: fixtures made by Python", () => {
  for (const fixture of fixtures) {
    const { python } = fixture;
    if (fixture.note?.includes("not supported")) {
      it(`refuses ${fixture.name}, which it does not support`, async () => {
        const codec = await defaultRegistry.create(fixture.config);
        await expect(async () => codec.decode(fixture.encoded, byteChunk(1 << 22, "a/1.2"))).rejects.toThrow(
          /corrupt lzma data in chunk a\/1\.2: unsupported filter: x86 BCJ/,
        );
      });
    } else if ("error" in python) {
      it(`refuses ${fixture.name} (Python: ${python.error})`, async () => {
        const codec = await defaultRegistry.create(fixture.config);
        const decode = async () => codec.decode(fixture.encoded, byteChunk(1 << 22, "a/1.2"));
        await expect(decode()).rejects.toThrow(CodecError);
        await expect(decode()).rejects.toThrow(/lzma .*in chunk a\/1\.2/);
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

describe("lzma: our encodings, decoded by Python", () => {
  const ours = fixtures.filter((f) => f.name.startsWith("ours "));
  it("has some", () => expect(ours.length).toBeGreaterThanOrEqual(8));
  for (const fixture of ours) {
    it(`Python decoded ${fixture.name} to its input`, () => {
      expect(fixture.python).toEqual(inputs[fixture.input!]);
    });
    it(`${fixture.name} is about as small as Python's`, () => {
      expect(fixture.encoded.length).toBeLessThanOrEqual(Math.ceil(fixture.python_size! * 1.05) + 16);
    });
  }
});

describe("lzma: LZMA2 chunks", () => {
  // 64 KiB of compressed data per LZMA chunk at most: a mix of random and repetitive stretches
  // makes several chunks, stored (uncompressed) ones among them, then LZMA chunks with a state reset.
  const parts: Uint8Array[] = [];
  for (let i = 0; i < 3; i++) {
    parts.push(new TextEncoder().encode(`part ${i} `.repeat(5000)), pseudoRandomBytes(150000, i + 1));
  }
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (data.set(p, at), at + p.length), 0);

  for (const preset of [1, 6]) {
    it(`preset ${preset}: splits into stored and LZMA chunks that decode back`, async () => {
      const codec = lzma.create({ format: 3, filters: [{ id: 33, preset }] });
      const encoded = (await codec.encode(data, byteChunk(data.length))) as Uint8Array;
      const controls: number[] = [];
      for (let pos = 0; encoded[pos] !== 0; ) {
        const control = encoded[pos]!;
        controls.push(control);
        if (control < 0x80) pos += 3 + ((encoded[pos + 1]! << 8) | encoded[pos + 2]!) + 1;
        else pos += (control >= 0xc0 ? 6 : 5) + ((encoded[pos + 3]! << 8) | encoded[pos + 4]!) + 1;
      }
      expect(controls.filter((c) => c === 0x01 || c === 0x02).length).toBeGreaterThan(0);
      expect(controls.filter((c) => c >= 0x80).length).toBeGreaterThan(1);
      expect(controls.some((c) => (c & 0xe0) === 0xa0)).toBe(true);
      expect(sameBytes(await codec.decode(encoded, byteChunk(data.length)), data)).toBe(true);
    });
  }
});

checkCodec(
  lzma,
  { configs: [{ id: "lzma", format: 1, check: -1, preset: null, filters: null }], boundedDecode: true, timeout: 15000 },
  { describe, it },
);
// .lzma and raw streams have no check: a flipped bit may decode to other bytes, but truncation
// must fail. (The 1 MiB sample is left to the default config above, to keep the run short.)
checkCodec(
  lzma,
  {
    samples: defaultSamples().filter((sample) => sample.data.length < 1 << 20),
    configs: [
      { id: "lzma", format: 2, check: -1, preset: 1, filters: null },
      {
        id: "lzma",
        format: 3,
        check: -1,
        preset: null,
        filters: [
          { id: 3, dist: 4 },
          { id: 33, preset: 0 },
        ],
      },
    ],
    corruption: "truncation",
    boundedDecode: true,
    timeout: 15000,
  },
  { describe, it },
);

describe("lzma: round trips", () => {
  const data = pseudoRandomBytes(100000, 11).map((b, i) => (b & 3) + (i % 7));
  const chunk = byteChunk(data.length);
  const configs = [
    { format: 1, check: 0 },
    { format: 1, check: 1 },
    { format: 1, check: 10, preset: 3 },
    { format: 1, preset: 9 + 0x80000000 },
    { format: 3, filters: [{ id: 0x4000000000000001n, lc: 0, lp: 2, pb: 2, dict_size: 65536 }] },
    {
      format: 3,
      filters: [
        { id: 3, dist: 2 },
        { id: 3, dist: 1 },
        { id: 33, mode: 1, nice_len: 8 },
      ],
    },
  ] as const;
  for (const config of configs) {
    it(`round-trips ${JSON.stringify(config, (_, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))}`, async () => {
      const codec = lzma.create(config);
      const encoded = (await codec.encode(data, chunk)) as Uint8Array;
      expect(encoded.length).toBeLessThan(data.length * 0.7);
      expect(sameBytes(await codec.decode(encoded, chunk), data)).toBe(true);
    });
  }
});
