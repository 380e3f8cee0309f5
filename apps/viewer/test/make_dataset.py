"""Writes the viewer test's datasets into the directory given as the first argument, with
zarr-python, and prints what the test should expect as JSON.

- example.zarr: a group with consolidated metadata (.zmetadata) holding
  volume (3-D float32, blosc lz4 + shuffle, value k*1000 + y*W + x, NaN at [k, 3, 5]) and
  labels/mask (2-D uint8, zlib);
- plain.zarr: a group without .zmetadata holding img (2-D float64, no compressor);
- bad.zarr: an array whose compressor id no codec has.
"""
import json
import os
import sys

import numcodecs
import numpy as np
import zarr

out = sys.argv[1]
depth, height, width = 3, 24, 32
nan_at = (3, 5)

volume = (np.arange(depth)[:, None, None] * 1000 + np.arange(height * width).reshape(height, width)[None]).astype("f4")
volume[:, nan_at[0], nan_at[1]] = np.nan

root = zarr.open_group(os.path.join(out, "example.zarr"), mode="w")
root.attrs["title"] = "viewer test data"
root.create_dataset(
    "volume", data=volume, chunks=(1, 12, 16),
    compressor=numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE),
)
root.create_group("labels").create_dataset(
    "mask", data=(np.arange(height * width).reshape(height, width) % 3).astype("u1"), chunks=(12, 16),
    compressor=numcodecs.Zlib(level=1),
)
zarr.consolidate_metadata(root.store)

plain = zarr.open_group(os.path.join(out, "plain.zarr"), mode="w")
plain.create_dataset("img", data=np.linspace(0, 1, 100).reshape(10, 10), chunks=(5, 5), compressor=None)

bad = zarr.open_array(os.path.join(out, "bad.zarr"), mode="w", shape=(4, 4), chunks=(2, 2), dtype="f4", compressor=numcodecs.Zlib())
bad[:] = 1
meta_path = os.path.join(out, "bad.zarr", ".zarray")
with open(meta_path) as f:
    meta = json.load(f)
meta["compressor"] = {"id": "no-such-codec"}
with open(meta_path, "w") as f:
    json.dump(meta, f)

slices = []
for k in range(depth):
    finite = volume[k][np.isfinite(volume[k])].astype("f8")
    slices.append({"p2": float(np.percentile(finite, 2)), "p98": float(np.percentile(finite, 98))})
json.dump({"shape": [depth, height, width], "nanAt": list(nan_at), "slices": slices, "zarr": zarr.__version__}, sys.stdout)
