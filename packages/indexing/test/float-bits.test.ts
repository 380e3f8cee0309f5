/**
 * The kernels move float values bit for bit, as numpy copies them: a float32 read into a JS number
 * becomes a double, and on x64 that conversion quiets a signalling NaN (0x7f800001 comes back as
 * 0x7fc00001), so float32s are moved as the integers of their bits; a JS array of numbers may
 * quiet a NaN too, so fill values are held in typed arrays.
 */
import { describe, expect, it } from "vitest";
import {
  CoordinateIndexer,
  OrthogonalIndexer,
  copyProjection,
  copyStrided,
  fillProjection,
  fillStrided,
  selectionView,
  stridesFor,
  type StridedView,
} from "@z/indexing";

/** Float32 bits: signalling NaNs of both signs with payloads, a quiet NaN with a payload, -0, and ordinary numbers. */
const SPECIAL = [0x7f800001, 0xff800123, 0x7fbfffff, 0x7fc00005, 0x80000000];
const bitsAt = (i: number): number => (i % 3 === 0 ? SPECIAL[(i / 3) % SPECIAL.length]! : (0x3f800000 + i) >>> 0);
const f32 = (n: number): Float32Array => new Float32Array(Uint32Array.from({ length: n }, (_, i) => bitsAt(i)).buffer);
const bits = (a: Float32Array): number[] => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
const view = <T extends StridedView["data"]>(data: T, shape: number[], order: "C" | "F" = "C"): StridedView<T> => ({
  data,
  offset: 0,
  shape,
  strides: stridesFor(shape, order),
});

describe("float32 values keep every bit through the copy kernels", () => {
  it("transposing between C and F order, one value or two (complex) per element", () => {
    for (const k of [1, 2]) {
      const src = f32(6 * 7 * k);
      const dst = new Float32Array(6 * 7 * k);
      copyStrided(view(dst, [6, 7], "F"), view(src, [6, 7]), k);
      // Element (r, c) of the F-order copy is at c * 6 + r.
      const want = Array.from({ length: 6 * 7 }, (_, e) => {
        const r = e % 6;
        const c = Math.floor(e / 6);
        return Array.from({ length: k }, (_, j) => bitsAt((r * 7 + c) * k + j));
      }).flat();
      expect(bits(dst)).toEqual(want);
    }
  });

  it("walking negative and zero strides, and copying within one array", () => {
    const src = f32(40);
    const reversed = new Float32Array(40);
    copyStrided(view(reversed, [40]), { data: src, offset: 39, shape: [40], strides: [-1] });
    expect(bits(reversed)).toEqual(bits(src).reverse());
    const repeated = new Float32Array(5 * 8);
    copyStrided(view(repeated, [5, 8]), { data: src, offset: 0, shape: [5, 8], strides: [0, 1] });
    expect(bits(repeated)).toEqual(Array.from({ length: 5 }, () => bits(src).slice(0, 8)).flat());
    const inPlace = f32(40);
    copyStrided(
      { data: inPlace, offset: 1, shape: [39], strides: [1] },
      { data: inPlace, offset: 0, shape: [39], strides: [1] },
    );
    expect(bits(inPlace).slice(1)).toEqual(bits(src).slice(0, 39));
  });

  it("reading and writing orthogonal and point selections (gathers and scatters)", () => {
    // One chunk of the whole array, so each selection is one projection.
    const shape = [6, 7];
    const array = view(f32(6 * 7), shape);
    const at = (r: number, c: number): number => bitsAt(r * 7 + c);
    const rows = [5, 0, 3];
    const cols = [6, 1, 4];
    const [outer] = new OrthogonalIndexer([rows, cols], shape, shape);
    const got = view(new Float32Array(9), [3, 3]);
    copyProjection(got, array, outer!, "read");
    expect(bits(got.data)).toEqual(rows.flatMap((r) => cols.map((c) => at(r, c))));
    const blank = view(new Float32Array(6 * 7), shape);
    copyProjection(got, blank, outer!, "write");
    const written = new Uint32Array(blank.data.buffer);
    expect(rows.flatMap((r) => cols.map((c) => written[r * 7 + c]))).toEqual(bits(got.data));

    const [points] = new CoordinateIndexer(
      [
        [0, 5, 2, 4],
        [6, 0, 3, 1],
      ],
      shape,
      shape,
    );
    const picked = view(new Float32Array(4), [4]);
    copyProjection(picked, array, points!, "read");
    expect(bits(picked.data)).toEqual([at(0, 6), at(5, 0), at(2, 3), at(4, 1)]);
    const blank2 = view(new Float32Array(6 * 7), shape);
    copyProjection(picked, blank2, points!, "write");
    const written2 = new Uint32Array(blank2.data.buffer);
    expect([written2[6], written2[35], written2[17], written2[29]]).toEqual(bits(picked.data));
  });

  it("filling with one element given as a typed array of the same kind", () => {
    const one = f32(1 * 2).subarray(0, 1); // the signalling NaN 0x7f800001
    for (const order of ["C", "F"] as const) {
      const a = new Float32Array(4 * 5);
      fillStrided(
        selectionView(view(a, [4, 5], order), [
          { start: 0, stop: 4, step: 2 },
          { start: 4, stop: 0, step: -2 },
        ]),
        one,
      );
      expect(bits(a).filter((b) => b !== 0)).toEqual([0x7f800001, 0x7f800001, 0x7f800001, 0x7f800001]);
    }
    const pairs = new Float32Array(2 * 6);
    fillStrided(view(pairs, [6]), new Float32Array(new Uint32Array([0xff800123, 0x80000000]).buffer), 2);
    expect(bits(pairs)).toEqual(Array.from({ length: 6 }, () => [0xff800123, 0x80000000]).flat());
    const points = new CoordinateIndexer(
      [
        [0, 1],
        [2, 0],
      ],
      [2, 3],
      [2, 3],
    );
    const chunk = view(new Float32Array(6), [2, 3]);
    for (const p of points) fillProjection(chunk, p, one);
    expect(bits(chunk.data)).toEqual([0, 0, 0x7f800001, 0x7f800001, 0, 0]);
    const outer = new OrthogonalIndexer([[1, 0], [2]], [2, 3], [2, 3]);
    const chunk2 = view(new Float32Array(6), [2, 3]);
    for (const p of outer) fillProjection(chunk2, p, one);
    expect(bits(chunk2.data)).toEqual([0, 0, 0x7f800001, 0, 0, 0x7f800001]);
  });
});

describe("float64 fills keep every bit", () => {
  const u64 = (a: Float64Array): bigint[] => Array.from(new BigUint64Array(a.buffer));
  const double = (b: bigint): number => new Float64Array(new BigUint64Array([b]).buffer)[0]!;

  it("a NaN's payload and sign, in long and short, contiguous and strided runs", () => {
    const nan = double(0xfff0000000000123n);
    for (const [shape, strides] of [
      [[40], [1]],
      [[3], [2]],
    ] as const) {
      const a = new Float64Array(40);
      fillStrided({ data: a, offset: 0, shape, strides }, nan);
      expect(u64(a).filter((b) => b !== 0n)).toEqual(new Array(shape[0]).fill(0xfff0000000000123n));
    }
  });

  it("the sign of a complex element's zero", () => {
    for (const n of [3, 40]) {
      const a = new Float64Array(2 * n);
      fillStrided(view(a, [n]), [0, -0], 2);
      expect(Array.from(a, (x) => Object.is(x, -0))).toEqual(Array.from({ length: 2 * n }, (_, i) => i % 2 === 1));
    }
  });
});
