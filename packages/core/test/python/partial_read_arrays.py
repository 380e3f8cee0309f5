"""Writes arrays with zarr-python 2.13 for test/partial-read-zarr-python.test.ts.

    /usr/bin/python3 partial_read_arrays.py OUT_DIR

Blosc with every shuffle and several compressors, forced small blocks (so a chunk has several
blocks, split into streams where c-blosc splits them), a big-endian F-order array, and random
bytes that c-blosc stores uncompressed ("memcpyed"). Each array's values go to `<name>.bin`
(C order, the array's own byte order) so the test checks values, not only agreement.
"""
import json
import os
import sys

import numpy as np
import zarr
from numcodecs import Blosc

out = sys.argv[1]
rng = np.random.RandomState(0)
y, x = np.mgrid[0:300, 0:520]
smooth = np.sin(y / 20) + np.cos(x / 30) + rng.normal(0, 0.01, (300, 520))
arrays = []


def write(name, data, order, compressor):
    z = zarr.open_array(os.path.join(out, name), mode="w", shape=data.shape, chunks=(256, 256), dtype=data.dtype, order=order, compressor=compressor)
    z[...] = data
    with open(os.path.join(out, name + ".bin"), "wb") as f:
        f.write(np.ascontiguousarray(data).tobytes())
    arrays.append(name)


for cname in ["lz4", "zstd", "blosclz", "zlib"]:
    for shuffle in [0, 1, 2]:
        write(f"{cname}-{shuffle}-f4-C", (smooth * 1000).astype("<f4"), "C", Blosc(cname=cname, clevel=5, shuffle=shuffle, blocksize=16384))
        write(f"{cname}-{shuffle}-i2-F", (smooth * 1000).astype(">i2"), "F", Blosc(cname=cname, clevel=5, shuffle=shuffle, blocksize=16384))
write("lz4-default-f8-C", (smooth * 1000).astype("<f8"), "C", Blosc(cname="lz4", clevel=5, shuffle=1))
write("random-u8", np.frombuffer(rng.bytes(300 * 520 * 8), "<u8").reshape(300, 520), "C", Blosc(cname="lz4", clevel=5, shuffle=0))
print(json.dumps({"arrays": arrays, "zarr": zarr.__version__}))
