"""Writes the viewer test's datasets into the directory given as the first argument, with
zarr-python, and prints what the test should expect as JSON.

- example.zarr: a group with consolidated metadata (.zmetadata) holding
  volume (3-D float32, blosc lz4 + shuffle, value k*1000 + y*W + x, NaN at [k, 3, 5]) and
  labels/mask (2-D uint8, zlib);
- plain.zarr: a group without .zmetadata holding img (2-D float64, no compressor);
- bad.zarr: an array whose compressor id no codec has;
- climate.zarr (consolidated) and climate-plain.zarr (not), written by xarray when it is installed:
  t2m (time x lat x lon, float32 packed as int16 with scale_factor/add_offset and a _FillValue,
  one value missing) with long_name and units, over daily times, decreasing latitudes and
  longitudes with units; the test expects xarray's decoded values of its first two slices.
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

climate = None
try:
    import pandas as pd
    import xarray as xr
except ImportError:
    xr = None
if xr is not None:
    nt, ny, nx = 4, 6, 8
    lat = np.linspace(75, -75, ny)
    lon = np.arange(nx) * 45.0
    t2m = (250 + np.arange(nt)[:, None, None] * 5 + np.cos(np.deg2rad(lat))[None, :, None] * 30
           + np.arange(nx)[None, None, :] * 0.5).astype("f4")
    t2m[0, 2, 3] = np.nan
    ds = xr.Dataset(
        {"t2m": (("time", "lat", "lon"), t2m, {"long_name": "2 metre temperature", "units": "K"})},
        coords={"time": pd.date_range("2000-01-01", periods=nt), "lat": ("lat", lat, {"units": "degrees_north"}),
                "lon": ("lon", lon, {"units": "degrees_east"})})
    ds.t2m.encoding = {"dtype": "int16", "scale_factor": 0.01, "add_offset": 270.0, "_FillValue": -32767,
                       "chunks": (1, 3, 4)}
    ds.to_zarr(os.path.join(out, "climate.zarr"), mode="w")
    ds.to_zarr(os.path.join(out, "climate-plain.zarr"), mode="w", consolidated=False)
    decoded = xr.open_zarr(os.path.join(out, "climate.zarr")).t2m.values
    climate = {
        "shape": [nt, ny, nx],
        # NaN as null (JSON has no NaN).
        "slices": [[[None if np.isnan(v) else float(v) for v in row] for row in decoded[k].astype("f8")] for k in range(2)],
        "percentiles": [[float(np.percentile(decoded[k][np.isfinite(decoded[k])].astype("f8"), q)) for q in (2, 98)]
                        for k in range(2)],
        "nanAt": [2, 3],
    }

slices = []
for k in range(depth):
    finite = volume[k][np.isfinite(volume[k])].astype("f8")
    slices.append({"p2": float(np.percentile(finite, 2)), "p98": float(np.percentile(finite, 98))})
json.dump({"shape": [depth, height, width], "nanAt": list(nan_at), "slices": slices, "zarr": zarr.__version__,
           "climate": climate}, sys.stdout, allow_nan=False)
