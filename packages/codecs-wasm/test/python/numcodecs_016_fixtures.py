"""Writes ../fixtures/numcodecs-0.16.json: Blosc frames numcodecs 0.16 wrote with `typesize`.

numcodecs 0.16 added `Blosc(typesize=...)`: the item size c-blosc shuffles by, in place of the
buffer's (numcodecs 0.16.0 also wrote it into .zarray; later 0.16 releases read it but leave it
out of get_config()). numcodecs 0.11 (the system Python) has no such parameter. Run with a virtual
environment holding numcodecs 0.16:

    python3 -m venv /work/venv-ts && /work/venv-ts/bin/pip install numcodecs numpy
    /work/venv-ts/bin/python packages/codecs-wasm/test/python/numcodecs_016_fixtures.py

The layout is numcodecs-0.11.json's: "inputs" (base64), and "cases" with the config as it stands in
.zarray (with its "typesize"), the input's name, the item size of the buffer handed to numcodecs,
and what numcodecs encoded it to (base64).
"""
import base64
import json
import os

import numcodecs
import numpy as np
from numcodecs import blosc

assert numcodecs.__version__.startswith("0.16"), numcodecs.__version__

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures")


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


rng = np.random.RandomState(16)
x = np.linspace(0, 8 * np.pi, 1200)
arrays = {
    "arange-i2": np.arange(1200, dtype="<i2"),
    "smooth-f8": (1000 * np.sin(x[:600]) + np.cumsum(rng.normal(0, 1, 600))).astype("<f8"),
    "smooth-f4": (1000 * np.sin(x) + np.cumsum(rng.normal(0, 1, 1200))).astype("<f4"),
    "text-u1": np.frombuffer(b"The quick brown fox jumps over the lazy dog. " * 40, "u1"),
    "arange-i4": np.arange(800, dtype="<i4"),
}

# (name, config as in .zarray, input)
specs = [
    # zarr-python 3's v2 arrays: the config names the item size; the buffer is the same items.
    ("i2 typesize 2", {"cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0, "typesize": 2}, "arange-i2"),
    # typesize differs from the buffer's item size: it is what the frame is shuffled by.
    ("i2 typesize 4", {"cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0, "typesize": 4}, "arange-i2"),
    ("u1 typesize 8 bitshuffle zstd", {"cname": "zstd", "clevel": 3, "shuffle": 2, "blocksize": 0, "typesize": 8}, "text-u1"),
    # AUTOSHUFFLE decides by typesize: bit shuffle for 1.
    ("f8 typesize 1 autoshuffle", {"cname": "lz4", "clevel": 5, "shuffle": -1, "blocksize": 0, "typesize": 1}, "smooth-f8"),
    ("f8 typesize 4 autoshuffle", {"cname": "blosclz", "clevel": 5, "shuffle": -1, "blocksize": 0, "typesize": 4}, "smooth-f8"),
    ("f4 typesize 2 lz4hc blocksize 1000", {"cname": "lz4hc", "clevel": 5, "shuffle": 1, "blocksize": 1000, "typesize": 2}, "smooth-f4"),
    ("f4 typesize 16 zlib", {"cname": "zlib", "clevel": 1, "shuffle": 1, "blocksize": 0, "typesize": 16}, "smooth-f4"),
    # c-blosc takes type sizes above 255 as 1.
    ("i4 typesize 300", {"cname": "blosclz", "clevel": 5, "shuffle": 1, "blocksize": 0, "typesize": 300}, "arange-i4"),
    # numcodecs 0.16.0 wrote "typesize": null when none was given: the buffer's item size.
    ("i4 typesize null", {"cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0, "typesize": None}, "arange-i4"),
]

inputs = {}
cases = []
for name, params, input_name in specs:
    config = {"id": "blosc", **params}
    codec = numcodecs.get_codec(dict(config))
    arr = arrays[input_name]
    enc = codec.encode(arr)
    assert bytes(codec.decode(enc)) == arr.tobytes(), name
    typesize = params["typesize"] if params["typesize"] is not None else arr.dtype.itemsize
    assert enc[3] == (typesize if typesize <= 255 else 1), (name, enc[3])
    inputs[input_name] = b64(arr.tobytes())
    cases.append({"name": name, "config": config, "input": input_name, "itemsize": arr.dtype.itemsize, "encoded": b64(enc)})

path = os.path.join(OUT, "numcodecs-0.16.json")
with open(path, "w") as f:
    json.dump({"numcodecs": numcodecs.__version__, "blosc": blosc.VERSION_STRING, "inputs": inputs, "cases": cases}, f, indent=0)
    f.write("\n")
print(f"{path}: {len(cases)} cases, {os.path.getsize(path)} bytes")
