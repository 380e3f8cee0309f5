"""Runs one bench case with TensorStore (its zarr2 driver, zarr3 for the sharded v3 cases, with its
defaults), as a user would: open the array by spec, read or write it. Runs in the venv
python/ensure-tensorstore.sh makes.

usage: tensorstore_runner.py --case R1 --data DIR [--out DIR] [--url URL] [--repeat N]
       tensorstore_runner.py --verify DIR   (prints the checksum and codecs of the zarr3 array in DIR,
                                             for W3: zarr-python 2.13 cannot read v3)

Prints one JSON line, the same fields as the other runners (runners/common.py). Not named
tensorstore.py: this directory is first on sys.path, and the runner would import itself.
"""
import json
import os
import sys

import numpy as np
import tensorstore as ts

from common import (CASES, V3_CASES, WRITE_COMPRESSORS, Timer, Unsupported, checksum, run_main, s3_args,
                    sharded_metadata)

# Set per run from the case: zarr3 for the v3 (sharded) cases.
driver = "zarr2"


def open_array(kvstore, **options):
    """A new TensorStore for each operation, as each operation of the other runners opens the array:
    a fresh default context, so nothing is cached between operations."""
    return ts.open({"driver": driver, "kvstore": kvstore}, **options).result()


def file_kvstore(path):
    return {"driver": "file", "path": path.rstrip("/") + "/"}


def full_read(kvstore):
    with Timer() as t:
        data = open_array(kvstore, read=True).read().result()
    return t.result(checksum=checksum([data]))


def run(args):
    global driver
    kind, array = CASES[args["case"]]
    driver = "zarr3" if args["case"] in V3_CASES else "zarr2"
    data_dir = args["data"]
    if kind == "references":
        raise Unsupported("TensorStore reads no kerchunk reference sets (no such kvstore or driver in 0.1.85)")
    if kind == "read":
        return full_read(file_kvstore(os.path.join(data_dir, array)))
    if kind == "http":
        return full_read({"driver": "http", "base_url": f"{args['url']}/{array}/"})
    if kind == "s3":
        # Its http kvstore over the bucket's path-style URLs, reading anonymously (a public bucket).
        endpoint, bucket, prefix = s3_args(args)
        return full_read({"driver": "http", "base_url": f"{endpoint}/{bucket}/{prefix}/"})
    if kind == "s3-write":
        raise Unsupported("TensorStore's http kvstore cannot write (its s3 kvstore is not measured here)")
    if kind == "windows":
        with open(os.path.join(data_dir, "windows.json")) as f:
            spec = json.load(f)
        size, windows = spec["size"], spec["windows"]
        with Timer() as t:
            z = open_array(file_kvstore(os.path.join(data_dir, array)), read=True)
            parts = [z[r:r + size, c:c + size].read().result() for r, c in windows]
        return t.result(checksum=checksum(parts), windows=len(windows))
    if kind == "write":
        source = np.fromfile(os.path.join(data_dir, "r1.f32"), dtype="<f4")
        n = int(round(len(source) ** 0.5))
        source = source.reshape(n, n)
        if driver == "zarr3":
            metadata = sharded_metadata(n)
        else:
            metadata = {"shape": [n, n], "chunks": [1024, 1024], "dtype": "<f4", "fill_value": 0, "order": "C",
                        "filters": None, "compressor": WRITE_COMPRESSORS[args["case"]]}
        with Timer() as t:
            z = ts.open({"driver": driver, "kvstore": file_kvstore(args["out"]), "metadata": metadata},
                        create=True, delete_existing=True).result()
            z.write(source).result()
        return t.result(checksum=checksum([source]))
    raise ValueError(f"no such case kind {kind}")


def verify(path):
    """The checksum of the zarr3 array at `path` and its codecs, read back with TensorStore."""
    z = ts.open({"driver": "zarr3", "kvstore": file_kvstore(path)}, read=True).result()
    with open(os.path.join(path, "zarr.json")) as f:
        codecs = json.load(f)["codecs"]
    print(json.dumps({"checksum": checksum([z.read().result()]), "compressor": codecs}))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--verify"]:
        sys.exit(verify(sys.argv[2]))
    sys.exit(run_main("tensorstore", run, sys.argv[1:]))
