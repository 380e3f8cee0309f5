/*
 * wasm/blosc.c decodes a whole Blosc frame in one call. It must decode exactly the frames the
 * block-by-block path decodes, to the same bytes, and refuse the others, which then get the same
 * error as before (that path runs for the message). Checked on every kind of frame our encoder
 * and numcodecs write, and on frames corrupted every which way.
 */
import { describe, expect, it } from "vitest";
import { CodecError } from "@z/codecs";
import { contextFor, pseudoRandomBytes } from "@z/codecs/testing";
import { blosc, setWholeFrameDecoding, wholeFramesDecoded } from "../src/blosc.js";
import { loadKernels, setKernelsEnabled } from "../src/kernels.js";
import { numcodecsFixtures } from "./fixtures.js";
import { smoothFloat32 } from "./samples.js";

type Outcome = { bytes: Uint8Array } | { error: string };

/** Decodes `frame` one way: whole frames in C, block by block with the kernels, or TypeScript only. */
async function decode(frame: Uint8Array, size: number, way: "whole" | "blocks" | "typescript"): Promise<Outcome> {
  // Whatever an earlier decode left in the kernels' memory (the LZ4 kernels', or for Zstd streams
  // the full kernels') must not pass for output.
  for (const zstd of [false, true]) {
    const kernels = await loadKernels(zstd);
    new Uint8Array(kernels!.exports.memory.buffer).fill(0xa5, kernels!.heapBase);
  }
  setWholeFrameDecoding(way === "whole");
  setKernelsEnabled(way !== "typescript");
  try {
    const codec = blosc.create();
    const bytes = (await codec.decode(frame, contextFor(new Uint8Array(size), 1))) as Uint8Array;
    return { bytes: bytes.slice() };
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    return { error: error.message };
  } finally {
    setWholeFrameDecoding(true);
    setKernelsEnabled(true);
  }
}

/** Frames of every kind: LZ4 and Zstd (what C decodes), others (which it leaves), shuffles, splits, leftovers, stored. */
async function frames(): Promise<{ name: string; frame: Uint8Array; size: number }[]> {
  const floats = new Uint8Array(smoothFloat32(20_000).buffer);
  const data = [
    { name: "floats", bytes: floats },
    { name: "noise", bytes: pseudoRandomBytes(5_000, 7) },
    { name: "runs", bytes: new Uint8Array(9_000).map((_, i) => (i >> 9) % 5) },
    { name: "tiny", bytes: new Uint8Array([1, 2, 3]) },
    // 2 blocks of 256 and a last one of 5 bytes: shorter than an item for type sizes over 5.
    { name: "short last block", bytes: new Uint8Array(517).map((_, i) => (i >> 6) % 3) },
    { name: "empty", bytes: new Uint8Array(0) },
  ];
  const out: { name: string; frame: Uint8Array; size: number }[] = [];
  for (const { name, bytes } of data) {
    for (const cname of ["lz4", "lz4hc", "zstd", "blosclz"] as const) {
      for (const shuffle of [0, 1, 2]) {
        for (const typesize of [1, 2, 4, 8, 3, 16, 17]) {
          for (const blocksize of [0, 256, 1000]) {
            const codec = blosc.create({ cname, clevel: 5, shuffle, blocksize });
            const frame = (await codec.encode(bytes, contextFor(bytes, typesize))) as Uint8Array;
            out.push({
              name: `${name} ${cname} shuffle ${shuffle} typesize ${typesize} blocksize ${blocksize}`,
              frame,
              size: bytes.length,
            });
          }
        }
      }
    }
  }
  for (const fixture of numcodecsFixtures("blosc"))
    out.push({
      name: `numcodecs ${fixture.name}`,
      frame: fixture.encoded,
      size: (fixture.decoded as Uint8Array).length,
    });
  return out;
}

function expectAgreement(a: Outcome, b: Outcome, what: string, sameMessage: boolean): void {
  if ("bytes" in a && "bytes" in b) expect(Buffer.compare(a.bytes, b.bytes), what).toBe(0);
  else if (sameMessage) expect(a, what).toEqual(b);
  else expect(["bytes" in a, "bytes" in b], what).toEqual([false, false]);
}

describe("whole Blosc frames decoded in one WebAssembly call", () => {
  it("decode every kind of frame as the block-by-block and TypeScript paths do, and are taken for LZ4 and Zstd", async () => {
    expect(await loadKernels()).toBeDefined();
    expect(await loadKernels(true)).toBeDefined();
    const before = wholeFramesDecoded();
    let cases = 0;
    for (const { name, frame, size } of await frames()) {
      const taken = wholeFramesDecoded();
      const whole = await decode(frame, size, "whole");
      expect("bytes" in whole, name).toBe(true);
      // Every compressed LZ4 or Zstd frame is decoded whole (none falls back).
      const format = frame[2]! >> 5;
      const expected = size > 0 && (frame[2]! & 2) === 0 && (format === 1 || format === 4) ? 1 : 0;
      expect(wholeFramesDecoded() - taken, name).toBe(expected);
      expectAgreement(whole, await decode(frame, size, "blocks"), name, true);
      expectAgreement(whole, await decode(frame, size, "typescript"), name, false);
      cases++;
    }
    expect(cases).toBeGreaterThan(500);
    expect(wholeFramesDecoded() - before).toBeGreaterThan(300);
  }, 60_000);

  it("refuse exactly the corrupted frames the other paths refuse, with the same message as block by block", async () => {
    await loadKernels();
    const all = await frames();
    const sources = all
      .filter((f) => f.size > 0 && !/blosclz/.test(f.name) && (f.frame[2]! & 2) === 0)
      .filter((_, i) => i % 7 === 0);
    expect(sources.length).toBeGreaterThan(20);
    let seed = 99;
    const rand = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) % n);
    let refused = 0;
    let trials = 0;
    for (const { name, frame, size } of sources) {
      for (let t = 0; t < 40; t++) {
        const bad = frame.slice();
        const kind = rand(7);
        const nblocks = Math.ceil(
          new DataView(bad.buffer).getUint32(4, true) / Math.max(1, new DataView(bad.buffer).getUint32(8, true)),
        );
        let cut = bad;
        const flip = (at: number): void => void (bad[at] = bad[at]! ^ (1 << rand(8)));
        if (kind === 0)
          flip(rand(16)); // a header bit
        else if (kind === 1)
          flip(16 + rand(Math.min(64, bad.length - 16))); // the block table, first streams
        else if (kind === 2)
          flip(rand(bad.length)); // anywhere
        else if (kind === 3)
          cut = bad.subarray(0, rand(bad.length)); // truncated
        else if (kind === 4)
          new DataView(bad.buffer).setInt32(16 + 4 * rand(nblocks), rand(bad.length + 64) - 32, true); // a start anywhere
        else if (kind === 5)
          for (let b = 1; b < nblocks; b++) bad.copyWithin(16 + 4 * b, 16, 20); // every block the first one (streams overlap)
        else bad[3] = 1 + rand(255); // another type size
        const what = `${name}, corruption ${kind} #${t}`;
        const whole = await decode(cut, size, "whole");
        expectAgreement(whole, await decode(cut, size, "blocks"), what, true);
        expectAgreement(whole, await decode(cut, size, "typescript"), what, false);
        if (!("bytes" in whole)) refused++;
        trials++;
      }
    }
    expect(trials).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(trials / 3);
  }, 60_000);
});
