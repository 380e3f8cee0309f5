/**
 * The fancy indexers' edges the generated cases do not reach: errors and their details, every
 * form an index array can take, huge chunk grids, the dispatch helpers and the copy kernels'
 * checks.
 */
import { describe, expect, it } from "vitest";
import {
  BoolArrayDimIndexer,
  BoundsError,
  CoordinateIndexer,
  ELLIPSIS,
  IntArrayDimIndexer,
  MaskIndexer,
  OrthogonalIndexer,
  SelectionError,
  copyProjection,
  coversChunk,
  createIndexer,
  fillProjection,
  isPureFancyIndexing,
  isPureOrthogonalIndexing,
  popFields,
  selectionKind,
  slice,
  stridesFor,
  vindexKind,
  type AnyChunkProjection,
  type DimRange,
  type PointChunkProjection,
  type AnySelection,
  type StridedView,
} from "@z/indexing";

function catchError(f: () => unknown): Error & Record<string, unknown> {
  try {
    f();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected an error");
}

const list = (s: number | DimRange | Int32Array): number[] | number => {
  if (typeof s === "number") return s;
  if (s instanceof Int32Array) return [...s];
  const out: number[] = [];
  for (let i = s.start; s.step > 0 ? i < s.stop : i > s.stop; i += s.step) out.push(i);
  return out;
};
const expand = (p: AnyChunkProjection) =>
  p.kind === "points"
    ? [p.chunkCoords, p.chunkSelection.map(list), list(p.outSelection)]
    : [p.chunkCoords, p.chunkSelection.map(list), p.outSelection.map(list)];

/** Reads a selection of `a = arange(size)` in one chunk holding the whole array. */
function readWhole(
  selection: AnySelection,
  shape: number[],
  kind: "orthogonal" | "coordinate" | "mask",
): { shape: readonly number[]; values: number[] } {
  const indexer = createIndexer(
    kind,
    selection,
    shape,
    shape.map((n) => Math.max(n, 1)),
  );
  const size = shape.reduce((p, n) => p * n, 1);
  const chunk: StridedView = {
    data: Float64Array.from({ length: size }, (_, i) => i),
    offset: 0,
    shape,
    strides: stridesFor(shape, "C"),
  };
  const out: StridedView = {
    data: new Float64Array(indexer.shape.reduce((p, n) => p * n, 1)),
    offset: 0,
    shape: indexer.shape,
    strides: stridesFor(indexer.shape, "C"),
  };
  for (const p of indexer) copyProjection(out, chunk, p, "read");
  return { shape: indexer.shape, values: [...(out.data as Float64Array)] };
}

describe("errors name what is wrong, before any chunk is read", () => {
  it("index arrays out of bounds: a BoundsError with the dimension, the index as given and the length", () => {
    const e = catchError(() => new OrthogonalIndexer([slice(null), [0, 7]], [5, 6], [2, 2]));
    expect(e).toBeInstanceOf(BoundsError);
    expect(e).toMatchObject({ code: "ZARR_BOUNDS", dim: 1, index: 7, length: 6 });
    expect(e.message).toBe("index 7 is out of bounds for dimension 1 with length 6");
    expect(catchError(() => new CoordinateIndexer([[0], Int32Array.of(2, -9)], [5, 6], [2, 2]))).toMatchObject({
      dim: 1,
      index: -9,
      length: 6,
    });
    expect(catchError(() => new OrthogonalIndexer([BigInt64Array.of(2n ** 60n)], [5], [2]))).toBeInstanceOf(
      BoundsError,
    );
    // an integer next to arrays is checked as zarr checks it, as a one-element array
    expect(catchError(() => new CoordinateIndexer([9, [0, 1]], [5, 6], [2, 2]))).toMatchObject({
      dim: 0,
      index: 9,
      length: 5,
    });
  });

  it("masks of the wrong length or shape", () => {
    const e = catchError(() => new OrthogonalIndexer([null, [true, false, true]], [4, 6], [2, 2]));
    expect(e).toBeInstanceOf(SelectionError);
    expect(e).toMatchObject({ dim: 1 });
    expect(e.message).toBe("Boolean array has the wrong length for dimension 1; expected 6, got 3");
    const m = catchError(() => new MaskIndexer([[[true, false]]], [2, 2], [1, 1]));
    expect(m.message).toBe(
      "invalid mask selection; expected one Boolean (mask) array with the same shape as the target array [2, 2], got a Boolean array of shape [1, 2]",
    );
    expect(catchError(() => new MaskIndexer([[0, 1]], [2], [1]))).toBeInstanceOf(SelectionError);
    expect(
      catchError(() => new OrthogonalIndexer([{ data: [true, false, true, true], shape: [2, 2] }], [4], [2])).message,
    ).toMatch(/^Boolean arrays in an orthogonal selection must be 1-dimensional only/);
  });

  it("non-integer indices and arrays that are not integer or Boolean arrays", () => {
    expect(catchError(() => new OrthogonalIndexer([[0, 1.5]], [4], [2])).message).toBe(
      "arrays used as indices must be of integer (or boolean) type in dimension 0; got an array [0, 1.5]",
    );
    for (const bad of [
      Float64Array.of(0, 1),
      { data: Float32Array.of(1), shape: [1] },
      { data: [1], shape: [1], dtype: { kind: "f" } },
      [NaN],
      ["0"],
    ]) {
      expect(catchError(() => new OrthogonalIndexer([bad as never], [4], [2]))).toBeInstanceOf(SelectionError);
      expect(catchError(() => new CoordinateIndexer([bad as never], [4], [2]))).toBeInstanceOf(SelectionError);
    }
    expect(catchError(() => new CoordinateIndexer([0.5, 1], [4, 4], [2, 2]))).toBeInstanceOf(SelectionError);
    expect(catchError(() => new OrthogonalIndexer([[[0, 1], [2]]], [4], [2])).message).toMatch(/rectangular/);
    expect(catchError(() => new OrthogonalIndexer([{ data: [0, 1], shape: [3] }], [4], [2])).message).toMatch(
      /hold every element/,
    );
  });

  it("arrays that cannot be broadcast, and coordinate selections of the wrong length", () => {
    expect(
      catchError(
        () =>
          new CoordinateIndexer(
            [
              [0, 1, 2],
              [0, 1],
            ],
            [5, 6],
            [2, 2],
          ),
      ).message,
    ).toBe("shape mismatch: indexing arrays could not be broadcast together with shapes [3] [2]");
    expect(catchError(() => new CoordinateIndexer([[0, 1]], [5, 6], [2, 2])).message).toMatch(
      /^invalid coordinate selection; expected one integer \(coordinate\) array per dimension of the target array \(2\), got 1 items/,
    );
    expect(catchError(() => new CoordinateIndexer([[0], slice(null)] as never, [5, 6], [2, 2]))).toBeInstanceOf(
      SelectionError,
    );
  });

  it("zero steps, too many items, two ellipses, unknown kinds", () => {
    expect(catchError(() => new OrthogonalIndexer([slice(0, 3, 0)], [4], [2])).message).toBe(
      "slice step cannot be zero (dimension 0)",
    );
    expect(catchError(() => new OrthogonalIndexer([[0], [0]], [4], [2])).message).toMatch(/^too many indices/);
    expect(catchError(() => new OrthogonalIndexer([ELLIPSIS, [0], ELLIPSIS], [4, 4], [2, 2])).message).toMatch(
      /single ellipsis/,
    );
    expect(catchError(() => new OrthogonalIndexer(["f" as never], [4], [2]))).toBeInstanceOf(SelectionError);
    expect(catchError(() => createIndexer("fancy" as never, undefined, [4], [2]))).toBeInstanceOf(SelectionError);
  });
});

describe("index arrays in every form", () => {
  const shape = [3, 4];
  it("JS lists, nested lists, typed arrays and SelectionArrays, with or without strides and dtype", () => {
    const expected = { shape: [2], values: [6, 1] }; // a[[1, 0], [2, 1]]
    for (const [rows, cols] of [
      [
        [1, 0],
        [2, 1],
      ],
      [Int8Array.of(1, 0), Uint16Array.of(2, 1)],
      [BigInt64Array.of(1n, 0n), BigUint64Array.of(2n, 1n)],
      [
        { data: [1, 0], shape: [2] },
        { data: Int32Array.of(2, 1), shape: [2], dtype: { kind: "i" } },
      ],
      [
        [-2, -3],
        [-2, 1],
      ],
      // every other element of a longer array
      [
        { data: [1, 9, 0, 9], shape: [2], strides: [2] },
        { data: [2, 9, 1], shape: [2], strides: [2] },
      ],
    ] as const) {
      expect(readWhole([rows, cols] as AnySelection, shape, "coordinate")).toEqual(expected);
    }
    // a transposed 2-d index array: [[0, 2], [1, 0]] stored in F order
    expect(
      readWhole([{ data: [0, 1, 2, 0], shape: [2, 2], strides: [1, 2] }, 3] as AnySelection, shape, "coordinate"),
    ).toEqual({
      shape: [2, 2],
      values: [3, 11, 7, 3],
    });
  });

  it("masks as nested boolean lists, or arrays of a Boolean dtype (as read from a zarr array)", () => {
    const expected = { shape: [3], values: [0, 5, 11] };
    expect(
      readWhole(
        [
          [
            [true, false, false, false],
            [false, true, false, false],
            [false, false, false, true],
          ],
        ],
        shape,
        "mask",
      ),
    ).toEqual(expected);
    const bytes = Uint8Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1);
    expect(readWhole([{ data: bytes, shape, strides: [4, 1], dtype: { kind: "b" } }], shape, "mask")).toEqual(expected);
    expect(readWhole({ data: [...bytes].map(Boolean), shape } as AnySelection, shape, "mask")).toEqual(expected);
    // F-order mask data
    const f = Uint8Array.of(1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1);
    expect(readWhole([{ data: f, shape, strides: [1, 3], dtype: { kind: "b" } }], shape, "mask")).toEqual(expected);
  });

  it("a list of integers and booleans is an integer list (numpy's asarray); an empty list selects nothing", () => {
    expect(readWhole([[1, true], null] as AnySelection, shape, "orthogonal")).toEqual({
      shape: [2, 4],
      values: [4, 5, 6, 7, 4, 5, 6, 7],
    });
    expect(readWhole([[], [1]], shape, "orthogonal")).toEqual({ shape: [0, 1], values: [] });
    expect([...new OrthogonalIndexer([[], [1]], shape, [2, 2])]).toEqual([]);
    expect(new CoordinateIndexer([[], []], shape, [2, 2]).nchunks).toBe(0);
  });

  it("integers alone select one point, of shape [1] as zarr-python's vindex", () => {
    expect(readWhole([2, -1], shape, "coordinate")).toEqual({ shape: [1], values: [11] });
    expect(
      readWhole(
        [
          { data: [2], shape: [] },
          { data: [3], shape: [] },
        ],
        shape,
        "coordinate",
      ),
    ).toEqual({ shape: [1], values: [11] });
  });
});

describe("huge chunk grids are grouped without visiting every chunk", () => {
  it("orthogonal indices, unsorted, on a dimension of a billion chunks", () => {
    const indexer = new OrthogonalIndexer([[7e11, 3, 7e11 + 999, 3, -1]], [1e12], [1000]);
    expect(indexer.shape).toEqual([5]);
    expect([...indexer].map(expand)).toEqual([
      [[0], [[3, 3]], [[1, 3]]],
      [[7e8], [[0, 999]], [[0, 2]]],
      [[1e9 - 1], [[999]], [[4]]],
    ]);
  });

  it("coordinates on a grid of 10**10 chunks, as a stable sort by chunk", () => {
    const rows = [5, 999_999, 5, 13, 5, 999_990];
    const cols = [7, 0, 8, 7, 7, 3];
    const indexer = new CoordinateIndexer([rows, cols], [1e6, 1e6], [10, 10]);
    const projections = [...indexer].map(expand);
    expect(projections).toEqual([
      [
        [0, 0],
        [
          [5, 5, 5],
          [7, 8, 7],
        ],
        [0, 2, 4],
      ],
      [[1, 0], [[3], [7]], [3]],
      [
        [99_999, 0],
        [
          [9, 0],
          [0, 3],
        ],
        [1, 5],
      ],
    ]);
  });

  it("and agree with a brute-force grouping on many random points", () => {
    let seed = 12345;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const shape = [300, 200];
    const chunks = [7, 9];
    for (const n of [10, 5000]) {
      const rows = Array.from({ length: n }, () => random(300));
      const cols = Array.from({ length: n }, () => random(200));
      const groups = new Map<number, number[]>();
      rows.forEach((r, i) => {
        const key = Math.floor(r / 7) * 23 + Math.floor(cols[i]! / 9);
        groups.set(key, [...(groups.get(key) ?? []), i]);
      });
      const expected = [...groups.keys()]
        .sort((a, b) => a - b)
        .map((key) => {
          const items = groups.get(key)!;
          return [
            [Math.floor(key / 23), key % 23],
            [items.map((i) => rows[i]! % 7), items.map((i) => cols[i]! % 9)],
            items,
          ];
        });
      expect([...new CoordinateIndexer([rows, cols], shape, chunks)].map(expand)).toEqual(expected);
    }
  });
});

describe("dimension indexers", () => {
  it("IntArrayDimIndexer groups by chunk and gives ranges where it can", () => {
    const d = new IntArrayDimIndexer([9, 5, 4, 6, 1, 5], 10, 4, 0);
    expect([d.nitems, d.nchunks]).toEqual([6, 3]);
    expect([...d]).toEqual([
      { chunkIndex: 0, chunkSelection: { start: 1, stop: 2, step: 1 }, outSelection: { start: 4, stop: 5, step: 1 } },
      { chunkIndex: 1, chunkSelection: Int32Array.of(1, 0, 2, 1), outSelection: Int32Array.of(1, 2, 3, 5) },
      { chunkIndex: 2, chunkSelection: { start: 1, stop: 2, step: 1 }, outSelection: { start: 0, stop: 1, step: 1 } },
    ]);
    expect([...new IntArrayDimIndexer([0, 2, 4, 5], 10, 4, 0)]).toEqual([
      { chunkIndex: 0, chunkSelection: { start: 0, stop: 3, step: 2 }, outSelection: { start: 0, stop: 2, step: 1 } },
      { chunkIndex: 1, chunkSelection: { start: 0, stop: 2, step: 1 }, outSelection: { start: 2, stop: 4, step: 1 } },
    ]);
  });

  it("BoolArrayDimIndexer selects the true indices in order", () => {
    const d = new BoolArrayDimIndexer([false, true, true, true, false], 5, 2, 3);
    expect([d.nitems, d.nchunks]).toEqual([3, 2]);
    expect([...d].map((p) => [p.chunkIndex, list(p.chunkSelection), list(p.outSelection!)])).toEqual([
      [0, [1], [0]],
      [1, [0, 1], [1, 2]],
    ]);
  });
});

describe("dispatch helpers", () => {
  it("popFields splits field names from the items, keeping the ellipsis", () => {
    expect(popFields("f")).toEqual({ fields: "f", selection: [] });
    expect(popFields(["a", 0, "b"])).toEqual({ fields: ["a", "b"], selection: [0] });
    expect(popFields([ELLIPSIS, "x"])).toEqual({ fields: "x", selection: [ELLIPSIS] });
    expect(popFields(undefined)).toEqual({ fields: undefined, selection: [] });
    expect(popFields(3)).toEqual({ fields: undefined, selection: [3] });
    expect(popFields(ELLIPSIS)).toEqual({ fields: undefined, selection: [ELLIPSIS] });
  });

  it("is_pure_fancy_indexing and is_pure_orthogonal_indexing on popped items", () => {
    expect(isPureFancyIndexing([[0, 1]], 1)).toBe(true);
    expect(isPureFancyIndexing([[0, 1]], 2)).toBe(false);
    expect(isPureFancyIndexing([[0, 1], 2], 2)).toBe(true);
    expect(isPureFancyIndexing([0, 2], 2)).toBe(false);
    expect(isPureFancyIndexing([[0, 1], null], 2)).toBe(false);
    expect(isPureOrthogonalIndexing([[0, 1]], 2)).toBe(true);
    expect(isPureOrthogonalIndexing([[0, 1], null], 2)).toBe(true);
    expect(
      isPureOrthogonalIndexing(
        [
          [0, 1],
          [0, 1],
        ],
        2,
      ),
    ).toBe(false);
    expect(isPureOrthogonalIndexing([ELLIPSIS, [0, 1]], 2)).toBe(false);
    expect(isPureOrthogonalIndexing([], 0)).toBe(false);
  });

  it("selectionKind and vindexKind", () => {
    expect(selectionKind(undefined, [4])).toBe("basic");
    expect(selectionKind(["f", [0, 1]], [4])).toBe("coordinate");
    expect(selectionKind(Int32Array.of(0, 2), [4, 4])).toBe("orthogonal");
    expect(selectionKind(slice(null, null, -1), [4])).toBe("basic");
    expect(vindexKind([[true, false]], [2])).toBe("mask");
    expect(vindexKind([0, [1, 2]], [4, 4])).toBe("coordinate");
    expect(catchError(() => vindexKind([slice(null)], [4])).message).toMatch(
      /^unsupported selection for vectorized indexing/,
    );
    expect(catchError(() => vindexKind([], []))).toBeInstanceOf(SelectionError);
  });
});

describe("copyProjection, fillProjection and coversChunk", () => {
  const chunk = (): StridedView => ({ data: new Float64Array(12), offset: 0, shape: [3, 4], strides: [4, 1] });
  const points = (rows: number[], cols: number[], out: number[]): PointChunkProjection => ({
    kind: "points",
    chunkCoords: [0, 0],
    count: rows.length,
    chunkSelection: [Int32Array.from(rows), Int32Array.from(cols)],
    outSelection: Int32Array.from(out),
  });

  it("refuse projections that do not fit the views, and write nothing then", () => {
    const c = chunk();
    const value: StridedView = { data: Float64Array.of(1, 2), offset: 0, shape: [2], strides: [1] };
    const outside = points([0, 3], [0, 0], [0, 1]);
    expect(catchError(() => copyProjection(value, c, outside, "write"))).toMatchObject({
      code: "ZARR_BOUNDS",
      dim: 0,
      index: 3,
      length: 3,
    });
    expect([...c.data].every((x) => x === 0)).toBe(true);
    expect(catchError(() => copyProjection(value, c, points([0, 1], [0, 0], [0, 2]), "write"))).toBeInstanceOf(
      BoundsError,
    );
    expect(
      catchError(() => copyProjection(value, { ...c, shape: [12], strides: [1] }, points([0], [0], [0]), "read")),
    ).toBeInstanceOf(SelectionError);
    const ortho: AnyChunkProjection = {
      kind: "orthogonal",
      chunkCoords: [0, 0],
      chunkSelection: [Int32Array.of(0, 2), 1],
      outSelection: [{ start: 0, stop: 3, step: 1 }],
    };
    expect(
      catchError(() => copyProjection({ ...value, shape: [3], data: new Float64Array(3) }, c, ortho, "write")).message,
    ).toMatch(/does not match/);
    expect(catchError(() => copyProjection(value, c, ortho, "sideways" as never))).toBeInstanceOf(SelectionError);
    expect(catchError(() => fillProjection({ ...c, data: new Float64Array(5) }, ortho, 1))).toBeInstanceOf(BoundsError);
  });

  it("repeated points: the last write wins", () => {
    const c = chunk();
    const value: StridedView = { data: Float64Array.of(1, 2, 3), offset: 0, shape: [3], strides: [1] };
    copyProjection(value, c, points([1, 1, 1], [2, 2, 2], [0, 1, 2]), "write");
    expect(c.data[6]).toBe(3);
  });

  it("coversChunk sees permutations and shuffled points that cover the chunk", () => {
    const shape = [3, 4];
    const ortho = (rows: number[] | DimRange, cols: number[] | DimRange | number): AnyChunkProjection => ({
      kind: "orthogonal",
      chunkCoords: [0, 0],
      chunkSelection: [
        Array.isArray(rows) ? Int32Array.from(rows) : rows,
        Array.isArray(cols) ? Int32Array.from(cols) : cols,
      ],
      outSelection: [],
    });
    expect(coversChunk(ortho([2, 0, 1], { start: 0, stop: 4, step: 1 }), shape)).toBe(true);
    expect(coversChunk(ortho([2, 0, 0, 1], [3, 2, 1, 0]), shape)).toBe(true);
    expect(coversChunk(ortho([2, 0, 0], [3, 2, 1, 0]), shape)).toBe(false);
    expect(coversChunk(ortho({ start: 2, stop: -1, step: -1 }, [0, 1, 2, 3]), shape)).toBe(true);
    expect(coversChunk(ortho([0, 1, 2], 0), shape)).toBe(false);
    expect(coversChunk(ortho([0, 1, 2], 0), [3, 1])).toBe(true);
    const all = [...Array(12).keys()].reverse();
    expect(
      coversChunk(
        points(
          all.map((i) => Math.floor(i / 4)),
          all.map((i) => i % 4),
          all,
        ),
        shape,
      ),
    ).toBe(true);
    const repeated = [...all, 5];
    expect(
      coversChunk(
        points(
          repeated.map((i) => Math.floor(i / 4)),
          repeated.map((i) => i % 4),
          [...repeated.keys()],
        ),
        shape,
      ),
    ).toBe(true);
    const missing = [...all.slice(1), 0];
    expect(
      coversChunk(
        points(
          missing.map((i) => Math.floor(i / 4)),
          missing.map((i) => i % 4),
          all,
        ),
        shape,
      ),
    ).toBe(false);
    expect(coversChunk(points([0, 0], [0, 0], [0, 1]), [1, 1])).toBe(true);
    expect(coversChunk(points([0], [1], [0]), [1, 2])).toBe(false);
  });
});
