"""A small Zarr v3 hierarchy TensorStore 0.1.85 wrote (test/fixtures/store-v3; its groups' zarr.json
as zarr-python 3 writes them, TensorStore writing arrays only), and what numpy says of its arrays
(test/fixtures/store-v3-expected.json).
Run with TensorStore's venv (apps/bench/python/ensure-tensorstore.sh prints its python):
  $PYTHON test/python/v3_store_fixtures.py test/fixtures"""
import json
import os
import shutil
import sys

import numpy as np
import tensorstore as ts

out = sys.argv[1]
root = os.path.join(out, "store-v3")
shutil.rmtree(root, ignore_errors=True)
os.makedirs(root)


def group(path, attributes):
    os.makedirs(os.path.join(root, path), exist_ok=True)
    with open(os.path.join(root, path, "zarr.json"), "w") as f:
        json.dump({"attributes": attributes, "zarr_format": 3, "node_type": "group"}, f, indent=2)


def array(path, metadata):
    spec = {"driver": "zarr3", "kvstore": {"driver": "file", "path": root}, "path": path, "metadata": metadata}
    return ts.open(spec, create=True).result()


group("", {"title": "fixture v3", "version": 3})
group("grp", {})
group("grp/sub", {"empty": True})

a = array(
    "grp/a",
    {
        "shape": [10, 12],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 5]}},
        "data_type": "int32",
        "fill_value": -1,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}],
        "dimension_names": ["y", "x"],
        "attributes": {"units": "m"},
    },
)
a[:7].write(np.arange(84, dtype="<i4").reshape(7, 12)).result()

b = array(
    "b",
    {
        "shape": [5],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "."}},
        "data_type": "float64",
        "fill_value": "NaN",
        "codecs": [{"name": "bytes", "configuration": {"endian": "big"}}, {"name": "crc32c"}],
    },
)
b[1:3].write(np.array([1.5, -2.25])).result()

c = array(
    "c",
    {
        "shape": [3, 4],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 2]}},
        "data_type": "uint16",
        "fill_value": 0,
        "codecs": [
            {"name": "transpose", "configuration": {"order": [1, 0]}},
            {"name": "bytes", "configuration": {"endian": "little"}},
            {"name": "zstd", "configuration": {"level": 3, "checksum": False}},
        ],
    },
)
c[...].write(np.arange(12, dtype="<u2").reshape(3, 4)).result()

s = array(
    "sharded",
    {
        "shape": [8, 8],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 4]}},
        "data_type": "uint8",
        "fill_value": 0,
        "codecs": [
            {
                "name": "sharding_indexed",
                "configuration": {
                    "chunk_shape": [2, 2],
                    "codecs": [{"name": "bytes"}],
                    "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
                    "index_location": "end",
                },
            }
        ],
    },
)
s[:4, :].write(np.arange(32, dtype="u1").reshape(4, 8)).result()

z0 = array(
    "z0",
    {
        "shape": [],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": []}},
        "data_type": "int64",
        "fill_value": 0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
    },
)
z0[...].write(np.int64(42)).result()

expected = {}
for path, store in [("grp/a", a), ("b", b), ("c", c), ("sharded", s), ("z0", z0)]:
    values = store.read().result()
    expected[path] = {
        "repr": repr(values),
        "values": [None if isinstance(v, float) and np.isnan(v) else v for v in values.ravel().tolist()],
        "dtype": values.dtype.str,
        "shape": list(values.shape),
    }
with open(os.path.join(out, "store-v3-expected.json"), "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
