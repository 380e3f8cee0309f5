"""Writes test/fixtures/numcodecs-0.16/: arrays whose .zarray configs only newer numcodecs write.

- blosc-typesize.zarr: the compressor as numcodecs 0.16.0's get_config() wrote it into .zarray
  (zarr-python 3 writing a Zarr v2 array), with "typesize" (4, not the int16 item size: numcodecs
  shuffles by it); chunks encoded by numcodecs 0.16.
- crc32c.zarr: a crc32c filter (numcodecs >= 0.14) before a zlib compressor.

zarr-python 2.13 cannot write these (numcodecs 0.11 has neither), so the .zarray is written here as
zarr-python writes it and the chunks are encoded by numcodecs 0.16 itself, the same pipeline zarr
runs (filters in order, then the compressor, each on the C-order chunk). Run with a virtual
environment holding numcodecs 0.16 and google-crc32c:

    /work/venv-ts/bin/python packages/core/test/python/numcodecs_016_arrays.py
"""
import json
import os
import shutil

import numcodecs
import numpy as np

assert numcodecs.__version__.startswith("0.16"), numcodecs.__version__

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures", "numcodecs-0.16")


def write(name, data, chunks, compressor, filters):
    root = os.path.join(OUT, name)
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    meta = {"chunks": list(chunks), "compressor": compressor, "dimension_separator": ".", "dtype": data.dtype.str,
            "fill_value": 0, "filters": filters, "order": "C", "shape": list(data.shape), "zarr_format": 2}
    with open(os.path.join(root, ".zarray"), "w") as f:
        json.dump(meta, f, indent=4, sort_keys=True)
    codecs = [numcodecs.get_codec(dict(c)) for c in (filters or [])] + [numcodecs.get_codec(dict(compressor))]
    for i in range(0, data.shape[0], chunks[0]):
        for j in range(0, data.shape[1], chunks[1]):
            block = np.zeros(chunks, data.dtype)
            part = data[i:i + chunks[0], j:j + chunks[1]]
            block[:part.shape[0], :part.shape[1]] = part
            buf = block
            for codec in codecs:
                buf = codec.encode(buf)
            with open(os.path.join(root, f"{i // chunks[0]}.{j // chunks[1]}"), "wb") as f:
                f.write(bytes(buf))


# The test computes the same values: element (i, j) of the int16 array is (20 i + j) 3 - 500.
values = (np.arange(30 * 20).reshape(30, 20) * 3 - 500).astype("<i2")
write("blosc-typesize.zarr", values, (16, 8),
      {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0, "typesize": 4}, None)
write("crc32c.zarr", values.astype("<f8") / 4, (16, 8), {"id": "zlib", "level": 1}, [{"id": "crc32c"}])
print("wrote", OUT)
