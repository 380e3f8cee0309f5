import { describe, expect, it } from "vitest";
import { fletcher32 } from "@z/codecs";
import { checkCodec, contextFor, defaultSamples } from "@z/codecs/testing";
import { checkChecksumFixtures } from "./checksum-fixtures.js";
import { fletcher32 as checksum } from "../src/checksum32.js";

// Zeros are Fletcher's blind spot: all-zero data has an all-zero checksum, so zero data cut short
// by a byte still checks out. The other samples must all be caught.
checkCodec(fletcher32, { samples: defaultSamples().filter((s) => !s.name.startsWith("zeros")) }, { describe, it });

checkChecksumFixtures(fletcher32, "fletcher32", { describe, it, expect });

describe("fletcher32", () => {
  it("matches Fletcher-32 worked by hand from the HDF5 definition", () => {
    // Words 0x0102: sum1 = 0x0102, sum2 = 0x0102.
    expect(checksum(new Uint8Array([1, 2]))).toBe(0x01020102);
    // Words 0x0102, 0x0300 (odd byte as the high byte): sum1 = 0x0402, sum2 = 0x0102 + 0x0402.
    expect(checksum(new Uint8Array([1, 2, 3]))).toBe(0x05040402);
    // 0xffff words fold: sum1 = 0xffff stays 0xffff until the final fold; two of them: 0x1fffe → 0xffff.
    expect(checksum(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toBe(
      0xffffffff, // sum2 = 0xffff + 0x1fffe folds to 0, which Fletcher-32 writes as 0xffff
    );
    expect(checksum(new Uint8Array(0))).toBe(0);
  });

  it("numcodecs' known vector (tests/test_fletcher32.py)", async () => {
    const values = new BigInt64Array([1911n, -2427n, 1897n, -2412n, 2440n, 873n, -621n, -829n, 551n, -2118n]);
    const data = new Uint8Array(values.buffer);
    const encoded = (await fletcher32.create().encode(data, contextFor(data))) as Uint8Array;
    expect([...encoded.subarray(80)]).toEqual([0xfd, 0x25, 0x86, 0x64]);
    expect(fletcher32.create().toJSON()).toEqual({ id: "fletcher32" });
  });
});
