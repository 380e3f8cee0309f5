"""Seeded random selections of every kind, with numpy's (and zarr-python's) results, as JSON.

For each case, `a = np.arange(size).reshape(shape)` (element = its flat C index):
  read:  the selection of `a` flattened in C order, and its shape;
  write: `b = a.copy(); b[sel] = v` for `v = 1000 + np.arange(prod(valueShape)).reshape(valueShape)`
         (valueShape broadcasts to the selection's shape), as the flat positions that changed and
         their new values.

Kinds, and what gives the expected result:
  basic       numpy's `a[sel]` for ints and slices with any step (also negative, which zarr refuses);
  orthogonal  numpy's `a[np.ix_(...)]` with integer dimensions squeezed (zarr's `oindex`/`oindex_set`
              recipe, slices turned into ranges so that negative steps work), and zarr 2.13's own
              `z.oindex[...]` on an in-memory array as a cross-check when it accepts the selection;
  coordinate  numpy's `a[tuple(arrays)]` (integers as 1-element arrays, as zarr does), checked
              against zarr's `z.vindex[...]` for reads (and writes without repeated points);
  mask        numpy's `a[mask]`, checked against zarr's `z.vindex[mask]`;
  block       zarr-python's own `z.get_block_selection` / `z.set_block_selection` (2.14+).
Also selections every one of which zarr-python (or numpy) refuses, with the kind of error
("bounds" for zarr's BoundsCheckError / numpy's out-of-bounds IndexError, else "selection"), and
the dispatch of `Array.__getitem__` (zarr 2.14+'s is_pure_fancy_indexing / is_pure_orthogonal_indexing
then VIndex's coordinate-or-mask choice) for selections written with lists and arrays.

Block selections and the dispatch need zarr-python 2.14+. With an older zarr installed (Debian's
2.13), point ZARR_2_18 at a directory holding zarr-python 2.18's `zarr` package, e.g. from a clone
of zarr-python: `git archive v2.18.7 zarr | tar -x -C DIR && echo 'version = "2.18.7"' > DIR/zarr/version.py`;
that part then runs in a child process with DIR first on its path.

Items are encoded as: an int; {"s": [start, stop, step]} a slice; "..." the ellipsis;
{"i": [flat values], "shape": [...]} an integer array; {"f": ..., "shape"} a float array; {"x": 0.5} a float; {"b": [0/1 ...], "shape": [...]} a Boolean
array; {"l": nested list} / {"bl": nested list} a Python list of ints / bools (dispatch only).

Run: /usr/bin/python3 packages/indexing/test/python/fancy_cases.py > packages/indexing/test/golden/fancy-cases.json
"""
import json
import os
import random
import subprocess
import sys

import numpy as np

SEED = 20251122


# --- encoding -------------------------------------------------------------------------------------


def enc(item):
    if isinstance(item, slice):
        return {"s": [item.start, item.stop, item.step]}
    if item is Ellipsis:
        return "..."
    if isinstance(item, np.ndarray):
        if item.dtype == bool:
            return {"b": item.astype(int).ravel().tolist(), "shape": list(item.shape)}
        if item.dtype.kind == "f":
            return {"f": item.ravel().tolist(), "shape": list(item.shape)}
        return {"i": item.ravel().tolist(), "shape": list(item.shape)}
    if isinstance(item, list):
        arr = np.asarray(item)
        return {"bl": item} if arr.dtype == bool else {"l": item}
    if isinstance(item, float):
        return {"x": item}
    return int(item)


def enc_sel(items):
    return [enc(i) for i in items]


# --- random selections ----------------------------------------------------------------------------


def random_shape(rng, max_ndim=3):
    ndim = rng.choice([1, 1, 2, 2, 3, 3][: 2 * max_ndim])
    shape = [rng.choice([0, 1]) if rng.random() < 0.04 else rng.randint(1, 7) for _ in range(ndim)]
    chunks = [rng.randint(1, max(n, 1) + 1) for n in shape]
    return shape, chunks


def random_slice(rng, n, negative=True):
    step = rng.choice([None, 1, 1, 2, 3, -1, -1, -2, -3] if negative else [None, 1, 1, 2, 3])

    def bound():
        r = rng.random()
        if r < 0.3:
            return None
        if r < 0.45:
            return rng.randint(-n - 2, -1)
        return rng.randint(0, n + 2)

    start, stop = bound(), bound()
    if rng.random() < 0.8 and n > 0:
        # mostly slices that select something: first and last items in the step's direction
        lo, hi = sorted([rng.randint(0, n - 1), rng.randint(0, n - 1)])
        start, stop = (lo, hi + 1) if (step or 1) > 0 else (hi, lo - 1 if lo > 0 else None)
        if rng.random() < 0.4:
            # the same, written with negative or missing bounds
            start = start - n if rng.random() < 0.5 else start
            stop = None if rng.random() < 0.5 and (lo == 0 or hi == n - 1) else stop
    return slice(start, stop, step)


def random_int_array(rng, n, length=None):
    if length is None:
        length = 0 if rng.random() < 0.04 else rng.choice([1, 2, 3, 4, 5, 6])
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    r = rng.random()
    values = [rng.randint(-n, n - 1) for _ in range(length)]
    if r < 0.2:
        values = sorted({v % n for v in values})  # ascending, unique
    elif r < 0.3:
        values = sorted({v % n for v in values}, reverse=True)  # descending
    elif r < 0.4 and n > 1:
        start = rng.randint(0, n - 1)
        values = list(range(start, min(n, start + length)))  # a run
    return np.array(values, dtype=np.int64)


def random_mask(rng, shape):
    r = rng.random()
    if r < 0.03:
        return np.zeros(shape, dtype=bool)
    if r < 0.12:
        return np.ones(shape, dtype=bool)
    p = rng.uniform(0.4, 1.0)
    return np.array([rng.random() < p for _ in range(int(np.prod(shape)))], dtype=bool).reshape(shape)


def random_orthogonal_items(rng, shape):
    items = []
    for n in shape:
        r = rng.random()
        if r < 0.15 and n > 0:
            items.append(rng.randint(-n, n - 1))
        elif r < 0.35:
            items.append(random_slice(rng, n))
        elif r < 0.75:
            items.append(random_int_array(rng, n))
        elif r < 0.92:
            items.append(random_mask(rng, (n,)))
        else:
            items.append(slice(None))
    r = rng.random()
    if r < 0.1 and len(items) > 1:
        items = items[: rng.randint(1, len(items) - 1)]
    elif r < 0.2:
        at = rng.randint(0, len(items) - 1)
        k = rng.randint(0, len(items) - at)
        items = items[:at] + [Ellipsis] + items[at + k:]
    return items


def expand(items, shape):
    """zarr's replace_ellipsis."""
    if any(i is Ellipsis for i in items):
        at = next(k for k, i in enumerate(items) if i is Ellipsis)
        rest = len(items) - 1
        items = items[:at] + [slice(None)] * max(len(shape) - rest, 0) + items[at + 1:]
    return items + [slice(None)] * (len(shape) - len(items))


def ix_items(items, shape):
    """The np.ix_ arguments for an orthogonal selection, and the dimensions integers drop."""
    items = expand(items, shape)
    drop = tuple(d for d, s in enumerate(items) if isinstance(s, int))
    ix = []
    for s, n in zip(items, shape):
        if isinstance(s, slice):
            ix.append(np.arange(*s.indices(n), dtype=np.int64))
        elif isinstance(s, int):
            ix.append(np.array([s], dtype=np.int64))
        elif s.dtype == bool:
            ix.append(np.nonzero(s)[0])
        else:
            ix.append(s.astype(np.int64))
    return np.ix_(*ix), drop


def np_oindex(a, items):
    ix, drop = ix_items(items, a.shape)
    r = a[ix]
    return r.squeeze(axis=drop) if drop else r


def np_oindex_set(b, items, v):
    ix, drop = ix_items(items, b.shape)
    if drop:
        sel = [slice(None)] * b.ndim
        for d in drop:
            sel[d] = np.newaxis
        # v broadcast to the selection's shape first, as the core does
        v = np.broadcast_to(v, np_oindex(b, items).shape)[tuple(sel)]
    b[ix] = v


def random_value_shape(rng, out_shape):
    """A shape that broadcasts to out_shape: the same, with some dims 1, or leading dims left out."""
    shape = list(out_shape)
    r = rng.random()
    if r < 0.5:
        return shape
    shape = [1 if rng.random() < 0.4 else n for n in shape]
    if rng.random() < 0.4 and shape:
        shape = shape[rng.randint(0, len(shape)):]
    return shape


def values_of(shape):
    return 1000 + np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)


def write_record(a, b, value_shape):
    changed = np.nonzero(a.ravel() != b.ravel())[0]
    return {"valueShape": list(value_shape), "at": changed.tolist(), "values": b.ravel()[changed].tolist()}


def has_repeats(arr):
    return len(np.unique(arr)) != len(arr)


# --- cases ------------------------------------------------------------------------------------------


def basic_cases(rng, count):
    cases = []
    while len(cases) < count:
        shape, chunks = random_shape(rng)
        items = [rng.randint(-n, n - 1) if rng.random() < 0.2 and n > 0 else random_slice(rng, n) for n in shape]
        if rng.random() < 0.15:
            at = rng.randint(0, len(items) - 1)
            items = items[:at] + [Ellipsis] + items[at + 1:]
        a = np.arange(int(np.prod(shape))).reshape(shape)
        read = a[tuple(items)]
        vshape = random_value_shape(rng, read.shape)
        b = a.copy()
        b[tuple(items)] = values_of(vshape)
        cases.append({"kind": "basic", "shape": shape, "chunks": chunks, "sel": enc_sel(items),
                      "outShape": list(read.shape), "read": read.ravel().tolist(), "write": write_record(a, b, vshape)})
    return cases


def orthogonal_cases(rng, zarr, count):
    cases = []
    checked = 0
    while len(cases) < count:
        shape, chunks = random_shape(rng)
        items = random_orthogonal_items(rng, shape)
        a = np.arange(int(np.prod(shape))).reshape(shape)
        read = np_oindex(a, items)
        vshape = random_value_shape(rng, read.shape)
        b = a.copy()
        np_oindex_set(b, items, values_of(vshape))
        negative = any(isinstance(s, slice) and (s.step or 1) < 0 for s in items)
        # zarr's replace_ellipsis compares arrays with the ellipsis (`tuple.index`, `!=`), which fails
        ellipsis = any(i is Ellipsis for i in items)
        if not negative and not ellipsis and 0 not in shape:  # zarr's BoolArrayDimIndexer fails on length 0
            z = zarr.array(a, chunks=chunks)
            try:
                zread = z.oindex[tuple(items)]
            except Exception as e:
                print("zarr refuses", shape, chunks, items, repr(e), file=sys.stderr)
                raise
            assert np.array_equal(zread, read), (shape, chunks, items)
            repeats = any(isinstance(s, np.ndarray) and s.dtype != bool and has_repeats(s % max(n, 1))
                          for s, n in zip(expand(items, shape), shape))
            if list(vshape) == list(read.shape) and not repeats:
                z.oindex[tuple(items)] = values_of(vshape)
                assert np.array_equal(z[...], b), (shape, chunks, items)
            checked += 1
        cases.append({"kind": "orthogonal", "shape": shape, "chunks": chunks, "sel": enc_sel(items),
                      "outShape": list(read.shape), "read": read.ravel().tolist(), "write": write_record(a, b, vshape)})
    print("orthogonal: %d of %d cases checked against zarr's oindex" % (checked, count), file=sys.stderr)
    return cases


def coordinate_cases(rng, zarr, count):
    cases = []
    while len(cases) < count:
        shape, chunks = random_shape(rng)
        if 0 in shape:
            continue
        rank = rng.choice([0, 1, 1, 1, 2, 2, 3])
        bshape = [rng.randint(0, 4) if rng.random() < 0.1 else rng.randint(1, 4) for _ in range(rank)]
        items = []
        for n in shape:
            if rng.random() < 0.2:
                items.append(rng.randint(-n, n - 1))
                continue
            own = [1 if rng.random() < 0.3 else m for m in bshape]
            own = own[rng.randint(0, len(own)):] if own and rng.random() < 0.3 else own
            values = np.array([rng.randint(-n, n - 1) for _ in range(int(np.prod(own)))], dtype=np.int64)
            items.append(values.reshape(own))
        a = np.arange(int(np.prod(shape))).reshape(shape)
        as_arrays = [np.array([s]) if isinstance(s, int) else s for s in items]
        if all(x.ndim == 0 or x.shape == (1,) for x in as_arrays):
            as_arrays = [np.atleast_1d(x) for x in as_arrays]
        read = a[tuple(as_arrays)]
        z = zarr.array(a, chunks=chunks)
        zread = z.vindex[tuple(np.copy(s) if isinstance(s, np.ndarray) else s for s in items)]
        assert np.array_equal(zread, read) and zread.shape == read.shape, (shape, chunks, items, zread.shape, read.shape)
        vshape = random_value_shape(rng, read.shape)
        b = a.copy()
        b[tuple(as_arrays)] = values_of(vshape)
        points = np.stack([np.broadcast_to(x % n, read.shape).ravel() for x, n in zip(as_arrays, shape)]) if read.size else None
        repeats = points is not None and len({tuple(p) for p in points.T}) != points.shape[1]
        if list(vshape) == list(read.shape) and not repeats:
            z.vindex[tuple(np.copy(s) if isinstance(s, np.ndarray) else s for s in items)] = values_of(vshape)
            assert np.array_equal(z[...], b), (shape, chunks, items)
        cases.append({"kind": "coordinate", "shape": shape, "chunks": chunks, "sel": enc_sel(items),
                      "outShape": list(read.shape), "read": read.ravel().tolist(), "write": write_record(a, b, vshape),
                      "repeats": bool(repeats)})
    return cases


def mask_cases(rng, zarr, count):
    cases = []
    while len(cases) < count:
        shape, chunks = random_shape(rng)
        mask = random_mask(rng, shape)
        a = np.arange(int(np.prod(shape))).reshape(shape)
        read = a[mask]
        z = zarr.array(a, chunks=chunks)
        assert np.array_equal(z.vindex[mask], read)
        vshape = random_value_shape(rng, read.shape)
        b = a.copy()
        b[mask] = values_of(vshape)
        if list(vshape) == list(read.shape):
            z.vindex[mask] = values_of(vshape)
            assert np.array_equal(z[...], b)
        cases.append({"kind": "mask", "shape": shape, "chunks": chunks, "sel": enc_sel([mask]),
                      "outShape": list(read.shape), "read": read.ravel().tolist(), "write": write_record(a, b, vshape)})
    return cases


def error_cases(zarr):
    """Selections zarr-python refuses (or numpy, for negative steps zarr refuses anyway)."""
    from zarr.errors import BoundsCheckError

    i = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731
    cases = [
        # orthogonal
        ("orthogonal", [5, 6], [2, 4], [i(0, 5)], "bounds"),
        ("orthogonal", [5, 6], [2, 4], [i(-6, 0)], "bounds"),
        ("orthogonal", [5, 6], [2, 4], [slice(None), i(1, 6, 2)], "bounds"),
        ("orthogonal", [5, 6], [2, 4], [5, i(1)], "bounds"),
        ("orthogonal", [5, 6], [2, 4], [np.array([True, False, True])], "selection"),
        ("orthogonal", [5, 6], [2, 4], [slice(None), np.ones(7, dtype=bool)], "selection"),
        ("orthogonal", [5, 6], [2, 4], [np.zeros((2, 2), dtype=np.int64)], "selection"),
        ("orthogonal", [5, 6], [2, 4], [np.ones((5, 6), dtype=bool)], "selection"),
        ("orthogonal", [5, 6], [2, 4], [np.array([0.0, 1.0])], "selection"),
        ("orthogonal", [5, 6], [2, 4], [i(0), i(0), i(0)], "selection"),
        ("orthogonal", [5, 6], [2, 4], [Ellipsis, i(0), Ellipsis], "selection"),
        ("orthogonal", [5], [2], [slice(0, 4, 0)], "selection"),
        # coordinate
        ("coordinate", [5, 6], [2, 4], [i(0, 5), i(0, 1)], "bounds"),
        ("coordinate", [5, 6], [2, 4], [i(0, 1), i(-7, 1)], "bounds"),
        ("coordinate", [5, 6], [2, 4], [i(0, 1, 2), i(0, 1)], "selection"),
        ("coordinate", [5, 6], [2, 4], [i(0, 1, 2).reshape(3, 1), np.zeros((2, 2), dtype=np.int64)], "selection"),
        ("coordinate", [5, 6], [2, 4], [i(0, 1)], "selection"),
        ("coordinate", [5, 6], [2, 4], [i(0, 1), i(0, 1), i(0, 1)], "selection"),
        ("coordinate", [5, 6], [2, 4], [i(0, 1), slice(None)], "selection"),
        ("coordinate", [5, 6], [2, 4], [i(0, 1), np.array([0.0, 1.0])], "selection"),
        ("coordinate", [5, 6], [2, 4], [i(0, 1), np.array([True, False])], "selection"),
        ("coordinate", [5, 6], [2, 4], [9, i(0, 1)], "bounds"),
        # mask
        ("mask", [5, 6], [2, 4], [np.ones((5, 5), dtype=bool)], "selection"),
        ("mask", [5, 6], [2, 4], [np.ones((5,), dtype=bool)], "selection"),
        ("mask", [5, 6], [2, 4], [np.ones((5, 6, 1), dtype=bool)], "selection"),
        ("mask", [5, 6], [2, 4], [np.ones((5, 6), dtype=bool), np.ones((5, 6), dtype=bool)], "selection"),
        ("mask", [5, 6], [2, 4], [np.ones((5, 6), dtype=np.int64)], "selection"),
    ]
    out = []
    for kind, shape, chunks, items, expected in cases:
        z = zarr.array(np.arange(int(np.prod(shape))).reshape(shape), chunks=chunks)
        sel = tuple(np.copy(s) if isinstance(s, np.ndarray) else s for s in items)
        try:
            if kind == "orthogonal":
                z.get_orthogonal_selection(sel)
            elif kind == "coordinate":
                z.get_coordinate_selection(sel)
            else:
                z.get_mask_selection(sel)
        except BoundsCheckError:
            got = "bounds"
        except (IndexError, ValueError, TypeError):
            got = "selection"
        else:
            got = None
        assert got == expected, (kind, shape, items, got, expected)
        out.append({"kind": kind, "shape": shape, "chunks": chunks, "sel": enc_sel(items), "error": expected})
    return out


# --- zarr 2.14+ parts (blocks and dispatch), possibly in a child process ----------------------------


def block_part(rng_seed):
    import zarr
    from zarr.errors import BoundsCheckError
    from zarr.indexing import is_pure_fancy_indexing, is_pure_orthogonal_indexing, is_coordinate_selection, is_mask_selection, pop_fields, ensure_tuple, replace_lists

    rng = random.Random(rng_seed)
    cases = []
    errors = []
    while len(cases) < 60:
        shape, chunks = random_shape(rng)
        nblocks = [-(-n // c) for n, c in zip(shape, chunks)]
        items = []
        for nb in nblocks:
            r = rng.random()
            if r < 0.4:
                items.append(rng.randint(-nb, nb - 1) if rng.random() < 0.92 and nb > 0 else rng.choice([-nb - 1, nb]))
            else:
                def bound():
                    return None if rng.random() < 0.3 else rng.randint(-nb - 1, nb + 1) if rng.random() < 0.2 or nb == 0 else rng.randint(-nb, nb - 1)
                start, stop = bound(), bound()
                if rng.random() < 0.75 and nb > 0:
                    lo, hi = sorted([rng.randint(0, nb - 1), rng.randint(0, nb - 1)])
                    start = lo - nb if rng.random() < 0.3 else None if lo == 0 and rng.random() < 0.3 else lo
                    stop = hi + 1 - nb if rng.random() < 0.3 and hi + 1 < nb else None if hi == nb - 1 and rng.random() < 0.3 else hi + 1
                items.append(slice(start, stop, rng.choice([None, 1])))
        if rng.random() < 0.1:
            items = items[:-1] + [Ellipsis] if len(items) > 1 else items
        a = np.arange(int(np.prod(shape))).reshape(shape)
        z = zarr.array(a, chunks=chunks)
        try:
            read = z.get_block_selection(tuple(items))
        except BoundsCheckError:
            if len(errors) < 16:
                errors.append({"kind": "block", "shape": shape, "chunks": chunks, "sel": enc_sel(items), "error": "bounds"})
            continue
        values = values_of(read.shape)
        z.set_block_selection(tuple(items), values)
        b = z[...]
        cases.append({"kind": "block", "shape": shape, "chunks": chunks, "sel": enc_sel(items),
                      "outShape": list(read.shape), "read": read.ravel().tolist(), "write": write_record(a, b, read.shape)})
    for shape, chunks, items in [([5, 6], [2, 4], [slice(0, 2, 2)]), ([5], [2], [slice(None, None, -1)]), ([5], [2], [0.5])]:
        z = zarr.array(np.zeros(shape), chunks=chunks)
        try:
            z.get_block_selection(tuple(items))
        except BoundsCheckError:
            raise AssertionError("expected a selection error")
        except (IndexError, ValueError, TypeError):
            errors.append({"kind": "block", "shape": shape, "chunks": chunks, "sel": enc_sel(items), "error": "selection"})
        else:
            raise AssertionError("expected an error")

    class Arr:
        def __init__(self, shape):
            self._shape = tuple(shape)
            self.ndim = len(shape)

    i = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731
    b = lambda *v: np.array(v, dtype=bool)  # noqa: E731
    dispatch_selections = [
        ([4], [[0, 2]]), ([4], [i(0, 2)]), ([4], [[True, False, True, True]]), ([4], [[True, False]]),
        ([4], [b(True, False, True, True)]), ([4], [1]), ([4], [slice(1, 3)]), ([4], [Ellipsis]), ([4], []),
        ([4], [[0, 2], [1]]), ([4], [i(1, 2).reshape(2, 1)]),
        ([4, 5], [[0, 2]]), ([4, 5], [i(0, 2)]), ([4, 5], [i(0, 2).reshape(1, 2)]), ([4, 5], [[0, 2], [1, 3]]),
        ([4, 5], [i(0, 2), i(1, 3)]), ([4, 5], [1, [1, 3]]), ([4, 5], [[1], 3]), ([4, 5], [1, 3]),
        ([4, 5], [slice(None), [1, 3]]), ([4, 5], [[1, 3], slice(1, 4)]), ([4, 5], [i(1, 3), slice(None)]),
        ([4, 5], [[1, 3], [0, 1], slice(None)]), ([4, 5], [Ellipsis, [1, 3]]), ([4, 5], [1, slice(None)]),
        ([4, 5], [slice(None), slice(None)]), ([4, 5], [[[0, 1], [1, 2]], [[0, 0], [1, 1]]]),
        ([4, 5], [np.ones((4, 5), dtype=bool)]), ([4, 5], [[True, False, True, True], [0, 1]]),
        ([4, 5], [[True, False, True, True]]), ([4, 5], ["f", [0, 2], [1, 3]]), ([4, 5], ["f", [0, 2]]),
        ([4, 5, 3], [[0, 1], 1, slice(None)]), ([4, 5, 3], [[0, 1], [1, 2], slice(None)]),
        ([4, 5, 3], [[0, 1], [1, 2], [0, 0]]), ([4, 5, 3], [0, 1, [0, 2]]), ([4, 5, 3], [0, 1, 2]),
        ([4, 5, 3], [i(0, 1), 1, 2]), ([4, 5, 3], [slice(None), 1, i(0, 2)]),
    ]
    dispatch = []
    for shape, items in dispatch_selections:
        sel = items[0] if len(items) == 1 and not isinstance(items[0], str) else tuple(items)
        fields, pure = pop_fields(sel)
        ndim = len(shape)
        if is_pure_fancy_indexing(pure, ndim):
            vsel = replace_lists(ensure_tuple(pop_fields(sel)[1]))
            arr = Arr(shape)
            if is_coordinate_selection(vsel, arr):
                kind = "coordinate"
            elif is_mask_selection(vsel, arr):
                kind = "mask"
            else:
                kind = "error"
        elif is_pure_orthogonal_indexing(pure, ndim):
            kind = "orthogonal"
        else:
            kind = "basic"
        dispatch.append({"shape": shape, "sel": [i if isinstance(i, str) and i != "..." else enc(i) for i in items], "kind": kind})
    return {"zarr": zarr.__version__, "cases": cases, "errors": errors, "dispatch": dispatch}


def zarr_2_14_part(seed):
    import zarr

    if hasattr(zarr.Array, "get_block_selection"):
        return block_part(seed)
    path = os.environ.get("ZARR_2_18")
    if not path:
        sys.exit("block selections need zarr-python 2.14+: set ZARR_2_18 (see this script's docstring)")
    env = dict(os.environ, PYTHONPATH=path + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.run([sys.executable, __file__, "--zarr-2.14-part", str(seed)], env=env, check=True,
                           stdout=subprocess.PIPE, text=True)
    return json.loads(child.stdout)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--zarr-2.14-part":
        json.dump(block_part(int(sys.argv[2])), sys.stdout)
        return
    import zarr

    rng = random.Random(SEED)
    cases = []
    cases += basic_cases(rng, 80)
    cases += orthogonal_cases(rng, zarr, 200)
    cases += coordinate_cases(rng, zarr, 120)
    cases += mask_cases(rng, zarr, 60)
    blocks = zarr_2_14_part(SEED + 1)
    cases += blocks["cases"]
    fixture = {
        "generator": "test/python/fancy_cases.py",
        "numpy": np.__version__,
        "zarr": zarr.__version__,
        "zarrBlocks": blocks["zarr"],
        "cases": cases,
        "errors": error_cases(zarr) + blocks["errors"],
        "dispatch": blocks["dispatch"],
    }
    text = json.dumps(fixture, separators=(",", ":"))
    # one case per line, so that diffs stay readable
    text = text.replace(',{"kind"', ',\n{"kind"').replace(',{"shape"', ',\n{"shape"')
    print(text)


if __name__ == "__main__":
    main()
