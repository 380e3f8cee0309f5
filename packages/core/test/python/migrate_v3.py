"""zarr-python 2.13's side of migrate-v3.test.ts.

  make DIR   writes a v2 hierarchy (the arrays of zarr-python 3's tests/test_cli/test_migrate_v3.py,
             and a few more) with zarr-python 2.13
  read DIR   prints, as JSON, every array's values (flat, C order), dtype and attributes and every
             group's attributes, read with zarr-python 2.13
"""

import json
import lzma
import sys

import numcodecs
import numpy as np
import zarr

ATTRS = {"baz": 42, "qux": [1, 4, 7, 12]}


def make(root):
    store = zarr.DirectoryStore(root)
    g = zarr.group(store=store, overwrite=True)
    g.attrs.update(ATTRS)
    # zarr-python 3's test_migrate_array
    a = g.create_dataset(
        "array_0",
        shape=(10, 10),
        chunks=(5, 5),
        dtype="uint16",
        compressor=numcodecs.Blosc(cname="zstd", clevel=3, shuffle=1),
        fill_value=2,
    )
    a.attrs.update(ATTRS)
    a[:] = np.arange(100, dtype="uint16").reshape(10, 10)
    g1 = g.create_group("group_1")
    g1.attrs.update(ATTRS)
    b = g1.create_dataset(
        "array_1",
        shape=(10, 10),
        chunks=(5, 5),
        dtype="uint16",
        compressor=numcodecs.Zstd(level=3),
        dimension_separator="/",
        fill_value=0,
    )
    b[:] = np.arange(100, dtype="uint16").reshape(10, 10) * 3
    g2 = g1.create_group("group_2")
    c = g2.create_dataset(
        "array_2",
        shape=(4, 6),
        chunks=(3, 4),
        dtype="<f8",
        compressor=numcodecs.GZip(level=3),
        order="F",
        fill_value=np.nan,
    )
    c[:3, :] = np.arange(18, dtype="<f8").reshape(3, 6) / 4
    # test_migrate_numcodecs_compressor
    lz = g.create_dataset(
        "lzma",
        shape=(10, 10),
        chunks=(10, 10),
        dtype="uint16",
        compressor=numcodecs.LZMA(
            format=lzma.FORMAT_RAW,
            check=-1,
            preset=None,
            filters=[{"id": lzma.FILTER_DELTA, "dist": 4}, {"id": lzma.FILTER_LZMA2, "preset": 1}],
        ),
        fill_value=0,
    )
    lz[:] = 1
    # test_migrate_filter
    d = g.create_dataset(
        "delta",
        shape=(10, 10),
        chunks=(10, 10),
        dtype="uint16",
        compressor=None,
        filters=[numcodecs.Delta(dtype="<u2", astype="<u2")],
        fill_value=0,
    )
    d[:] = np.arange(100, dtype="uint16").reshape(10, 10)
    # test_migrate_endian: one byte, then big-endian (zarr-python 3 gives bytes the dtype's order)
    u8 = g.create_dataset("uint8", shape=(10,), chunks=(4,), dtype="uint8", compressor=None, fill_value=0)
    u8[:] = np.arange(10, dtype="uint8")
    be = g.create_dataset(
        "big", shape=(5,), chunks=(2,), dtype=">i4", compressor=numcodecs.Zlib(level=1), fill_value=-1
    )
    be[:4] = [1, -2, 3, -400000]
    # a null fill value (zarr-python 3 reads missing chunks as the type's default)
    nf = g.create_dataset("nullfill", shape=(4,), chunks=(2,), dtype="<f4", compressor=None, fill_value=None)
    nf[:2] = [0.5, 1.5]


def read(root):
    g = zarr.open_group(zarr.DirectoryStore(root), mode="r")
    out = {"": {"attrs": dict(g.attrs)}}

    def visit(name, node):
        if isinstance(node, zarr.Array):
            values = node[...]
            out[name] = {
                "dtype": node.dtype.str,
                "attrs": dict(node.attrs),
                "values": [None if isinstance(v, float) and np.isnan(v) else v for v in values.ravel().tolist()],
            }
        else:
            out[name] = {"attrs": dict(node.attrs)}

    g.visititems(visit)
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    {"make": make, "read": read}[sys.argv[1]](sys.argv[2])
