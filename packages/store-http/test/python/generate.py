"""Writes test/fixtures/group.zarr, the zarr-python 2.13 group @z/store-http's tests serve.

    /usr/bin/python3 packages/store-http/test/python/generate.py

A group with attributes, a subgroup holding a (4, 6) int32 array with "/" chunk keys and no
compressor, and a (5,) float64 array compressed with zlib, one of whose chunks is never written
(so its key is missing, as zarr leaves chunks equal to the fill value).
"""
import os
import shutil

import numpy as np
import zarr
from numcodecs import Zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures", "group.zarr")

shutil.rmtree(OUT, ignore_errors=True)
store = zarr.DirectoryStore(OUT)
root = zarr.group(store=store)
root.attrs["title"] = "served over http"
foo = root.create_group("foo")
bar = foo.create_dataset("bar", shape=(4, 6), chunks=(2, 3), dtype="<i4", compressor=None, dimension_separator="/")
bar[...] = np.arange(24, dtype="<i4").reshape(4, 6)
baz = root.create_dataset("baz", shape=(5,), chunks=(2,), dtype="<f8", compressor=Zlib(level=1), fill_value=0.0)
baz[0:4] = [0.5, 1.5, 2.5, 3.5]  # chunk 2 (element 4) stays missing
