"""The live check of @z/xarray's toZarr: xarray reads every store the TypeScript wrote.

    /usr/bin/python3 xarray_read.py OUT_DIR

For each `OUT_DIR/NAME.zarr` (with its open options in `OUT_DIR/NAME.open.json`) it writes
`OUT_DIR/NAME.read.json`: what `xr.open_zarr` gives, in the format of xarray_json.py, which
live-check.test.ts compares with the dataset that was written. A store xarray cannot open is
recorded with its error, and fails the check there.
"""
import json
import os
import sys
import traceback
import warnings

import xarray as xr

from xarray_json import dataset_json

warnings.simplefilter("ignore")
out = sys.argv[1]
names = sorted(n[: -len(".zarr")] for n in os.listdir(out) if n.endswith(".zarr"))
for name in names:
    with open(os.path.join(out, name + ".open.json")) as f:
        options = json.load(f)
    try:
        ds = xr.open_zarr(os.path.join(out, name + ".zarr"), **options)
        doc = {"dataset": dataset_json(ds)}
    except Exception as e:  # noqa: BLE001 (reported to the check, which fails on it)
        doc = {"error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()}
    with open(os.path.join(out, name + ".read.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True, allow_nan=False)
print(f"xarray read {len(names)} stores in {out}")
