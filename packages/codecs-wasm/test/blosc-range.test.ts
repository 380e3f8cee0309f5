/*
 * Partial decoding of Blosc frames (`decodeRange`, zarr-python's `partial_decompress`) and decoding
 * into a caller's buffer (`decodeInto`): always the bytes `decode` gives, reading only the blocks
 * a range needs, for frames numcodecs wrote and frames of every kind we write.
 */
import { describe, expect, it } from "vitest";
import { CodecError, type ChunkContext, type StoredRangeReader } from "@z/codecs";
import { contextFor } from "@z/codecs/testing";
import { blosc } from "../src/blosc.js";
import { HEADER_SIZE, readHeader } from "../src/blosc-frame.js";
import { setKernelsEnabled } from "../src/kernels.js";
import { numcodecsFixtures } from "./fixtures.js";

/** A reader over `frame` that counts what it is asked for, as a store's `getRange` would serve it. */
function reader(frame: Uint8Array | undefined): StoredRangeReader & { bytesRead: number; reads: number } {
  const read = async (offset: number, length: number) => {
    read.reads++;
    if (frame === undefined) return undefined;
    const bytes = frame.slice(offset, offset + length);
    read.bytesRead += bytes.length;
    return bytes;
  };
  read.bytesRead = 0;
  read.reads = 0;
  return read;
}

const codec = blosc.create();
const decodeRange = codec.decodeRange!;
const decodeInto = codec.decodeInto!;

/** Smooth, compressible values with a little noise, `n` bytes. */
function field(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = (Math.floor(60 * Math.sin(i / 700)) + ((x >>> 24) & 3)) & 255;
  }
  return out;
}

/** Ranges to check in a chunk of `n` bytes: edges, block boundaries, a few inside. */
function ranges(n: number, blocksize: number): [number, number][] {
  const out: [number, number][] = [
    [0, n],
    [0, 1],
    [n - 1, n],
    [0, 0],
    [n, n],
    [Math.floor(n / 3), Math.floor(n / 2)],
  ];
  for (const b of [blocksize, 2 * blocksize]) {
    if (b < n) out.push([b - 1, b + 1], [b, Math.min(n, b + blocksize)], [b - 5, b]);
  }
  return out.filter(([s, e]) => s >= 0 && e <= n && s <= e);
}

async function expectRanges(frame: Uint8Array, context: ChunkContext, what: string): Promise<void> {
  const whole = (await codec.decode(frame, context)) as Uint8Array;
  const { blocksize } = readHeader(frame);
  for (const [start, end] of ranges(whole.length, blocksize)) {
    const result = await decodeRange(reader(frame), start, end, context);
    expect(result?.decodedSize, `${what} [${start}, ${end})`).toBe(whole.length);
    expect(Buffer.compare(result!.bytes, whole.subarray(start, end)), `${what} [${start}, ${end})`).toBe(0);
  }
  // Past the end: clamped like `slice`.
  const from = Math.max(0, whole.length - 3);
  const past = await decodeRange(reader(frame), from, whole.length + 10, context);
  expect(Buffer.compare(past!.bytes, whole.subarray(from)), `${what} past the end`).toBe(0);
  const out = new Uint8Array(whole.length + 7).fill(0xee);
  expect(await decodeInto(frame, out, context), `${what} decodeInto`).toBe(whole.length);
  expect(Buffer.compare(out.subarray(0, whole.length), whole), `${what} decodeInto`).toBe(0);
  expect(out[whole.length], `${what} decodeInto leaves the rest`).toBe(0xee);
}

/** The same frame with its blocks stored in reverse order, as c-blosc's threads may leave them. */
function reverseBlocks(frame: Uint8Array): Uint8Array {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const { nbytes, blocksize, cbytes } = readHeader(frame);
  const nblocks = Math.ceil(nbytes / blocksize);
  const first = HEADER_SIZE + 4 * nblocks;
  const starts = Array.from({ length: nblocks }, (_, b) => view.getUint32(HEADER_SIZE + 4 * b, true));
  const ends = starts.map((_, b) => (b + 1 < nblocks ? starts[b + 1]! : cbytes));
  const out = frame.slice();
  const outView = new DataView(out.buffer);
  let at = first;
  for (let b = nblocks - 1; b >= 0; b--) {
    out.set(frame.subarray(starts[b]!, ends[b]!), at);
    outView.setUint32(HEADER_SIZE + 4 * b, at, true);
    at += ends[b]! - starts[b]!;
  }
  return out;
}

describe("blosc decodeRange and decodeInto", () => {
  for (const kernels of [true, false]) {
    for (const cname of ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"] as const) {
      it(`give decode's bytes for ${cname}, every shuffle, item size and block split (${kernels ? "WebAssembly kernels" : "TypeScript"})`, async () => {
        setKernelsEnabled(kernels);
        try {
          for (const shuffle of [0, 1, 2]) {
            for (const itemsize of [1, 2, 4, 8, 12]) {
              // 150,000 bytes make several blocks (c-blosc raises forced block sizes of split
              // blocks to 64 KiB; zstd's and unsplit ones stay small) and leave a short last block.
              for (const blocksize of [0, 2048]) {
                const n = 150_000 - (150_000 % itemsize);
                const data = field(n, itemsize);
                const config = { cname, clevel: 5, shuffle, blocksize };
                const frame = (await blosc.create(config).encode(data, contextFor(data, itemsize))) as Uint8Array;
                await expectRanges(frame, contextFor(data, itemsize), JSON.stringify({ ...config, itemsize }));
              }
            }
          }
        } finally {
          setKernelsEnabled(true);
        }
      }, 60_000);
    }
  }

  it("reads stored (memcpyed) frames, incompressible data and frames with blocks in any order", async () => {
    const noise = new Uint8Array(50_000).map((_, i) => (i * 2654435761) >>> 23);
    for (const [name, config, data] of [
      ["clevel 0", { clevel: 0 }, field(50_000)],
      ["incompressible", { cname: "lz4", clevel: 5, shuffle: 1 }, noise],
      ["tiny", { cname: "lz4", clevel: 5 }, field(100)],
    ] as const) {
      const frame = (await blosc.create(config).encode(data, contextFor(data, 4))) as Uint8Array;
      await expectRanges(frame, contextFor(data, 4), name);
    }
    const data = field(64_000);
    const frame = (await blosc
      .create({ cname: "zstd", clevel: 5, shuffle: 1, blocksize: 4096 })
      .encode(data, contextFor(data, 4))) as Uint8Array;
    const reversed = reverseBlocks(frame);
    expect(Buffer.compare(reversed, frame)).not.toBe(0);
    expect(Buffer.compare((await codec.decode(reversed, contextFor(data, 4))) as Uint8Array, data)).toBe(0);
    await expectRanges(reversed, contextFor(data, 4), "blocks in reverse order");
  });

  it("gives the bytes numcodecs' frames decode to (c-blosc 1.21 fixtures)", async () => {
    for (const fixture of numcodecsFixtures("blosc")) {
      const context = { ...contextFor(fixture.decoded, 1), ...fixture.context };
      await expectRanges(fixture.encoded, context, fixture.name ?? "fixture");
    }
  });

  it("reads only the header, the block starts and the blocks a range needs", async () => {
    const data = field(4 << 20, 7);
    const frame = (await codec.encode(data, contextFor(data, 4))) as Uint8Array;
    const { blocksize } = readHeader(frame);
    expect(blocksize).toBe(512 * 1024);
    const read = reader(frame);
    const start = 3 * blocksize + 100;
    const result = await decodeRange(read, start, start + 40_000, contextFor(data, 4));
    expect(Buffer.compare(result!.bytes, data.subarray(start, start + 40_000))).toBe(0);
    expect(read.reads).toBe(2);
    // One block of eight, and the first 4 KiB.
    expect(read.bytesRead).toBeLessThan(frame.length / 8 + 4096 + 64);
  });

  it("resolves to undefined for a chunk that is not stored", async () => {
    expect(await decodeRange(reader(undefined), 0, 10, contextFor(field(100), 4))).toBeUndefined();
  });

  it("refuses corrupt and truncated frames with typed errors naming the chunk", async () => {
    const data = field(64_000);
    const context = { ...contextFor(data, 4), key: "a/0.0" };
    // zstd blocks are never split, so the forced block size stands: 16 blocks.
    const frame = (await blosc
      .create({ cname: "zstd", clevel: 5, shuffle: 1, blocksize: 4096 })
      .encode(data, context)) as Uint8Array;
    expect(readHeader(frame).blocksize).toBe(4096);
    const set32 = (b: Uint8Array, at: number, value: number) => new DataView(b.buffer).setUint32(at, value, true);
    const cases: [string, (b: Uint8Array) => Uint8Array, RegExp, [number, number]?][] = [
      ["a block start outside the frame", (b) => (set32(b, HEADER_SIZE + 4 * 5, 3), b), /outside the frame/],
      ["a block start past the frame", (b) => (set32(b, HEADER_SIZE + 4 * 5, b.length + 100), b), /outside the frame/],
      [
        "a stream length past the frame",
        (b) => (set32(b, new DataView(b.buffer).getUint32(HEADER_SIZE, true), 1 << 30), b),
        /past the end/,
        [0, 10],
      ],
      ["a truncated frame", (b) => b.subarray(0, b.length - 100), /truncated/, [60_000, 64_000]],
      [
        "a stream running into the next block",
        (b) => (set32(b, HEADER_SIZE + 4, new DataView(b.buffer).getUint32(HEADER_SIZE, true) + 8), b),
        /outside|past|overlap|decodes|LZ4/,
        [0, 8000],
      ],
      ["a frame claiming more than a chunk", (b) => (set32(b, 4, 1 << 30), b), /decodes to more than/],
      ["a reserved flag", (b) => ((b[2] = b[2]! | 8), b), /flag/],
      ["no header", (b) => b.subarray(0, 10), /Blosc header/],
    ];
    for (const [what, corrupt, message, range = [20_000, 20_100] as [number, number]] of cases) {
      const bad = corrupt(frame.slice());
      const error = await decodeRange(reader(bad), range[0], range[1], context).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, what).toBeInstanceOf(CodecError);
      expect((error as CodecError).message, what).toMatch(message);
      expect((error as CodecError).message, what).toContain("a/0.0");
    }
  });

  it("refuses bad ranges and buffers too small for decodeInto", async () => {
    const data = field(4000);
    const context = { ...contextFor(data, 4), key: "a/0.0" };
    const frame = (await codec.encode(data, context)) as Uint8Array;
    await expect(decodeRange(reader(frame), 10, 5, context)).rejects.toThrow(CodecError);
    await expect(decodeRange(reader(frame), -1, 5, context)).rejects.toThrow(/start <= end/);
    await expect(Promise.resolve().then(() => decodeInto(frame, new Uint8Array(3999), context))).rejects.toThrow(
      /more than the 3999 of the buffer/,
    );
    expect(await decodeInto(frame, new Uint8Array(4000), context)).toBe(4000);
  });
});
