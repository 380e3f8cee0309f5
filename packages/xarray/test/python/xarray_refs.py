"""What xarray reads from kerchunk-style reference sets, as xarray's users open them.

    python xarray_refs.py DIR

DIR holds what packages/store-reference/test/python/make_refs.py made (a NetCDF4 file and its
references as JSON v0, v1 and Parquet). Each form is opened through fsspec's ReferenceFileSystem,
its mapper given to `xr.open_zarr` with `consolidated=False` (as kerchunk's documentation opens
them: a Parquet set's `.zmetadata` is fsspec's own, not Zarr's), and the root dataset written to
DIR/xarray.json as {form: dataset} in the format of xarray_json.py. Runs in the venv of
scripts/ensure-python-refs.sh (made with --system-site-packages, so Debian's xarray is there).
"""
import json
import os
import sys
import warnings

import xarray as xr
from fsspec.implementations.reference import ReferenceFileSystem

from xarray_json import dataset_json

warnings.simplefilter("ignore")
os.chdir(sys.argv[1])  # the targets are relative ("data.nc"): fsspec resolves them here
forms = {
    "v0": ReferenceFileSystem("refs-v0.json"),
    "v1": ReferenceFileSystem("refs-v1.json", simple_templates=False),
    "parquet": ReferenceFileSystem("refs.parq", remote_protocol="file"),
    "parquet-gzip": ReferenceFileSystem("refs-gzip.parq", remote_protocol="file"),
}
read = {name: dataset_json(xr.open_zarr(fs.get_mapper(""), consolidated=False)) for name, fs in forms.items()}
with open("xarray.json", "w") as f:
    json.dump(read, f, indent=1, sort_keys=True, allow_nan=False)
print(f"xarray read {len(read)} reference sets in {sys.argv[1]}")
