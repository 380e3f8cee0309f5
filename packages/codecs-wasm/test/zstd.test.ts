import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodecError } from "@z/codecs";
import { checkCodec, contextFor, defaultSamples, pseudoRandomBytes } from "@z/codecs/testing";
import { zstd } from "../src/zstd.js";
import { xxh64 } from "../src/xxhash64.js";
import { loadKernels, setKernelsEnabled } from "../src/kernels.js";
import { numcodecsFixtures } from "./fixtures.js";

// Every case runs with the WebAssembly decoder (wasm/zstd.c) and with the TypeScript one.
for (const wasm of [true, false]) {
  describe(wasm ? "with the WebAssembly decoder" : "with the TypeScript decoder", () => {
    beforeAll(async () => {
      expect(await loadKernels(true)).toBeDefined();
      setKernelsEnabled(wasm);
    });
    afterAll(() => setKernelsEnabled(true));

    checkCodec(
      zstd,
      {
        configs: [{ id: "zstd", level: 1 }],
        encoded: numcodecsFixtures("zstd"),
        corruption: "truncation",
        boundedDecode: true,
      },
      { describe, it },
    );

    // Other levels and checksums, without the 1 MiB sample to keep the run short.
    const small = defaultSamples().filter((sample) => !sample.name.startsWith("large"));
    checkCodec(
      zstd,
      {
        configs: [
          { id: "zstd", level: 5 },
          { id: "zstd", level: -3 },
        ],
        samples: small,
        corruption: "truncation",
        boundedDecode: true,
      },
      { describe, it },
    );

    describe("with checksums", () => {
      checkCodec(
        zstd,
        {
          configs: [{ id: "zstd", level: 3, checksum: true }],
          samples: small,
          corruption: "checksum",
          boundedDecode: true,
        },
        { describe, it },
      );
    });

    describe("zstd", () => {
      const context = (n: number) => ({ ...contextFor(new Uint8Array(n)), key: "z/1.2" });

      it("writes numcodecs' config; checksum only when given", () => {
        expect(zstd.create().toJSON()).toEqual({ id: "zstd", level: 1 });
        expect(zstd.create({ level: -5 }).toJSON()).toEqual({ id: "zstd", level: -5 });
        expect(zstd.create({ id: "zstd", level: 3, checksum: false } as never).toJSON()).toEqual({
          id: "zstd",
          level: 3,
          checksum: false,
        });
        expect(() => zstd.create({ checksum: 1 } as never)).toThrow(/checksum/);
      });

      it("writes a content checksum when asked, and verifies it", async () => {
        const data = new TextEncoder().encode("checksummed ".repeat(100));
        const encoded = (await zstd
          .create({ level: 3, checksum: true })
          .encode(data, context(data.length))) as Uint8Array;
        expect(encoded[4]! & 4).toBe(4);
        expect(zstd.create().decode(encoded, context(data.length))).toEqual(data);
        const bad = encoded.slice();
        bad[bad.length - 1]! ^= 1;
        expect(() => zstd.create().decode(bad, context(data.length))).toThrow(/checksum mismatch.*|z\/1\.2/);
        expect(() => zstd.create().decode(bad, context(data.length))).toThrow(CodecError);
      });

      it("decodes frames without a content size, several frames and skippable frames (numcodecs fixtures)", () => {
        const names = numcodecsFixtures("zstd", (n) => /streamed|frames|fast level/.test(n)).map((f) => f.name);
        expect(names.length).toBe(5);
      });

      it("refuses output above the chunk size for frames without a content size, without allocating it", () => {
        // A frame without content size: one RLE block of 128 KiB, repeated: 1 GiB claimed by a few bytes.
        const header = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58];
        // Block 20 (past 2.5 MiB) has the reserved type: a decoder that went on past the chunk's
        // 1 MiB, decoding what it no longer keeps, would say so instead, as it does for 4 MiB.
        const blocks: number[] = [];
        for (let i = 0; i < 8192; i++) {
          const last = i === 8191 ? 1 : 0;
          const h = last | ((i === 20 ? 3 : 1) << 1) | ((128 * 1024) << 3);
          blocks.push(h & 255, (h >>> 8) & 255, (h >>> 16) & 255, 0x61);
        }
        const bomb = new Uint8Array([...header, ...blocks]);
        expect(() => zstd.create().decode(bomb, context(4 << 20))).toThrow(/reserved block type/);
        expect(() => zstd.create().decode(bomb, context(1 << 20))).toThrow(/decodes to more than 1048576 bytes/);
      });

      it("refuses trailing garbage, bad magic, reserved bits and dictionaries", () => {
        const c = zstd.create();
        const ctx = context(100);
        expect(() => c.decode(new Uint8Array([1, 2, 3, 4, 5, 6]), ctx)).toThrow(/not Zstandard data/);
        expect(() => c.decode(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x08, 0x58]), ctx)).toThrow(/reserved bit/);
        expect(() => c.decode(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x01, 0x58, 0x07, 1, 0, 0]), ctx)).toThrow(
          /dictionary 7/,
        );
        // An empty raw last block, then junk.
        expect(() => c.decode(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58, 1, 0, 0, 9, 9]), ctx)).toThrow(
          /truncated|not Zstandard/,
        );
        expect(c.decode(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58, 1, 0, 0]), ctx)).toEqual(new Uint8Array(0));
      });
    });
  });
}

describe("xxh64", () => {
  it("computes XXH64 like the reference (known values)", () => {
    const hex = (d: Uint8Array) =>
      xxh64(d)
        .map((v) => v.toString(16).padStart(8, "0"))
        .join("");
    expect(hex(new Uint8Array(0))).toBe("ef46db3751d8e999");
    expect(hex(new TextEncoder().encode("a"))).toBe("d24ec4f1a98c6e5b");
    expect(hex(new TextEncoder().encode("abc"))).toBe("44bc2cf5ad770999");
    expect(hex(new TextEncoder().encode("Nobody inspects the spammish repetition"))).toBe("fbcea83c8a378bf1");
    expect(hex(pseudoRandomBytes(0))).toBe("ef46db3751d8e999");
  });

  it("hashes many 32-byte stripes and the tail after them, of a whole buffer or a part of it", () => {
    // Values from xxhash-wasm 1.1.0's h64Raw (an implementation of its own, in WebAssembly).
    const bytes = (n: number, seed: number) => {
      const d = new Uint8Array(n);
      let s = seed;
      for (let i = 0; i < n; i++) {
        s = (Math.imul(s, 1103515245) + 12345) >>> 0;
        d[i] = s >>> 24;
      }
      return d;
    };
    const hex = ([high, low]: [number, number]) =>
      high.toString(16).padStart(8, "0") + low.toString(16).padStart(8, "0");
    const expected: [number, string][] = [
      [32, "28fc5963759a6033"],
      [63, "14c2074a400ae137"],
      [64, "849a522f285a26ca"],
      [100, "62bc3b54b1c633bf"],
      [1000, "7a26cf5d511760c7"],
      [65536 + 31, "c9ef607201e25a31"],
      [(1 << 20) + 5, "29867539a06ca7d5"],
    ];
    for (const [n, value] of expected) expect(hex(xxh64(bytes(n, n))), `${n} bytes`).toBe(value);
    const big = bytes(5000, 9);
    expect(hex(xxh64(big, 17, 4093))).toBe("f974fb24809cb348");
  });
});
