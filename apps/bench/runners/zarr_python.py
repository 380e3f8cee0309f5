"""Runs one bench case with zarr-python (and numcodecs), as a user would: open the array, read or write it.

usage: zarr_python.py --case R1 --data DIR [--out DIR] [--url URL] [--repeat N]
       zarr_python.py --verify DIR     (prints the checksum of the array in DIR, for the write cases)

Prints one JSON line, the same fields as the Node runners; the checksum is the same definition:
SHA-256 (hex) of the elements as little-endian bytes in C order, R6's windows concatenated in order.
"""
import json
import os
import sys

import numpy as np
import zarr
from numcodecs import get_codec

from common import CASES, WRITE_COMPRESSORS, Timer, Unsupported, checksum, run_main

def full_read(store):
    with Timer() as t:
        z = zarr.open_array(store, mode="r")
        data = z[...]
    return t.result(checksum=checksum([data]))


def http_store(url):
    try:
        import fsspec  # noqa: F401
        import aiohttp  # noqa: F401
    except ImportError as e:
        raise Unsupported(f"zarr-python reads HTTP through fsspec, which needs aiohttp: {e} "
                          "(Debian: apt-get install python3-aiohttp)")
    return zarr.storage.FSStore(url, mode="r")


def run(args):
    kind, array = CASES[args["case"]]
    data_dir = args["data"]
    if kind == "read":
        return full_read(zarr.DirectoryStore(os.path.join(data_dir, array)))
    if kind == "http":
        return full_read(http_store(f"{args['url']}/{array}"))
    if kind == "windows":
        with open(os.path.join(data_dir, "windows.json")) as f:
            spec = json.load(f)
        size, windows = spec["size"], spec["windows"]
        with Timer() as t:
            z = zarr.open_array(zarr.DirectoryStore(os.path.join(data_dir, array)), mode="r")
            parts = [z[r:r + size, c:c + size] for r, c in windows]
        return t.result(checksum=checksum(parts), windows=len(windows))
    if kind == "write":
        source = np.fromfile(os.path.join(data_dir, "r1.f32"), dtype="<f4")
        n = int(round(len(source) ** 0.5))
        source = source.reshape(n, n)
        compressor = get_codec(dict(WRITE_COMPRESSORS[args["case"]]))
        with Timer() as t:
            z = zarr.open_array(zarr.DirectoryStore(args["out"]), mode="w", shape=(n, n), chunks=(1024, 1024),
                                dtype="<f4", compressor=compressor, fill_value=0)
            z[...] = source
        return t.result(checksum=checksum([source]))
    raise ValueError(f"no such case kind {kind}")


def main(argv):
    if argv[:1] == ["--verify"]:
        z = zarr.open_array(zarr.DirectoryStore(argv[1]), mode="r")
        print(json.dumps({"checksum": checksum([z[...]]), "compressor": z.compressor.get_config() if z.compressor else None}))
        return 0
    return run_main("zarr-python", run, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
