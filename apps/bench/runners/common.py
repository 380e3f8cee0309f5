"""What the Python runners share (zarr_python.py, tensorstore_runner.py): the checksum, timing,
memory readings, repeating a case in one process, and the one JSON line a runner prints. The same
definitions as runners/common.mjs for the Node runners."""
import hashlib
import json
import resource
import time
import traceback

import numpy as np


# The cases, as src/cases.mjs has them (must match): what each reads or writes.
CASES = {
    "R1": ("read", "r1.zarr"), "R2": ("read", "r2.zarr"), "R3": ("read", "r3.zarr"),
    "R4": ("read", "r4.zarr"), "R5": ("read", "r5.zarr"), "R6": ("windows", "r1.zarr"),
    "R7": ("read", "r7.zarr"), "W1": ("write", None), "W2": ("write", None), "H1": ("http", "r1.zarr"),
    "S1": ("s3", "r1.zarr"), "S2": ("s3-write", None), "S3": ("s3", "r1.zarr"),
    "R8": ("read", "r8.zarr"), "R9": ("windows", "r8.zarr"), "H2": ("http", "r8.zarr"), "W3": ("write", None),
    "H3": ("references", "refs"),
}
# The reference-set case's variable (src/cases.mjs `variable`).
REFERENCE_VARIABLE = "t2m"
# The Zarr v3 cases (sharded, issue 28), as src/cases.mjs has them (`zarrFormat: 3`).
V3_CASES = {"R8", "R9", "H2", "W3"}
SHARD = 4096
INNER = 512
BLOSC_V3 = {"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5, "shuffle": "shuffle", "typesize": 4,
                                               "blocksize": 0}}


def sharded_metadata(n):
    """The zarr.json members of the bench's sharded array (R8's, written by python/generate_sharded.py,
    and W3's): n x n float32 in shards of 4096x4096 (at most n), each `sharding_indexed` of 512x512
    inner chunks (`bytes` little-endian, blosc lz4 clevel 5 shuffle typesize 4), the index `bytes` +
    `crc32c` at the end, as zarr-python 3's `create_array(shards=...)` writes by default."""
    return {
        "shape": [n, n],
        "data_type": "float32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [min(SHARD, n)] * 2}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": [{
            "name": "sharding_indexed",
            "configuration": {
                "chunk_shape": [min(INNER, n)] * 2,
                "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, BLOSC_V3],
                "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
                "index_location": "end",
            },
        }],
    }
WRITE_COMPRESSORS = {
    "W1": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
    "W2": {"id": "zlib", "level": 1},
    "S2": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
}


class Unsupported(Exception):
    """A case the implementation cannot run (a codec or store it lacks): reported, not a failure."""


def peak_rss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def rss_bytes():
    """This process's resident set size now."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def huge_pages_bytes():
    """This process's memory in transparent huge pages now (AnonHugePages), or None where unknown:
    numpy asks for huge pages for large arrays, and an output in 2 MiB pages takes 512 times fewer
    page faults, so it explains much of the spread between rounds."""
    try:
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                if line.startswith("AnonHugePages:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def checksum(parts):
    """SHA-256 (hex) of the elements as little-endian bytes in C order, parts concatenated.

    Hashes the array's own memory (a byte view), not a `tobytes()` copy: a copy of a full read is
    another 256 MiB of fresh memory between two operations, which a plain loop of the library
    (sanity/) does not touch, and it raised the runners' peak RSS by as much (issue 29)."""
    h = hashlib.sha256()
    for p in parts:
        a = np.ascontiguousarray(p)
        if a.dtype.byteorder == ">":
            a = a.astype(a.dtype.newbyteorder("<"))
        h.update(memoryview(a.reshape(-1).view(np.uint8)))
    return h.hexdigest()


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


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


def median(values):
    s = sorted(values)
    m = len(s) // 2
    return None if not s else s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def repeated(repeat, operation):
    """Runs `operation` `repeat` times in this process and folds the results as the Node runners'
    `foldOperations` does: the first operation is cold, the median of 2..N warm, RSS after the last."""
    ops = []
    for i in range(repeat):
        ops.append(operation())
        if ops[i].get("checksum") != ops[0].get("checksum"):
            raise RuntimeError(f"operation {i + 1} gave checksum {ops[i].get('checksum')}, operation 1 {ops[0].get('checksum')}")
    folded = dict(ops[0])
    folded["opSeconds"] = [o["seconds"] for o in ops]
    if len(ops) > 1:
        folded["warmSeconds"] = median([o["seconds"] for o in ops[1:]])
        folded["warmCpuSeconds"] = median([o["cpuSeconds"] for o in ops[1:]])
    folded["rssAfterBytes"] = rss_bytes()
    return folded


def s3_args(args):
    """The S3 cases' `--url ENDPOINT --bucket B --prefix P` (the runners get them from the bench)."""
    return args["url"], args["bucket"], args["prefix"]


def run_main(impl, run, argv):
    """`--case C --data DIR [--out DIR] [--url URL] [--repeat N]`: runs the case N times (default 1)
    with `run(args)`, which times one operation, and prints one JSON line. Returns the exit code."""
    args = {argv[i][2:]: argv[i + 1] for i in range(0, len(argv), 2)}
    out = {"impl": impl, "case": args.get("case")}
    code = 0
    try:
        out.update(status="ok", **repeated(int(args.get("repeat", 1)), lambda: run(args)))
    except Unsupported as e:
        out.update(status="unsupported", detail=str(e))
    except Exception:
        out.update(status="error", detail=traceback.format_exc())
        code = 1
    out["peakRssBytes"] = peak_rss_bytes()
    print(json.dumps(out), flush=True)
    return code
