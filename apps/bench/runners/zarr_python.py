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

from common import (CASES, REFERENCE_VARIABLE, V3_CASES, WRITE_COMPRESSORS, Timer, Unsupported, checksum, run_main,
                    s3_args)

# The S3 cases read and write through a MutableMapping over boto3 (the tests' second S3 client):
# zarr-python 2.13 takes one as a store; there is no s3fs in Debian 12.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "test-s3"))

def full_read(store):
    with Timer() as t:
        z = zarr.open_array(store, mode="r")
        data = z[...]
    return t.result(checksum=checksum([data]))


def reference_read(url):
    """H3, as fsspec's users read a reference set: ReferenceFileSystem over the reference file's
    URL, its targets over HTTP (`remote_protocol`), its mapper given to zarr-python 2.13. fsspec
    keeps filesystem instances (and so the loaded references) across calls with the same
    arguments, as it does for its users: warm operations do not read refs.json again."""
    try:
        import aiohttp  # noqa: F401
        import fsspec
        from fsspec.implementations.reference import ReferenceFileSystem  # noqa: F401
    except ImportError as e:
        raise Unsupported(f"reference sets need fsspec >= 2024 with aiohttp (scripts/ensure-python-refs.sh): {e}")
    with Timer() as t:
        fs = fsspec.filesystem("reference", fo=url, remote_protocol="http")
        data = zarr.open_array(fs.get_mapper(""), path=REFERENCE_VARIABLE, mode="r")[...]
    return t.result(checksum=checksum([data]))


def http_store(url):
    try:
        import fsspec  # noqa: F401
        import aiohttp  # noqa: F401
    except ImportError as e:
        raise Unsupported(f"zarr-python reads HTTP through fsspec, which needs aiohttp: {e} "
                          "(Debian: apt-get install python3-aiohttp)")
    return zarr.storage.FSStore(url, mode="r")


def s3_store(endpoint, bucket, prefix):
    try:
        from s3map import S3Map
    except ImportError as e:
        raise Unsupported(f"zarr-python reads S3 here through boto3: {e} (Debian: apt-get install python3-boto3)")
    return S3Map(endpoint, bucket, prefix)


def write_r1(data_dir, case, store):
    source = np.fromfile(os.path.join(data_dir, "r1.f32"), dtype="<f4")
    n = int(round(len(source) ** 0.5))
    source = source.reshape(n, n)
    compressor = get_codec(dict(WRITE_COMPRESSORS[case]))
    with Timer() as t:
        z = zarr.open_array(store(), mode="w", shape=(n, n), chunks=(1024, 1024),
                            dtype="<f4", compressor=compressor, fill_value=0)
        z[...] = source
    return t.result(checksum=checksum([source]))


def run(args):
    kind, array = CASES[args["case"]]
    if args["case"] in V3_CASES:
        raise Unsupported(f"zarr-python {zarr.__version__} reads and writes Zarr v2 only (sharding is Zarr v3's)")
    data_dir = args["data"]
    if kind == "s3":
        return full_read(s3_store(*s3_args(args)))
    if kind == "s3-write":
        return write_r1(data_dir, args["case"], lambda: s3_store(*s3_args(args)))
    if kind == "read":
        return full_read(zarr.DirectoryStore(os.path.join(data_dir, array)))
    if kind == "http":
        return full_read(http_store(f"{args['url']}/{array}"))
    if kind == "references":
        return reference_read(f"{args['url']}/{array}/refs.json")
    if kind == "windows":
        with open(os.path.join(data_dir, "windows.json")) as f:
            spec = json.load(f)
        size, windows = spec["size"], spec["windows"]
        with Timer() as t:
            z = zarr.open_array(zarr.DirectoryStore(os.path.join(data_dir, array)), mode="r")
            parts = [z[r:r + size, c:c + size] for r, c in windows]
        return t.result(checksum=checksum(parts), windows=len(windows))
    if kind == "write":
        return write_r1(data_dir, args["case"], lambda: zarr.DirectoryStore(args["out"]))
    raise ValueError(f"no such case kind {kind}")


def main(argv):
    if argv[:1] in (["--verify"], ["--verify-s3"]):
        # --verify DIR, or --verify-s3 ENDPOINT BUCKET PREFIX
        store = zarr.DirectoryStore(argv[1]) if argv[0] == "--verify" else s3_store(*argv[1:4])
        z = zarr.open_array(store, mode="r")
        print(json.dumps({"checksum": checksum([z[...]]), "compressor": z.compressor.get_config() if z.compressor else None}))
        return 0
    return run_main("zarr-python", run, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
