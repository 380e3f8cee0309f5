"""Prints zarr-python's own chunk projections for a few fancy selections, as the literals in
test/zarr-projections.test.ts: orthogonal (zarr 2.13's OrthogonalIndexer, per dimension before
np.ix_), coordinate and mask (CoordinateIndexer, MaskIndexer) and block (BlockIndexer, zarr 2.14+;
with an older zarr installed, set ZARR_2_18 as for fancy_cases.py).

Every selection of a chunk or an output dimension is written out as the list of indices it
stands for (slices as their ranges, Boolean chunk masks as their true indices), so that ranges and
index lists compare by what they select.

Run: /usr/bin/python3 packages/indexing/test/python/fancy_projections.py
"""
import itertools
import os
import subprocess
import sys

import numpy as np


class Arr:
    """What zarr's indexers read of an array."""

    def __init__(self, shape, chunks):
        self._shape = tuple(shape)
        self._chunks = tuple(chunks)
        self.shape = self._shape
        self._cdata_shape = tuple(-(-s // c) for s, c in zip(shape, chunks))
        self.nchunks = int(np.prod(self._cdata_shape))


def as_list(sel):
    if isinstance(sel, slice):
        return list(range(sel.start, sel.stop, sel.step or 1))
    arr = np.asarray(sel)
    if arr.dtype == bool:
        return np.nonzero(arr)[0].tolist()
    return arr.tolist()


def ts(value):
    return repr(value).replace("(", "[").replace(")", "]").replace(",]", "]")


def orthogonal(shape, chunks, selection):
    from zarr.indexing import OrthogonalIndexer

    indexer = OrthogonalIndexer(selection, Arr(shape, chunks))
    rows = []
    for dims in itertools.product(*indexer.dim_indexers):
        coords = [int(p.dim_chunk_ix) for p in dims]
        chunk_sel = [int(p.dim_chunk_sel) if isinstance(p.dim_chunk_sel, (int, np.integer)) else as_list(p.dim_chunk_sel) for p in dims]
        out_sel = [as_list(p.dim_out_sel) for p in dims if p.dim_out_sel is not None]
        rows.append([coords, chunk_sel, out_sel])
    return list(indexer.shape), rows


def points(indexer):
    rows = []
    for p in indexer:
        coords = [int(c) for c in p.chunk_coords]
        rows.append([coords, [np.asarray(s).tolist() for s in p.chunk_selection], as_list(p.out_selection)])
    return rows


def coordinate(shape, chunks, selection):
    from zarr.indexing import CoordinateIndexer

    indexer = CoordinateIndexer(tuple(np.array(s) if isinstance(s, list) else s for s in selection), Arr(shape, chunks))
    return list(indexer.sel_shape), points(indexer)


def mask(shape, chunks, m):
    from zarr.indexing import MaskIndexer

    indexer = MaskIndexer(np.array(m, dtype=bool), Arr(shape, chunks))
    return list(indexer.shape), points(indexer)


def block(shape, chunks, selection):
    from zarr.indexing import BlockIndexer

    indexer = BlockIndexer(selection, Arr(shape, chunks))
    rows = []
    for p in indexer:
        rows.append([[int(c) for c in p.chunk_coords], [as_list(s) for s in p.chunk_selection], [as_list(s) for s in p.out_selection]])
    return list(indexer.shape), rows


ORTHOGONAL = [
    ([10], [3], "[[7, 1, 1, 9, 4]]", ([7, 1, 1, 9, 4],)),
    ([10, 5], [3, 2], "[[9, 5, 1], 2]", ([9, 5, 1], 2)),
    ([6, 7], [4, 3], "[[true, false, true, true, false, true], slice(1, 6, 2)]",
     (np.array([True, False, True, True, False, True]), slice(1, 6, 2))),
    ([5, 6], [2, 4], "[[-1, 0, 3], [5, 0, 5]]", ([-1, 0, 3], [5, 0, 5])),
]
COORDINATE = [
    ([10, 8], [3, 3], "[[7, 1, 9, 1, 4], [0, 7, 2, 7, 5]]", ([7, 1, 9, 1, 4], [0, 7, 2, 7, 5])),
    ([10, 8], [3, 3], "[[[1], [8]], [0, 5, 7]]", ([[1], [8]], [0, 5, 7])),
    ([9], [4], "[[8, -1, 0, 5]]", ([8, -1, 0, 5],)),
    ([6, 5], [4, 2], "[2, 3]", (2, 3)),
]
MASKS = [
    ([5, 4], [2, 3], [[1, 0, 0, 1], [0, 0, 1, 0], [1, 1, 1, 1], [0, 0, 0, 0], [0, 1, 0, 1]]),
]
BLOCKS = [
    ([10, 7], [3, 4], "[slice(1, 3), -1]", (slice(1, 3), -1)),
    ([10, 7], [3, 4], "slice(-2, null)", slice(-2, None)),
    ([10], [4], "slice(0, -4)", slice(0, -4)),
]


def print_cases(name, cases, make, with_mask=False):
    print("const %s: ZarrCase[] = [" % name)
    for case in cases:
        if with_mask:
            shape, chunks, m = case
            literal = ts([[bool(x) for x in row] for row in m]).replace("True", "true").replace("False", "false")
            sel = "[" + literal + "]"
            out_shape, rows = make(shape, chunks, m)
        else:
            shape, chunks, sel, selection = case
            out_shape, rows = make(shape, chunks, selection)
        print("  {")
        print("    shape: %s, chunks: %s, selection: %s," % (ts(shape), ts(chunks), sel))
        print("    outShape: %s," % ts(out_shape))
        print("    projections: [")
        for row in rows:
            print("      %s," % ts(row))
        print("    ],")
        print("  },")
    print("];")


def main():
    import zarr
    from zarr import indexing

    if len(sys.argv) == 2 and sys.argv[1] == "--blocks":
        print_cases("ZARR_BLOCKS", BLOCKS, block)
        return
    print("// Generated by test/python/fancy_projections.py with zarr %s" % zarr.__version__)
    print_cases("ZARR_ORTHOGONAL", ORTHOGONAL, orthogonal)
    print_cases("ZARR_COORDINATE", COORDINATE, coordinate)
    print_cases("ZARR_MASK", MASKS, mask, with_mask=True)
    if hasattr(indexing, "BlockIndexer"):
        print_cases("ZARR_BLOCKS", BLOCKS, block)
        return
    path = os.environ.get("ZARR_2_18")
    if not path:
        sys.exit("block selections need zarr-python 2.14+: set ZARR_2_18 (see fancy_cases.py)")
    env = dict(os.environ, PYTHONPATH=path + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, __file__, "--blocks"], env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    print("// Blocks: zarr %s" % subprocess.run([sys.executable, "-c", "import zarr; print(zarr.__version__)"], env=env,
                                                check=True, stdout=subprocess.PIPE, text=True).stdout.strip())
    print(out, end="")


if __name__ == "__main__":
    main()
