import { describe, expect, it } from "vitest";
import { JsonFloat } from "@z/meta";
import { CodecConfigError, CodecError, defaultRegistry, zlib } from "@z/codecs";
import { checkCodec, contextFor } from "@z/codecs/testing";
import { numcodecsFixtures } from "./numcodecs-fixtures.js";

const hex = (text: string) => new Uint8Array(Buffer.from(text.replace(/\s+/g, ""), "hex"));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const ascii = (text: string) => new TextEncoder().encode(text);
const arange100 = new Uint8Array(new Int32Array(Array.from({ length: 100 }, (_, i) => i)).buffer);

/** A chunk of `n` one-byte elements at key foo/0.0. */
const chunkOf = (n: number) => contextFor(new Uint8Array(n), 1, { key: "foo/0.0" });

// The codec contract: round trips, config round trip, corrupt input, bounded output, and the bytes
// numcodecs 0.11 wrote at levels -1, 0, 1, 6 and 9 (test/fixtures/generate.py).
checkCodec(
  zlib,
  {
    configs: [
      { id: "zlib", level: 1 },
      { id: "zlib", level: -1 },
      { id: "zlib", level: 0 },
      { id: "zlib", level: 9 },
    ],
    encoded: numcodecsFixtures("zlib"),
    boundedDecode: true,
  },
  { describe, it },
);

describe("zlib config", () => {
  it("is numcodecs' Zlib(level=1) by default, with exactly numcodecs' keys", async () => {
    expect(zlib.create().toJSON()).toEqual({ id: "zlib", level: 1 });
    expect(Object.keys(zlib.create({ level: 9 }).toJSON())).toEqual(["id", "level"]);
    const codec = await defaultRegistry.create({ id: "zlib", level: 5 });
    expect(codec.toJSON()).toEqual({ id: "zlib", level: 5 });
  });

  it("takes the levels zlib takes, -1 to 9", () => {
    for (const level of [-1, 0, 1, 5, 9]) expect(zlib.create({ level }).config.level).toBe(level);
  });

  it("refuses other levels, naming the codec, the field, the range and the key", () => {
    const error = catchError(() => zlib.create({ id: "zlib", level: 10 }, { key: "foo/.zarray" }));
    expect(error).toBeInstanceOf(CodecConfigError);
    expect(error).toMatchObject({ code: "ZARR_CODEC_CONFIG", codecId: "zlib", field: "level", key: "foo/.zarray" });
    expect(error.message).toBe(
      'invalid config for codec "zlib" in foo/.zarray: field "level" must be an integer from -1 to 9, got 10',
    );
  });

  it("refuses a float level, a string level and unknown keys, as numcodecs does", () => {
    // numcodecs: zlib.compress(buf, 1.0) -> TypeError; Zlib(foo=1) -> TypeError.
    expect(catchError(() => zlib.create({ id: "zlib", level: new JsonFloat(1) })).message).toContain("got 1.0");
    expect(catchError(() => zlib.create({ id: "zlib", level: "1" })).message).toContain('got "1"');
    const unknown = catchError(() => zlib.create({ id: "zlib", level: 1, shuffle: true }));
    expect(unknown).toMatchObject({ code: "ZARR_CODEC_CONFIG", field: "shuffle" });
    expect(unknown.message).toContain('unknown field "shuffle"');
  });
});

describe("zlib interoperability with numcodecs 0.11", () => {
  it("decodes what numcodecs wrote", async () => {
    // numcodecs.Zlib(1).encode(b"hello world")
    const codec = zlib.create({ level: 1 });
    expect(await codec.decode(hex("7801cb48cdc9c95728cf2fca4901001a0b045d"), chunkOf(11))).toEqual(
      ascii("hello world"),
    );
  });

  it("encodes bytes numcodecs decodes", async () => {
    // Checked with /usr/bin/python3, numcodecs 0.11.0: numcodecs.Zlib(level).decode(bytes.fromhex(x))
    // returns the input, for these and for 50 encodings of 5 inputs at levels -1, 0, 1, 6, 9. Where
    // fflate and zlib compress alike (short, incompressible, stored) the bytes are even the same as
    // Python's zlib.compress; elsewhere only the two header bytes are.
    const verified: [Uint8Array, number, string][] = [
      [ascii("hello world"), 1, "7801cb48cdc9c95728cf2fca4901001a0b045d"],
      [ascii("hello world"), 9, "78dacb48cdc9c95728cf2fca4901001a0b045d"],
      [
        arange100,
        1,
        "78010dc3839103000000b0b76ddbb6edaf6d77ff1d9adca58d763becb4cb6e7becb5cf7e071c74c861471c75cc71279c74ca" +
          "69679c75ce79175c74c965575c75cd7537dc74cb6d77dc75cf7d0f3cf4c8634f3cf5cc732fbcf4ca6b6fbcf5ce7b1f7cf4c9675f" +
          "7cf5cd773ffcf4cb6f7ffcf5cf7f03060d193662d4987113264d993663d69c790b162d59b662d59a751b366d012e0e1357",
      ],
    ];
    for (const [input, level, expected] of verified) {
      expect(toHex((await zlib.create({ level }).encode(input, contextFor(input))) as Uint8Array)).toBe(expected);
    }
  });

  it("writes the header bytes zlib writes for each level", async () => {
    // Python: zlib.compress(b"abc", level)[:2] for level in range(-1, 10)
    const python = ["789c", "7801", "7801", "785e", "785e", "785e", "785e", "789c", "78da", "78da", "78da"];
    for (let level = -1; level <= 9; level++) {
      const encoded = (await zlib.create({ level }).encode(ascii("abc"), contextFor(ascii("abc")))) as Uint8Array;
      expect(toHex(encoded.subarray(0, 2)), `level ${level}`).toBe(python[level + 1]);
    }
  });

  it("ignores bytes after the stream, as Python's zlib.decompress does", async () => {
    const stream = hex("7801cb48cdc9c95728cf2fca4901001a0b045d");
    const followed = new Uint8Array([...stream, ...ascii("trailing")]);
    expect(await zlib.create().decode(followed, chunkOf(11))).toEqual(ascii("hello world"));
  });
});

describe("zlib decodeInto", () => {
  const good = hex("7801cb48cdc9c95728cf2fca4901001a0b045d"); // "hello world"
  const into = (data: Uint8Array, room: number) => {
    const out = new Uint8Array(room).fill(0xee);
    return { n: zlib.create().decodeInto!(data, out, chunkOf(11)) as number, out };
  };

  it("writes the chunk into the caller's buffer, whatever follows the stream", () => {
    for (const data of [good, new Uint8Array([...good, ...ascii("trailing")])]) {
      const { n, out } = into(data, 16);
      expect(n).toBe(11);
      expect(out.subarray(0, 11)).toEqual(ascii("hello world"));
      expect(out[11]).toBe(0xee);
    }
  });

  it("gives decode's errors: a bad trailer, truncation, a buffer too small", () => {
    const bad = good.slice();
    bad[bad.length - 1]! ^= 1;
    expect(() => into(bad, 16)).toThrow(
      "corrupt zlib data in chunk foo/0.0: Adler-32 checksum mismatch (stored 0x1a0b045c, computed 0x1a0b045d)",
    );
    expect(() => into(good.subarray(0, 10), 16)).toThrow("corrupt zlib data in chunk foo/0.0: unexpected end of data");
    expect(() => into(good, 5)).toThrow(
      "zlib data in chunk foo/0.0 decodes to 11 bytes, more than the 5 of the buffer given",
    );
  });
});

describe("zlib corrupt input", () => {
  const good = hex("7801cb48cdc9c95728cf2fca4901001a0b045d"); // "hello world"
  const decode = (data: Uint8Array) => zlib.create().decode(data, chunkOf(11));

  it("is a CodecError naming the codec and the chunk key", async () => {
    const error = await rejection(() => decode(good.subarray(0, 10)));
    expect(error).toBeInstanceOf(CodecError);
    expect(error).toMatchObject({ code: "ZARR_CODEC", codecId: "zlib", key: "foo/0.0" });
    expect(error.message).toBe("corrupt zlib data in chunk foo/0.0: unexpected end of data");
  });

  it("checks the Adler-32 trailer", async () => {
    const bad = good.slice();
    bad[bad.length - 1]! ^= 1;
    expect((await rejection(() => decode(bad))).message).toBe(
      "corrupt zlib data in chunk foo/0.0: Adler-32 checksum mismatch (stored 0x1a0b045c, computed 0x1a0b045d)",
    );
  });

  it("refuses data that is not zlib", async () => {
    expect((await rejection(() => decode(ascii("hello world")))).message).toMatch(
      /invalid header 0x6865 \(not zlib data\)/,
    );
    expect((await rejection(() => decode(new Uint8Array(0)))).message).toMatch(/no data/);
  });

  it("refuses bytes where it expects JS values", async () => {
    const error = await rejection(() => zlib.create().encode(["a", "b"], chunkOf(2)));
    expect(error).toMatchObject({ code: "ZARR_CODEC", codecId: "zlib" });
    expect(error.message).toMatch(/works on bytes but got an array of 2 values in chunk foo\/0.0/);
  });
});

describe("zlib decompression bombs", () => {
  it("refuses output larger than the chunk, without inflating it into memory", async () => {
    const zeros = new Uint8Array(16 << 20);
    const bomb = (await zlib.create({ level: 9 }).encode(zeros, contextFor(zeros))) as Uint8Array;
    expect(bomb.length).toBeLessThan(20_000); // 16 MiB in < 20 KB
    const error = await rejection(() => zlib.create().decode(bomb, chunkOf(4096)));
    expect(error).toMatchObject({ code: "ZARR_CODEC", codecId: "zlib", key: "foo/0.0" });
    expect(error.message).toBe(
      "zlib data in chunk foo/0.0 decodes to more than 4096 bytes, the size of a chunk (4096 elements of 1 bytes): " +
        "corrupt data or a decompression bomb",
    );
  });

  it("is no bound for object arrays, whose encoded values have no fixed size", async () => {
    const values = ascii("x".repeat(100_000));
    const encoded = (await zlib.create().encode(values, contextFor(values))) as Uint8Array;
    const objectChunk = { ...contextFor(["a", "b"]), key: "strings/0" }; // 2 elements of dtype "|O"
    expect(await zlib.create().decode(encoded, objectChunk)).toEqual(values);
  });
});

function catchError(run: () => unknown): Error & Record<string, unknown> {
  try {
    run();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected an error");
}

/** The error `run` throws or rejects with (codecs may work synchronously or not). */
async function rejection(run: () => unknown): Promise<Error & Record<string, unknown>> {
  try {
    await run();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected a rejection");
}
