"""The reference-set case's data (H3): a NetCDF4 file and its kerchunk-style references.

    python generate_refs.py DIR N

Runs in the venv of scripts/ensure-python-refs.sh (netCDF4, h5py, numpy). Writes into DIR/refs/:
- data.nc: `t2m` and `u10`, float32 (time 24, lat N/8, lon N/8) in chunks of (1, N/16, N/16),
  zlib level 1 + shuffle, with lat/lon/time coordinates: a small ERA5-like file;
- refs.json: its references as kerchunk's HDF5 scanner makes them (h5py's chunk index, .zarray with
  filters [shuffle, zlib], `_ARRAY_DIMENSIONS`), version 1 with the file's URL as a template `u`
  (kerchunk's own way of keeping one long URL once), `http://BASE/refs/data.nc`: the bench sets
  BASE to its file server's address before the runs (`setReferenceBase` in src/bench.mjs), so the
  references hold absolute URLs, as published reference sets do;
- expected.json: the checksum of t2m's elements (the runners' definition: SHA-256 of the
  little-endian bytes in C order), and the number of its chunks.
"""
import json
import os
import sys

import h5py
import netCDF4
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runners"))
from common import checksum  # noqa: E402

PLACEHOLDER = "http://BASE/refs/data.nc"
out = os.path.join(sys.argv[1], "refs")
n = int(sys.argv[2])
side, chunk, times = n // 8, n // 16, 24
os.makedirs(out, exist_ok=True)
path = os.path.join(out, "data.nc")

rng = np.random.default_rng(7)
lat = np.linspace(-90, 90, side, dtype="f4")
lon = np.linspace(0, 360, side, endpoint=False, dtype="f4")
with netCDF4.Dataset(path, "w", format="NETCDF4") as nc:
    nc.createDimension("time", times)
    nc.createDimension("lat", side)
    nc.createDimension("lon", side)
    t = nc.createVariable("time", "i4", ("time",))
    t.units = "hours since 2000-01-01"
    t[:] = np.arange(times)
    nc.createVariable("lat", "f4", ("lat",))[:] = lat
    nc.createVariable("lon", "f4", ("lon",))[:] = lon
    wave = np.cos(np.radians(lat))[:, None] * np.sin(np.radians(lon))[None, :]
    for name, scale in (("t2m", 30.0), ("u10", 10.0)):
        v = nc.createVariable(name, "f4", ("time", "lat", "lon"), zlib=True, complevel=1, shuffle=True,
                              chunksizes=(1, chunk, chunk))
        v.units = "K" if name == "t2m" else "m s-1"
        for i in range(times):
            v[i] = (scale * wave * np.cos(i / 4) + rng.normal(0, 0.5, (side, side))).astype("f4")

refs = {".zgroup": json.dumps({"zarr_format": 2}), ".zattrs": "{}"}
with h5py.File(path, "r") as f:
    for name, dset in f.items():
        if not isinstance(dset, h5py.Dataset):
            continue
        filters = []
        if dset.shuffle:
            filters.append({"id": "shuffle", "elementsize": dset.dtype.itemsize})
        if dset.compression == "gzip":
            filters.append({"id": "zlib", "level": dset.compression_opts})
        chunks = dset.chunks or dset.shape
        refs[f"{name}/.zarray"] = json.dumps({
            "zarr_format": 2, "shape": list(dset.shape), "chunks": list(chunks), "dtype": dset.dtype.str,
            "compressor": None, "filters": filters or None, "fill_value": None, "order": "C",
        })
        dims = [d[0].name[1:] if len(d) == 1 else name for d in dset.dims]
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in dset.attrs.items()
                 if k in ("units",)}
        refs[f"{name}/.zattrs"] = json.dumps({"_ARRAY_DIMENSIONS": dims, **attrs})
        dsid = dset.id
        if dset.chunks is None:
            refs[f"{name}/" + ".".join("0" * len(dset.shape))] = ["{{u}}", dsid.get_offset(), dsid.get_storage_size()]
            continue
        for i in range(dsid.get_num_chunks()):
            info = dsid.get_chunk_info(i)
            key = ".".join(str(o // c) for o, c in zip(info.chunk_offset, chunks))
            refs[f"{name}/{key}"] = ["{{u}}", info.byte_offset, info.size]
    t2m = f["t2m"][...]
    n_chunks = f["t2m"].id.get_num_chunks()

with open(os.path.join(out, "refs.json"), "w") as f:
    json.dump({"version": 1, "templates": {"u": PLACEHOLDER}, "refs": refs}, f)
with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump({"checksum": checksum([t2m]), "chunks": n_chunks, "bytes": os.path.getsize(path)}, f)
print(json.dumps({"chunks": n_chunks, "bytes": os.path.getsize(path)}))
