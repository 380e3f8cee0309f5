/**
 * Every selection kind against numpy and zarr-python: the cases of test/golden/fancy-cases.json
 * (made by test/python/fancy_cases.py) run through our indexers and copy kernels chunk by chunk,
 * as the core does, on chunked arrays in C and F order.
 */
import { describe, expect, it } from "vitest";
import {
  BasicIndexer,
  BlockIndexer,
  BoundsError,
  CoordinateIndexer,
  MaskIndexer,
  OrthogonalIndexer,
  SelectionError,
  copyProjection,
  coversChunk,
  createIndexer,
  fillProjection,
  selectionKind,
  stridesFor,
  type AnyChunkProjection,
  type BasicSelection,
  type CoordinateSelection,
  type Indexer,
  type MaskSelection,
  type OrthogonalSelection,
  type AnySelection,
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
import { FIXTURE, decodeDispatch, decodeSelection, type FancyCase, type FancyKind } from "./fancy-fixture.js";

const ORDERS = ["C", "F"] as const;

function indexerFor(
  kind: FancyKind,
  selection: AnySelection,
  shape: number[],
  chunks: number[],
  viaCreate: boolean,
): Indexer {
  if (viaCreate) return createIndexer(kind, selection, shape, chunks);
  switch (kind) {
    case "basic":
      return new BasicIndexer(selection as BasicSelection, shape, chunks);
    case "orthogonal":
      return new OrthogonalIndexer(selection as OrthogonalSelection, shape, chunks);
    case "coordinate":
      return new CoordinateIndexer(selection as CoordinateSelection, shape, chunks);
    case "mask":
      return new MaskIndexer(selection as MaskSelection, shape, chunks);
    case "block":
      return new BlockIndexer(selection as BasicSelection, shape, chunks);
  }
}

const arange = (c: FancyCase, kind: Kind, order: "C" | "F") =>
  new ChunkedArray(c.shape, c.chunks, order, kind, (i) => i ?? PADDING);

/** The projections, checked for what the core relies on: as many as `nchunks`, each chunk once, in C order. */
function projectionsOf(indexer: Indexer, grid: number[]): AnyChunkProjection[] {
  const projections = [...indexer];
  expect(projections.length).toBe(indexer.nchunks);
  const flat = projections.map((p) => flatOffset(p.chunkCoords, grid, "C"));
  flat.forEach((f, i) => {
    if (i > 0) expect(f, "chunks in ascending C order, each once").toBeGreaterThan(flat[i - 1]!);
  });
  for (const p of projections) p.chunkCoords.forEach((q, d) => expect(q >= 0 && q < grid[d]!).toBe(true));
  return projections;
}

/** Reads the selection as the core does; returns the output's values in C order. */
function read(c: FancyCase, array: ChunkedArray, indexer: Indexer, outOrder: "C" | "F"): Value[] {
  const { k, make, element } = KINDS[array.kind];
  const shape = indexer.shape;
  const out: StridedView = { data: make(product(shape) * k), offset: 0, shape, strides: stridesFor(shape, outOrder) };
  const flat = plain(out.data);
  const pattern = element(-1); // so that any element left out shows
  for (let i = 0; i < flat.length; i++) (out.data as unknown as Value[])[i] = pattern[i % k]!;
  const chunkStrides = stridesFor(c.chunks, array.order);
  for (const p of projectionsOf(indexer, array.grid)) {
    copyProjection(out, array.chunk(p.chunkCoords, chunkStrides), p, "read", k);
  }
  const values = plain(out.data);
  return [...indices(shape)].flatMap((index) => {
    const at = flatOffset(index, shape, outOrder) * k;
    return values.slice(at, at + k);
  });
}

/** The value 1000, 1001, … of `valueShape`, broadcast to `shape` with stride-0 dimensions as the core does. */
function valueView(kind: Kind, valueShape: number[], shape: readonly number[]): StridedView {
  const { k, make } = KINDS[kind];
  const n = product(valueShape);
  const data = make(n * k);
  valuesOf(
    kind,
    Array.from({ length: n }, (_, i) => 1000 + i),
  ).forEach((x, i) => ((data as unknown as Value[])[i] = x));
  const own = stridesFor(valueShape, "C");
  const lead = shape.length - valueShape.length;
  const strides = shape.map((len, d) => (d < lead || valueShape[d - lead] !== len ? 0 : own[d - lead]!));
  return { data, offset: 0, shape, strides };
}

/** `a` after the case's write: numpy's result. */
function written(c: FancyCase, replace: (i: number) => number): number[] {
  const values = Array.from({ length: product(c.shape) }, (_, i) => i);
  c.write.at.forEach((at, i) => (values[at] = replace(i)));
  return values;
}

const untouchedPadding = (array: ChunkedArray): Value[] =>
  valuesOf(array.kind, new Array<number>(array.contents().padding.length / KINDS[array.kind].k).fill(PADDING));

const formatCase = (c: { shape: number[]; chunks: number[]; sel: unknown }) =>
  `shape [${c.shape}] chunks [${c.chunks}] ${JSON.stringify(c.sel)}`;

const byKind = new Map<FancyKind, FancyCase[]>();
for (const c of FIXTURE.cases) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);

describe(`selections as numpy ${FIXTURE.numpy} and zarr-python ${FIXTURE.zarr} (blocks: ${FIXTURE.zarrBlocks}) make them`, () => {
  for (const [kind, cases] of byKind) {
    describe(`${kind} (${cases.length} cases)`, () => {
      cases.forEach((c, n) => {
        it(formatCase(c), () => {
          const selection = decodeSelection(c.sel, n) as AnySelection;
          const indexer = indexerFor(kind, selection, c.shape, c.chunks, n % 3 === 0);
          expect(indexer.shape).toEqual(c.outShape);

          // reads, in every layout, and elements of several values
          const kinds: Kind[] = ["c128", "i64", "V8", "i32"];
          const other = kinds[n % kinds.length]!;
          const [one, theOther] = n % 2 ? (["C", "F"] as const) : (["F", "C"] as const);
          for (const [kind, chunkOrder, outOrder] of [
            ["f64", "C", "C"],
            ["f64", "F", "F"],
            [other, one, theOther],
          ] as const) {
            expect(
              read(c, arange(c, kind, chunkOrder), indexer, outOrder),
              `${kind}: ${chunkOrder} chunks, ${outOrder} output`,
            ).toEqual(valuesOf(kind, c.read));
          }

          // writes of a value broadcast to the selection, and of a scalar
          for (const [kind, order] of [
            ["f64", theOther],
            [other, one],
          ] as const) {
            const { k, element } = KINDS[kind];
            const array = arange(c, kind, order);
            const value = valueView(kind, c.write.valueShape, indexer.shape);
            const chunkStrides = stridesFor(c.chunks, order);
            for (const p of indexer) copyProjection(value, array.chunk(p.chunkCoords, chunkStrides), p, "write", k);
            const after = array.contents();
            expect(after.values, `${kind} ${order} write`).toEqual(
              valuesOf(
                kind,
                written(c, (i) => c.write.values[i]!),
              ),
            );
            expect(after.padding, "padding is never written").toEqual(untouchedPadding(array));

            const filled = arange(c, kind, order);
            for (const p of indexer) fillProjection(filled.chunk(p.chunkCoords, chunkStrides), p, element(7777), k);
            expect(filled.contents().values, `${kind} ${order} fill`).toEqual(
              valuesOf(
                kind,
                written(c, () => 7777),
              ),
            );
          }
        });
      });

      it("coversChunk is true exactly when filling the projection sets every element of the chunk", () => {
        for (const [n, c] of cases.entries()) {
          const indexer = indexerFor(kind, decodeSelection(c.sel, n) as AnySelection, c.shape, c.chunks, false);
          for (const p of indexer) {
            for (const order of ORDERS) {
              const data = new Float64Array(product(c.chunks));
              fillProjection({ data, offset: 0, shape: c.chunks, strides: stridesFor(c.chunks, order) }, p, 1);
              expect(coversChunk(p, c.chunks), `${formatCase(c)} chunk [${p.chunkCoords}]`).toBe(
                data.every((x) => x === 1),
              );
            }
          }
        }
      });
    });
  }
});

describe("selections zarr-python refuses are refused before any chunk is read", () => {
  for (const [n, c] of FIXTURE.errors.entries()) {
    it(`${c.kind} ${formatCase(c)}: ${c.error === "bounds" ? "BoundsError" : "SelectionError"}`, () => {
      let error: unknown;
      try {
        indexerFor(c.kind, decodeSelection(c.sel, n) as AnySelection, c.shape, c.chunks, n % 2 === 0);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(c.error === "bounds" ? BoundsError : SelectionError);
    });
  }
});

describe("selectionKind dispatches as zarr-python's Array.__getitem__ (2.14+)", () => {
  for (const c of FIXTURE.dispatch) {
    it(`shape [${c.shape}] ${JSON.stringify(c.sel)} → ${c.kind}`, () => {
      const selection = decodeDispatch(c.sel) as AnySelection;
      if (c.kind === "error") {
        expect(() => selectionKind(selection, c.shape)).toThrow(SelectionError);
      } else {
        expect(selectionKind(selection, c.shape)).toBe(c.kind);
      }
    });
  }
});

describe("the fixture", () => {
  it("has every kind, with repeated points, negative steps and empty selections", () => {
    const kinds = new Set(FIXTURE.cases.map((c) => c.kind));
    expect([...kinds].sort()).toEqual(["basic", "block", "coordinate", "mask", "orthogonal"]);
    expect(FIXTURE.cases.filter((c) => c.repeats).length).toBeGreaterThan(10);
    const negative = FIXTURE.cases.filter((c) =>
      c.sel.some((i) => typeof i === "object" && "s" in i && (i.s[2] ?? 1) < 0),
    );
    expect(negative.filter((c) => c.kind === "basic").length).toBeGreaterThan(10);
    expect(negative.filter((c) => c.kind === "orthogonal").length).toBeGreaterThan(10);
    expect(FIXTURE.cases.filter((c) => product(c.outShape) === 0).length).toBeGreaterThan(10);
  });
});
