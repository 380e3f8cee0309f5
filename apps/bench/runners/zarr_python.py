"""Runs one bench case with zarr-python (and numcodecs), as a user would: open the array, read or write it.

usage: zarr_python.py --case R1 --data DIR [--out DIR] [--url URL]
       zarr_python.py --verify DIR     (prints the checksum of the array in DIR, for the write cases)

Prints one JSON line, the same fields as the Node runners; the checksum is the same definition:
SHA-256 (hex) of the elements as little-endian bytes in C order, R6's windows concatenated in order.
"""
import hashlib
import json
import os
import resource
import sys
import time
import traceback

import numpy as np
import zarr
from numcodecs import get_codec

CASES = {
    "R1": ("read", "r1.zarr"), "R2": ("read", "r2.zarr"), "R3": ("read", "r3.zarr"),
    "R4": ("read", "r4.zarr"), "R5": ("read", "r5.zarr"), "R6": ("windows", "r1.zarr"),
    "R7": ("read", "r7.zarr"), "W1": ("write", None), "W2": ("write", None), "H1": ("http", "r1.zarr"),
}
# Must match src/cases.mjs.
WRITE_COMPRESSORS = {
    "W1": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
    "W2": {"id": "zlib", "level": 1},
}


class Unsupported(Exception):
    pass


def peak_rss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def huge_pages_bytes():
    """This process's memory in transparent huge pages now (AnonHugePages), or None where unknown:
    numpy asks for huge pages for large arrays, and an output in 2 MiB pages takes 512 times fewer
    page faults, so it explains much of zarr-python's spread between rounds."""
    try:
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                if line.startswith("AnonHugePages:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def checksum(parts):
    h = hashlib.sha256()
    for p in parts:
        a = np.ascontiguousarray(p)
        if a.dtype.byteorder == ">":
            a = a.astype(a.dtype.newbyteorder("<"))
        h.update(a.tobytes())
    return h.hexdigest()


class Timer:
    """Wall-clock seconds, and CPU seconds (user + system, all threads) of this process meanwhile."""

    def __enter__(self):
        self.cpu0 = cpu_seconds()
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.t0
        self.cpu_seconds = cpu_seconds() - self.cpu0
        # Read while the result is still held (see huge_pages_bytes).
        self.huge_pages_bytes = huge_pages_bytes()

    def result(self, **more):
        huge = {} if self.huge_pages_bytes is None else {"hugePagesBytes": self.huge_pages_bytes}
        return {"seconds": self.seconds, "cpuSeconds": self.cpu_seconds, **huge, **more}


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


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
    args = {argv[i][2:]: argv[i + 1] for i in range(0, len(argv), 2)}
    out = {"impl": "zarr-python", "case": args.get("case")}
    code = 0
    try:
        out.update(status="ok", **run(args))
    except Unsupported as e:
        out.update(status="unsupported", detail=str(e))
    except Exception:
        out.update(status="error", detail=traceback.format_exc())
        code = 1
    out["peakRssBytes"] = peak_rss_bytes()
    print(json.dumps(out), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
