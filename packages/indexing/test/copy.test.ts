import { describe, expect, it } from "vitest";
import {
  BasicIndexer,
  BoundsError,
  SelectionError,
  copyStrided,
  fillStrided,
  selectionView,
  stridesFor,
  type BasicSelection,
  type StridedView,
} from "@z/indexing";
import {
  ChunkedArray,
  KINDS,
  PADDING,
  flatOffset,
  indices,
  plain,
  product,
  valuesOf,
  type Kind,
  type Value,
} from "./chunked.js";
import { formatSelection } from "./format.js";
import { DTYPE_CASES, NUMPY_CASES } from "./golden/numpy-copies.js";

const ORDERS = ["C", "F"] as const;

/**
 * Reads `selection` as the core does: for each chunk projection, copy the chunk's selection to
 * the output's. Returns the output's values in C order (read back by hand when it is F).
 */
function read(array: ChunkedArray, selection: BasicSelection, outOrder: "C" | "F" = "C"): Value[] {
  const { k, make, element } = KINDS[array.kind];
  const indexer = new BasicIndexer(selection, array.shape, array.chunkShape);
  const out: StridedView = {
    data: make(product(indexer.shape) * k),
    offset: 0,
    shape: indexer.shape,
    strides: stridesFor(indexer.shape, outOrder),
  };
  fillStrided(out, element(-1), k); // so that any element left out shows
  const chunkStrides = stridesFor(array.chunkShape, array.order);
  for (const p of indexer) {
    const chunk = array.chunk(p.chunkCoords, chunkStrides);
    copyStrided(selectionView(out, p.outSelection), selectionView(chunk, p.chunkSelection), k);
  }
  const flat = plain(out.data);
  return [...indices(indexer.shape)].flatMap((index) => {
    const at = flatOffset(index, indexer.shape, outOrder) * k;
    return flat.slice(at, at + k);
  });
}

/** Writes elements 1, 2, … (C order) to `selection` as the core does, chunk by chunk. */
function write(array: ChunkedArray, selection: BasicSelection): void {
  const { k, make } = KINDS[array.kind];
  const indexer = new BasicIndexer(selection, array.shape, array.chunkShape);
  const n = product(indexer.shape);
  const source: StridedView = {
    data: make(n * k),
    offset: 0,
    shape: indexer.shape,
    strides: stridesFor(indexer.shape, "C"),
  };
  valuesOf(
    array.kind,
    Array.from({ length: n }, (_, i) => i + 1),
  ).forEach((x, i) => ((source.data as unknown as Value[])[i] = x));
  const chunkStrides = stridesFor(array.chunkShape, array.order);
  for (const p of indexer) {
    const chunk = array.chunk(p.chunkCoords, chunkStrides);
    copyStrided(selectionView(chunk, p.chunkSelection), selectionView(source, p.outSelection), k);
  }
}

/** Sets `selection` to element `v` as the core does for a scalar, chunk by chunk. */
function fill(array: ChunkedArray, selection: BasicSelection, v: number): void {
  const { k, element } = KINDS[array.kind];
  const chunkStrides = stridesFor(array.chunkShape, array.order);
  for (const p of new BasicIndexer(selection, array.shape, array.chunkShape)) {
    fillStrided(selectionView(array.chunk(p.chunkCoords, chunkStrides), p.chunkSelection), element(v), k);
  }
}

const arange = (kind: Kind, c: { shape: number[]; chunks: number[] }, order: "C" | "F") =>
  new ChunkedArray(c.shape, c.chunks, order, kind, (i) => i ?? PADDING);
const zeros = (kind: Kind, c: { shape: number[]; chunks: number[] }, order: "C" | "F") =>
  new ChunkedArray(c.shape, c.chunks, order, kind, (i) => (i === undefined ? PADDING : 0));
/** What the padding of `array` holds when nothing touched it. */
const untouchedPadding = (array: ChunkedArray): Value[] =>
  valuesOf(array.kind, new Array<number>(array.contents().padding.length / KINDS[array.kind].k).fill(PADDING));

const name = (c: { shape: number[]; chunks: number[]; selection: BasicSelection }) =>
  `shape [${c.shape}] chunks [${c.chunks}] ${formatSelection(c.selection)}`;

describe("reading selections chunk by chunk gives numpy's a[selection]", () => {
  for (const c of NUMPY_CASES) {
    it(name(c), () => {
      expect(new BasicIndexer(c.selection, c.shape, c.chunks).shape).toEqual(c.outShape);
      for (const order of ORDERS) {
        expect(read(arange("f64", c, order), c.selection)).toEqual(c.read);
        // an F-order output too
        expect(read(arange("f64", c, order), c.selection, "F")).toEqual(c.read);
      }
    });
  }

  for (const kind of ["i32", "c128", "c64", "V8", "i64", "u64"] as const) {
    it(`for ${kind} elements (${KINDS[kind].k} value${KINDS[kind].k > 1 ? "s" : ""} each) in C and F chunks`, () => {
      for (const c of NUMPY_CASES) {
        for (const order of ORDERS) {
          expect(read(arange(kind, c, order), c.selection), `${name(c)} ${order}`).toEqual(valuesOf(kind, c.read));
        }
      }
    });
  }

  for (const c of DTYPE_CASES) {
    it(`as numpy lays out ${c.kind}: ${name(c)}`, () => {
      for (const order of ORDERS) expect(read(arange(c.kind, c, order), c.selection)).toEqual(c.read);
    });
  }
});

describe("writing selections chunk by chunk gives numpy's z[selection] = values", () => {
  for (const c of NUMPY_CASES) {
    it(name(c), () => {
      for (const kind of ["f64", "c128", "V8", "i64"] as const) {
        for (const order of ORDERS) {
          const array = zeros(kind, c, order);
          write(array, c.selection);
          const { values, padding } = array.contents();
          expect(values, `${kind} ${order}`).toEqual(valuesOf(kind, c.written));
          expect(padding, "padding is never written").toEqual(untouchedPadding(array));
        }
      }
    });
  }

  it("and filling a selection with one value sets exactly the written elements", () => {
    for (const c of NUMPY_CASES) {
      for (const kind of ["f64", "c64", "V8", "u64"] as const) {
        for (const order of ORDERS) {
          const array = zeros(kind, c, order);
          fill(array, c.selection, 7);
          const { values, padding } = array.contents();
          expect(values, `${name(c)} ${kind} ${order}`).toEqual(
            valuesOf(
              kind,
              c.written.map((w) => (w === 0 ? 0 : 7)),
            ),
          );
          expect(padding).toEqual(untouchedPadding(array));
        }
      }
    }
  });
});

const view = <T extends StridedView["data"]>(
  data: T,
  shape: number[],
  strides = stridesFor(shape, "C"),
  offset = 0,
) => ({
  data,
  offset,
  shape,
  strides,
});
const iota = (n: number) => Float64Array.from({ length: n }, (_, i) => i);

describe("stridesFor", () => {
  it("matches numpy's strides (in elements)", () => {
    // np.zeros(shape, order=order).strides // itemsize
    expect(stridesFor([2, 3, 4], "C")).toEqual([12, 4, 1]);
    expect(stridesFor([2, 3, 4], "F")).toEqual([1, 2, 6]);
    expect(stridesFor([5, 1, 3], "C")).toEqual([3, 3, 1]);
    expect(stridesFor([5, 1, 3], "F")).toEqual([1, 5, 5]);
    expect(stridesFor([], "C")).toEqual([]);
    expect(stridesFor([7], "F")).toEqual([1]);
  });
});

describe("selectionView", () => {
  const base = view(iota(60), [3, 4, 5]);

  it("drops integer-indexed dimensions and scales strides by steps", () => {
    const v = selectionView(base, [1, { start: 1, stop: 4, step: 2 }, { start: 4, stop: 5, step: 1 }]);
    expect(v).toEqual({ data: base.data, offset: 20 + 5 + 4, shape: [2, 1], strides: [10, 1] });
    expect(selectionView(base, [2, 3, 4])).toMatchObject({ offset: 59, shape: [], strides: [] });
  });

  it("gives empty ranges a zero length without checking their bounds", () => {
    expect(selectionView(base, [{ start: 3, stop: 2, step: 1 }, 0, 0]).shape).toEqual([0]);
    expect(selectionView(base, [{ start: 9, stop: 9, step: 1 }, 0, 0]).shape).toEqual([0]);
  });

  it("refuses selections reaching outside the view with a BoundsError naming the dimension", () => {
    const outside = catchError(() => selectionView(base, [0, 4, 0]));
    expect(outside).toBeInstanceOf(BoundsError);
    expect(outside.message).toBe("index 4 is out of bounds for dimension 1 with length 4");
    const e = catchError(() => selectionView(base, [0, 0, { start: 1, stop: 8, step: 3 }]));
    expect(e).toMatchObject({ code: "ZARR_BOUNDS", dim: 2, index: 7, length: 5 });
    expect(catchError(() => selectionView(base, [-1, 0, 0]))).toMatchObject({ code: "ZARR_BOUNDS", dim: 0 });
  });

  it("refuses a selection with the wrong number of dimensions or a zero step", () => {
    expect(catchError(() => selectionView(base, [0, 0]))).toBeInstanceOf(SelectionError);
    expect(catchError(() => selectionView(base, [0, 0, { start: 0, stop: 2, step: 0 }]))).toMatchObject({
      code: "ZARR_SELECTION",
      dim: 2,
    });
  });
});

describe("copyStrided", () => {
  it("transposes between C and F layouts", () => {
    const dst = new Float64Array(6);
    copyStrided(view(dst, [2, 3], stridesFor([2, 3], "F")), view(iota(6), [2, 3]));
    expect([...dst]).toEqual([0, 3, 1, 4, 2, 5]); // np.arange(6).reshape(2, 3).ravel(order="F")
  });

  it("repeats a value along stride-0 (broadcast) dimensions", () => {
    const dst = new Int32Array(6);
    copyStrided(view(dst, [2, 3]), view(Int32Array.of(7, 8, 9), [2, 3], [0, 1]));
    expect([...dst]).toEqual([7, 8, 9, 7, 8, 9]);
  });

  it("walks negative strides", () => {
    const dst = new Float64Array(6);
    copyStrided(view(dst, [6]), view(iota(6), [6], [-1], 5));
    expect([...dst]).toEqual([5, 4, 3, 2, 1, 0]);
  });

  it("copies 0-d views (one element of k values)", () => {
    const dst = new Float32Array(4);
    copyStrided(view(dst, [], [], 1), view(Float32Array.of(1, 2, 3, 4), [], [], 0), 2);
    expect([...dst]).toEqual([0, 0, 1, 2]);
  });

  it("copies bigints, also in long contiguous runs", () => {
    const src = BigInt64Array.from({ length: 1000 }, (_, i) => 2n ** 62n + BigInt(i));
    const dst = new BigInt64Array(1000);
    copyStrided(view(dst, [10, 100]), view(src, [10, 100]));
    expect(dst).toEqual(src);
    const col = new BigUint64Array(10);
    copyStrided(
      view(col, [10]),
      selectionView(view(new BigUint64Array(src.buffer), [10, 100]), [{ start: 0, stop: 10, step: 1 }, 99]),
    );
    expect([...col]).toEqual(Array.from({ length: 10 }, (_, i) => 2n ** 62n + BigInt(i * 100 + 99)));
  });

  it("copies short rows bit for bit: NaN payloads stay as they are, in any layout", () => {
    // A signalling NaN (0x7fa00001): reading it as a number may quiet it (0x7fe00001).
    const bits = Uint32Array.from({ length: 12 * 12 }, (_, i) => (i % 5 === 0 ? 0x7fa00001 + i : 0x3f800000 + i));
    const src = new Float32Array(bits.buffer);
    const rows = selectionView(view(src, [12, 12]), [
      { start: 1, stop: 9, step: 1 },
      { start: 2, stop: 10, step: 1 },
    ]);
    const dst = new Float32Array(8 * 8 + 3);
    copyStrided({ data: dst, offset: 3, shape: [8, 8], strides: [8, 1] }, rows);
    const got = new Uint32Array(dst.buffer, 12);
    for (let r = 0; r < 8; r++)
      for (let c = 0; c < 8; c++) expect(got[r * 8 + c], `${r}, ${c}`).toBe(bits[(r + 1) * 12 + c + 2]);
    // 3-d, int16 rows of 4 (8 bytes), complex elements (2 values each), odd offsets (byte by byte).
    const i16 = Int16Array.from({ length: 4 * 6 * 8 }, (_, i) => i - 100);
    const box = new Int16Array(2 * 3 * 4);
    copyStrided(
      view(box, [2, 3, 4]),
      selectionView(view(i16, [4, 6, 8]), [
        { start: 1, stop: 3, step: 1 },
        { start: 2, stop: 5, step: 1 },
        { start: 4, stop: 8, step: 1 },
      ]),
    );
    expect([...box]).toEqual(
      [1, 2].flatMap((a) => [2, 3, 4].flatMap((b) => [4, 5, 6, 7].map((c) => a * 48 + b * 8 + c - 100))),
    );
    const c64 = new Float32Array(new Uint32Array(bits).buffer);
    const pairs = new Float32Array(2 * 3 * 2);
    copyStrided(
      view(pairs, [2, 3]),
      selectionView(view(c64, [6, 12]), [
        { start: 0, stop: 2, step: 1 },
        { start: 3, stop: 6, step: 1 },
      ]),
      2,
    );
    expect([...new Uint32Array(pairs.buffer)]).toEqual(
      [0, 1].flatMap((r) => [...bits.subarray(r * 24 + 6, r * 24 + 12)]),
    );
    const odd = new Uint8Array(new ArrayBuffer(40), 1, 36);
    copyStrided(
      view(odd, [6, 6]),
      view(
        Uint8Array.from({ length: 36 }, (_, i) => i),
        [6, 6],
      ),
    );
    expect([...odd]).toEqual(Array.from({ length: 36 }, (_, i) => i));
  });

  it("copies boxes of 1 to 4 dimensions value for value as a plain element loop does, whatever the type, offsets and row length", () => {
    // A small deterministic generator, so a failure names a case that can be run again.
    let seed = 12345;
    const rand = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) % n);
    const kinds = [Uint8Array, Int16Array, Int32Array, Float32Array, Float64Array, BigInt64Array] as const;
    for (let trial = 0; trial < 400; trial++) {
      const Kind = kinds[rand(kinds.length)]!;
      const k = rand(3) === 0 ? 2 : 1;
      const ndim = 1 + rand(4);
      const shape = Array.from({ length: ndim }, () => 1 + rand(ndim === 1 ? 300 : 9));
      // Each side is a box in a larger C-order array, starting anywhere (byte offsets included).
      const side = () => {
        const full = shape.map((n) => n + rand(4));
        const start = full.map((n, d) => rand(n - shape[d]! + 1));
        const strides = stridesFor(full, "C");
        const size = full.reduce((a, b) => a * b, 1) * k;
        const lead = rand(3);
        const buffer = new ArrayBuffer((size + lead) * Kind.BYTES_PER_ELEMENT);
        const data = new Kind(buffer, lead * Kind.BYTES_PER_ELEMENT, size);
        const offset = start.reduce((a, s, d) => a + s * strides[d]!, 0);
        return { data, offset, shape, strides } as StridedView;
      };
      const dst = side();
      const src = side();
      const raw = new Uint8Array(src.data.buffer);
      for (let i = 0; i < raw.length; i++) raw[i] = rand(256);
      // The reference copies each element's bytes (bits as they are, as the copy must).
      const bytesOf = (v: StridedView) => new Uint8Array(v.data.buffer, v.data.byteOffset, v.data.byteLength);
      const want = bytesOf(dst).slice();
      const have = bytesOf(src);
      const unit = k * Kind.BYTES_PER_ELEMENT;
      const at = (v: StridedView, index: number[]): number =>
        (v.offset + index.reduce((a, i, d) => a + i * v.strides[d]!, 0)) * unit;
      const visit = (index: number[]): void => {
        if (index.length === ndim) {
          want.set(have.subarray(at(src, index), at(src, index) + unit), at(dst, index));
          return;
        }
        for (let i = 0; i < shape[index.length]!; i++) visit([...index, i]);
      };
      visit([]);
      copyStrided(dst, src, k);
      expect(
        Buffer.compare(bytesOf(dst), want),
        `trial ${trial}: ${Kind.name} k=${k} shape [${shape.join(", ")}]`,
      ).toBe(0);
    }
  });

  it("copies elements of many values one run per element when they are not contiguous", () => {
    // 3 elements of 16 bytes, every other one of 6
    const src = Uint8Array.from({ length: 96 }, (_, i) => i);
    const dst = new Uint8Array(48);
    copyStrided(view(dst, [3]), view(src, [3], [2]), 16);
    expect([...dst]).toEqual([...src.slice(0, 16), ...src.slice(32, 48), ...src.slice(64, 80)]);
  });

  it("copies within one array, overlapping as numpy does (as if through a temporary)", () => {
    // a = np.arange(40.); a[1:] = a[:-1]
    const a = iota(40);
    copyStrided(view(a, [39], [1], 1), view(a, [39], [1], 0));
    expect([...a]).toEqual([0, ...Array.from({ length: 39 }, (_, i) => i)]);
    // b = np.arange(40.); b[:-1] = b[1:]
    const b = iota(40);
    copyStrided(view(b, [39], [1], 0), view(b, [39], [1], 1));
    expect([...b]).toEqual([...Array.from({ length: 39 }, (_, i) => i + 1), 39]);
    // c = np.arange(36.).reshape(6, 6); c[1:, :] = c[:-1, ::-1]
    const c = iota(36);
    copyStrided(view(c, [5, 6], [6, 1], 6), view(c, [5, 6], [6, -1], 5));
    const expected = [0, 1, 2, 3, 4, 5];
    for (let r = 0; r < 5; r++) for (let j = 0; j < 6; j++) expected.push(r * 6 + 5 - j);
    expect([...c]).toEqual(expected);
  });

  it("copies between disjoint parts of one array", () => {
    const a = iota(64);
    copyStrided(view(a, [2, 16], [16, 1], 32), view(a, [2, 16], [16, 1], 0));
    expect([...a.slice(32)]).toEqual([...iota(32)]);
  });

  it("copies nothing for zero-size views, whatever their offset", () => {
    const dst = new Float64Array(2);
    copyStrided(view(dst, [0, 3], [3, 1], 99), view(iota(2), [0, 3], [3, 1], 99));
    expect([...dst]).toEqual([0, 0]);
  });

  it("refuses views of different shapes", () => {
    const e = catchError(() => copyStrided(view(new Float64Array(6), [2, 3]), view(iota(6), [3, 2])));
    expect(e).toBeInstanceOf(SelectionError);
    expect(e.message).toBe("cannot copy a view of shape [3, 2] into one of shape [2, 3]");
  });

  it("refuses views reaching outside their data", () => {
    const e = catchError(() => copyStrided(view(new Float64Array(6), [2, 3]), view(iota(6), [2, 3], [3, 1], 1)));
    expect(e).toBeInstanceOf(BoundsError);
    expect(e.message).toMatch(/source view .* reaches values 1 to 6 of data of length 6/);
    expect(catchError(() => copyStrided(view(new Float64Array(6), [3], [1]), view(iota(6), [3], [1]), 3)).code).toBe(
      "ZARR_BOUNDS",
    );
    expect(catchError(() => copyStrided(view(iota(6), [3], [-1]), view(iota(6), [3]))).code).toBe("ZARR_BOUNDS");
    expect(catchError(() => copyStrided(view(iota(6), [3]), view(iota(6), [3]), 0)).code).toBe("ZARR_SELECTION");
  });
});

describe("fillStrided", () => {
  it("fills a strided region with one value", () => {
    const a = new Int16Array(12);
    fillStrided(
      selectionView(view(a, [3, 4]), [
        { start: 0, stop: 3, step: 2 },
        { start: 1, stop: 4, step: 1 },
      ]),
      5,
    );
    expect([...a]).toEqual([0, 5, 5, 5, 0, 0, 0, 0, 0, 5, 5, 5]);
  });

  it("fills elements of several values with a pattern, contiguous or not", () => {
    const a = new Float64Array(2 * 40);
    fillStrided(view(a, [40]), [1.5, -2], 2);
    expect([...a]).toEqual(Array.from({ length: 40 }, () => [1.5, -2]).flat());
    const b = new Float64Array(2 * 6);
    fillStrided(view(b, [3], [2], 1), [3, 4], 2);
    expect([...b]).toEqual([0, 0, 3, 4, 0, 0, 3, 4, 0, 0, 3, 4]);
    const bytes = new Uint8Array(8 * 5);
    fillStrided(view(bytes, [5]), [1, 2, 3, 4, 5, 6, 7, 8], 8);
    expect([...bytes]).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6,
      7, 8,
    ]);
  });

  it("repeats a single value over every value of multi-value elements", () => {
    const a = new Uint8Array(6);
    fillStrided(view(a, [2]), 9, 3);
    expect([...a]).toEqual([9, 9, 9, 9, 9, 9]);
  });

  it("converts numbers for bigint arrays and bigints for number arrays", () => {
    const a = new BigInt64Array(3);
    fillStrided(view(a, [3]), -4);
    expect([...a]).toEqual([-4n, -4n, -4n]);
    const b = new BigUint64Array(2);
    fillStrided(view(b, [2]), 2n ** 64n - 1n);
    expect([...b]).toEqual([2n ** 64n - 1n, 2n ** 64n - 1n]);
    const c = new Float64Array(2);
    fillStrided(view(c, [2]), 3n);
    expect([...c]).toEqual([3, 3]);
  });

  it("fills 0-d views and leaves zero-size ones alone", () => {
    const a = new Float32Array(3);
    fillStrided(view(a, [], [], 2), 1);
    fillStrided(view(a, [0], [1], 50), 2);
    expect([...a]).toEqual([0, 0, 1]);
  });

  it("refuses wrong patterns and values a bigint array cannot hold", () => {
    expect(catchError(() => fillStrided(view(new Float64Array(4), [2]), [1, 2, 3], 2))).toMatchObject({
      code: "ZARR_SELECTION",
      message: "a fill value for elements of 2 values must have 2 values, got 3",
    });
    expect(catchError(() => fillStrided(view(new BigInt64Array(2), [2]), 1.5)).message).toBe(
      "cannot fill a bigint array with 1.5",
    );
    expect(catchError(() => fillStrided(view(new Float64Array(2), [3]), 0)).code).toBe("ZARR_BOUNDS");
  });
});

function catchError(f: () => unknown): Error & { code?: string } {
  try {
    f();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected an error");
}
