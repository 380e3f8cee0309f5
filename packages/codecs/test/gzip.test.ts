import { describe, expect, it } from "vitest";
import { CodecError, gzip } from "@z/codecs";
import { checkCodec, contextFor } from "@z/codecs/testing";
import { numcodecsFixtures } from "./numcodecs-fixtures.js";

const hex = (text: string) => new Uint8Array(Buffer.from(text.replace(/\s+/g, ""), "hex"));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const ascii = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const chunkOf = (n: number) => contextFor(new Uint8Array(n), 1, { key: "foo/0.0" });

// numcodecs.GZip(1).encode(b"hello world") (numcodecs 0.11 writes the time in bytes 4-7)
const HELLO = hex("1f8b0800af80026b04ffcb48cdc9c95728cf2fca49010085114a0d0b000000");

// The codec contract, and the bytes numcodecs 0.11 wrote: levels 1, 5 and 9, plus gzip files its
// GZip decodes though it never writes them (two members, zero padding, a file name, every header
// field, the same member twice).
checkCodec(
  gzip,
  {
    configs: [
      { id: "gzip", level: 1 },
      { id: "gzip", level: -1 },
      { id: "gzip", level: 0 },
      { id: "gzip", level: 9 },
    ],
    encoded: numcodecsFixtures("gzip"),
    boundedDecode: true,
  },
  { describe, it },
);

describe("gzip config", () => {
  it("is numcodecs' GZip(level=1) by default, levels -1 to 9", () => {
    expect(gzip.create().toJSON()).toEqual({ id: "gzip", level: 1 });
    expect(gzip.create({ level: -1 }).toJSON()).toEqual({ id: "gzip", level: -1 });
    expect(() => gzip.create({ id: "gzip", level: 10 }, { key: "a/.zarray" })).toThrow(
      'invalid config for codec "gzip" in a/.zarray: field "level" must be an integer from -1 to 9, got 10',
    );
  });
});

describe("gzip interoperability with numcodecs 0.11", () => {
  it("decodes what numcodecs wrote", async () => {
    expect(await gzip.create().decode(HELLO, chunkOf(11))).toEqual(ascii("hello world"));
  });

  it("writes numcodecs' header, with mtime 0 so equal chunks are equal bytes", async () => {
    // CPython's GzipFile: magic, method 8, no flags (no file name for a BytesIO), mtime, XFL
    // (4 for level 1, 2 for level 9, else 0), OS 255. numcodecs 0.11 writes the current time as
    // mtime; we write 0 (as later numcodecs versions do).
    const header = async (level: number) =>
      toHex(
        ((await gzip.create({ level }).encode(ascii("abc"), contextFor(ascii("abc")))) as Uint8Array).subarray(0, 10),
      );
    expect(await header(1)).toBe("1f8b0800" + "00000000" + "04ff");
    expect(await header(9)).toBe("1f8b0800" + "00000000" + "02ff");
    for (const level of [-1, 0, 5, 6]) expect(await header(level)).toBe("1f8b0800" + "00000000" + "00ff");
  });

  it("encodes bytes numcodecs decodes", async () => {
    // Checked with /usr/bin/python3, numcodecs 0.11.0: numcodecs.GZip(level).decode(bytes.fromhex(x))
    // returns the input (and gzip.decompress too), for these and 25 more encodings. Apart from the
    // mtime, the bytes are Python's for these inputs.
    const verified: [Uint8Array, number, string][] = [
      [ascii("hello world"), 1, "1f8b08000000000004ffcb48cdc9c95728cf2fca49010085114a0d0b000000"],
      [ascii("hello world"), 9, "1f8b08000000000002ffcb48cdc9c95728cf2fca49010085114a0d0b000000"],
    ];
    for (const [input, level, expected] of verified) {
      expect(toHex((await gzip.create({ level }).encode(input, contextFor(input))) as Uint8Array)).toBe(expected);
    }
  });

  it("reads every member of a multi-member file, as GzipFile does", async () => {
    const twice = concat(HELLO, HELLO);
    expect(await gzip.create().decode(twice, chunkOf(22))).toEqual(ascii("hello worldhello world"));
  });

  it("skips zero padding after a member, and reads an empty input as empty, as GzipFile does", async () => {
    expect(await gzip.create().decode(concat(HELLO, new Uint8Array(5)), chunkOf(11))).toEqual(ascii("hello world"));
    expect(await gzip.create().decode(new Uint8Array(0), chunkOf(0))).toEqual(new Uint8Array(0));
  });
});

describe("gzip decodeInto", () => {
  const into = (data: Uint8Array, room: number) => {
    const out = new Uint8Array(room).fill(0xee);
    return { n: gzip.create().decodeInto!(data, out, chunkOf(22)) as number, out };
  };

  it("writes one member, or several, into the caller's buffer", () => {
    for (const [data, text] of [
      [HELLO, "hello world"],
      [concat(HELLO, HELLO), "hello worldhello world"],
    ] as const) {
      const { n, out } = into(data, 30);
      expect(n).toBe(text.length);
      expect(out.subarray(0, n)).toEqual(ascii(text));
      expect(out[n]).toBe(0xee);
    }
  });

  it("gives decode's errors: a bad CRC-32 or length, a buffer too small", () => {
    const badCrc = HELLO.slice();
    badCrc[HELLO.length - 8]! ^= 0xff;
    expect(() => into(badCrc, 30)).toThrow(
      "corrupt gzip data in chunk foo/0.0: CRC-32 checksum mismatch (stored 0x0d4a117a, computed 0x0d4a1185)",
    );
    const badSize = HELLO.slice();
    badSize[HELLO.length - 4] = 10;
    expect(() => into(badSize, 30)).toThrow(
      "corrupt gzip data in chunk foo/0.0: length mismatch (stored 10, decoded 11 bytes)",
    );
    expect(() => into(HELLO, 5)).toThrow(
      "gzip data in chunk foo/0.0 decodes to 11 bytes, more than the 5 of the buffer given",
    );
  });
});

describe("gzip corrupt input", () => {
  const decode = (data: Uint8Array, size = 11) => gzip.create().decode(data, chunkOf(size));

  it("is a CodecError naming the codec and the chunk key", async () => {
    const error = await rejection(() => decode(HELLO.subarray(0, 25)));
    expect(error).toBeInstanceOf(CodecError);
    expect(error).toMatchObject({ code: "ZARR_CODEC", codecId: "gzip", key: "foo/0.0" });
    expect(error.message).toBe(
      "corrupt gzip data in chunk foo/0.0: unexpected end of data (truncated CRC-32/length trailer)",
    );
  });

  it("checks each member's CRC-32 and length", async () => {
    const badCrc = HELLO.slice();
    badCrc[HELLO.length - 8]! ^= 0xff;
    expect((await rejection(() => decode(badCrc))).message).toBe(
      "corrupt gzip data in chunk foo/0.0: CRC-32 checksum mismatch (stored 0x0d4a117a, computed 0x0d4a1185)",
    );
    const badSize = HELLO.slice();
    badSize[HELLO.length - 4] = 10;
    expect((await rejection(() => decode(badSize))).message).toBe(
      "corrupt gzip data in chunk foo/0.0: length mismatch (stored 10, decoded 11 bytes)",
    );
    const secondBad = concat(HELLO, badCrc);
    expect((await rejection(() => decode(secondBad, 22))).message).toMatch(
      /CRC-32 checksum mismatch .* \(member 2, offset 31\)$/,
    );
  });

  it("refuses bytes after the last member that are not another member", async () => {
    // GzipFile: BadGzipFile('Not a gzipped file')
    expect((await rejection(() => decode(concat(HELLO, ascii("xx"))))).message).toBe(
      "corrupt gzip data in chunk foo/0.0: unexpected bytes after the end of the data (member 2, offset 31)",
    );
    expect((await rejection(() => decode(ascii("hello world")))).message).toMatch(/not gzip data \(bad magic bytes\)/);
  });

  it("refuses output larger than the chunk, without inflating it into memory", async () => {
    const zeros = new Uint8Array(16 << 20);
    const bomb = (await gzip.create({ level: 9 }).encode(zeros, contextFor(zeros))) as Uint8Array;
    const error = await rejection(() => decode(bomb, 4096));
    expect(error).toMatchObject({ code: "ZARR_CODEC", codecId: "gzip", key: "foo/0.0" });
    expect(error.message).toMatch(/decodes to more than 4096 bytes.*decompression bomb/);
    // Spread over members, or hidden behind a wrong length field, it is refused all the same.
    const small = (await gzip.create().encode(new Uint8Array(3000), contextFor(new Uint8Array(3000)))) as Uint8Array;
    expect((await rejection(() => decode(concat(small, small), 4096))).message).toMatch(/decodes to more than 4096/);
    const lying = bomb.slice();
    lying.set([0, 0, 0, 0], lying.length - 4);
    expect((await rejection(() => decode(lying, 4096))).message).toMatch(/decodes to more than 4096/);
  });
});

async function rejection(run: () => unknown): Promise<Error & Record<string, unknown>> {
  try {
    await run();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected an error");
}
