"""Writes the bench's sharded array (issue 28: R8, R9, H2) with TensorStore's zarr3 driver, from the
same elements as R1 (`r1.f32`, which generate.py writes first), so every implementation reads the
same bytes. Runs in the venv ensure-tensorstore.sh makes (zarr-python 2.13 cannot write v3).

usage: generate_sharded.py DATA_DIR

DATA_DIR/r8.zarr: R1's elements in shards of 4096x4096 of 512x512 inner chunks, blosc lz4, the
index `bytes` + `crc32c` at the end (`sharded_metadata` in runners/common.py, which W3 writes too).
Prints one JSON line: what was written.
"""
import json
import os
import sys
import time

import numpy as np
import tensorstore as ts

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "runners"))
from common import sharded_metadata  # noqa: E402


def main():
    data_dir = sys.argv[1]
    t0 = time.perf_counter()
    source = np.fromfile(os.path.join(data_dir, "r1.f32"), dtype="<f4")
    n = int(round(len(source) ** 0.5))
    path = os.path.join(data_dir, "r8.zarr")
    spec = {"driver": "zarr3", "kvstore": {"driver": "file", "path": path + "/"}, "metadata": sharded_metadata(n)}
    array = ts.open(spec, create=True, delete_existing=True).result()
    array.write(source.reshape(n, n)).result()
    files = [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs if f != "zarr.json"]
    print(json.dumps({"shards": len(files), "storedBytes": sum(os.path.getsize(f) for f in files),
                      "seconds": round(time.perf_counter() - t0, 2)}))


if __name__ == "__main__":
    main()
