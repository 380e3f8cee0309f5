#!/usr/bin/env python3
"""zarr.json documents written by TensorStore 0.1.85's zarr3 driver, for metadata-v3-tensorstore.test.ts.

Usage, in a venv with tensorstore 0.1.85 and numpy (apps/bench/python/ensure-tensorstore.sh makes one):

  python tensorstore_v3_fixtures.py generate ../fixtures/tensorstore-v3

For each case below TensorStore creates the array in a file kvstore under a temporary directory,
writes one element (so that one chunk, or shard, is stored), and this keeps its `zarr.json` text
as `<dir>/<case>.json`; `manifest.json` lists, for each case, the metadata it was created from,
the element written, the store keys TensorStore wrote (`zarr.json` aside) and the bytes of the
fill element as TensorStore holds it (`fill_bytes`, hex, little-endian). Chunks are not kept:
the metadata layer needs only their keys.

Every data type TensorStore 0.1.85 creates is here (it refuses uint2, uint4, float8_e4m3, the
float6 formats, string, bytes, datetimes and structs, and r<N> aborts the process), with fill values
in the forms it writes (NaN payloads in hex, +-Infinity, the extremes of 64-bit ints), every codec
it has, both chunk key encodings with both separators, dimension names with nulls, and 0-d and
zero-size shapes.
"""
import json
import os
import sys
import tempfile

import numpy as np
import tensorstore as ts


def grid(*shape):
    return {"name": "regular", "configuration": {"chunk_shape": list(shape)}}


DTYPES = {
    # name: a fill value other than the default, in a form TensorStore takes
    "bool": True,
    "int2": -2,
    "int4": -8,
    "int8": -128,
    "int16": -32768,
    "int32": -(2**31),
    "int64": -(2**63),
    "uint8": 255,
    "uint16": 65535,
    "uint32": 2**32 - 1,
    "uint64": 2**64 - 1,
    "float4_e2m1fn": 1.5,
    "float8_e3m4": 0.25,
    "float8_e4m3fn": -448.0,
    "float8_e4m3fnuz": 0.5,
    "float8_e4m3b11fnuz": -0.75,
    "float8_e5m2": "-Infinity",
    "float8_e5m2fnuz": 2.0,
    "float8_e8m0fnu": 4.0,
    "float16": 0.1,
    "bfloat16": 1.5,
    "float32": 0.1,
    "float64": 1e-300,
    "complex64": [1.5, -2.0],
    "complex128": [0.1, "Infinity"],
}

CASES = {}
for name, fill in DTYPES.items():
    CASES[f"dtype-{name}"] = {"shape": [5, 4], "data_type": name, "fill_value": fill, "chunk_grid": grid(2, 3)}

CASES.update(
    {
        "fill-f4-nan-payload": {"shape": [3], "data_type": "float32", "fill_value": "0x7fc00001"},
        "fill-f4-negative-nan": {"shape": [3], "data_type": "float32", "fill_value": "0xffc00000"},
        "fill-f4-nan": {"shape": [3], "data_type": "float32", "fill_value": "NaN"},
        "fill-f4-infinity": {"shape": [3], "data_type": "float32", "fill_value": "Infinity"},
        "fill-f4-negative-zero": {"shape": [3], "data_type": "float32", "fill_value": -0.0},
        "fill-f8-nan-payload": {"shape": [3], "data_type": "float64", "fill_value": "0x7ff8000000000001"},
        "fill-f8-signalling-nan": {"shape": [3], "data_type": "float64", "fill_value": "0x7ff0000000000001"},
        "fill-f8-negative-infinity": {"shape": [3], "data_type": "float64", "fill_value": "-Infinity"},
        "fill-f2-nan-payload": {"shape": [3], "data_type": "float16", "fill_value": "0x7e01"},
        "fill-bf16-nan-payload": {"shape": [3], "data_type": "bfloat16", "fill_value": "0x7fc1"},
        "fill-c8-nan-parts": {"shape": [3], "data_type": "complex64", "fill_value": ["NaN", "-Infinity"]},
        "fill-c16-hex-parts": {"shape": [3], "data_type": "complex128", "fill_value": ["0x7ff8000000000002", -0.0]},
        "fill-u8-big": {"shape": [3], "data_type": "uint64", "fill_value": 2**64 - 2},
        "fill-i8-max": {"shape": [3], "data_type": "int64", "fill_value": 2**63 - 1},
        "codecs-bytes-big": {
            "shape": [6],
            "data_type": "int32",
            "codecs": [{"name": "bytes", "configuration": {"endian": "big"}}],
        },
        "codecs-transpose": {
            "shape": [4, 5, 6],
            "data_type": "uint16",
            "chunk_grid": grid(2, 5, 3),
            "codecs": [
                {"name": "transpose", "configuration": {"order": [2, 0, 1]}},
                {"name": "bytes", "configuration": {"endian": "little"}},
            ],
        },
        "codecs-blosc": {
            "shape": [100],
            "data_type": "float64",
            "chunk_grid": grid(30),
            "codecs": [
                {"name": "bytes", "configuration": {"endian": "little"}},
                {
                    "name": "blosc",
                    "configuration": {"cname": "zstd", "clevel": 5, "shuffle": "bitshuffle", "typesize": 8, "blocksize": 0},
                },
            ],
        },
        "codecs-gzip": {
            "shape": [10, 10],
            "data_type": "int16",
            "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 9}}],
        },
        "codecs-zstd-crc32c": {
            "shape": [10],
            "data_type": "uint8",
            "codecs": [
                {"name": "bytes"},
                {"name": "zstd", "configuration": {"level": 3, "checksum": True}},
                {"name": "crc32c"},
            ],
        },
        "codecs-sharding-end": {
            "shape": [16, 16],
            "data_type": "float32",
            "chunk_grid": grid(8, 8),
            "codecs": [
                {
                    "name": "sharding_indexed",
                    "configuration": {
                        "chunk_shape": [4, 4],
                        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}],
                        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
                        "index_location": "end",
                    },
                }
            ],
        },
        "codecs-sharding-start-nested": {
            "shape": [16],
            "data_type": "int64",
            "chunk_grid": grid(16),
            "codecs": [
                {
                    "name": "sharding_indexed",
                    "configuration": {
                        "chunk_shape": [8],
                        "codecs": [
                            {
                                "name": "sharding_indexed",
                                "configuration": {
                                    "chunk_shape": [2],
                                    "codecs": [{"name": "bytes", "configuration": {"endian": "big"}}],
                                    "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                                },
                            }
                        ],
                        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
                        "index_location": "start",
                    },
                }
            ],
        },
        "keys-default-slash": {"shape": [4, 4], "data_type": "uint8", "chunk_grid": grid(2, 2)},
        "keys-default-dot": {
            "shape": [4, 4],
            "data_type": "uint8",
            "chunk_grid": grid(2, 2),
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "."}},
        },
        "keys-v2-dot": {"shape": [4, 4], "data_type": "uint8", "chunk_grid": grid(2, 2), "chunk_key_encoding": {"name": "v2"}},
        "keys-v2-slash": {
            "shape": [4, 4],
            "data_type": "uint8",
            "chunk_grid": grid(2, 2),
            "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "/"}},
        },
        "names-with-nulls": {"shape": [2, 3, 4], "data_type": "float32", "dimension_names": ["t", None, "x"]},
        "zero-dim": {"shape": [], "data_type": "float64", "fill_value": 2.5},
        "zero-dim-v2-keys": {"shape": [], "data_type": "int8", "chunk_key_encoding": {"name": "v2"}},
        "zero-size": {"shape": [0, 3], "data_type": "int32", "chunk_grid": grid(2, 2)},
    }
)


def value_for(name):
    """A value other than the fill to write at the first element."""
    if name == "bool":
        return False
    if name.startswith("complex"):
        return 3 + 4j
    return 1


def keys_under(root):
    out = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
            if rel != "zarr.json":
                out.append(rel)
    return sorted(out)


def generate(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    manifest = {}
    with tempfile.TemporaryDirectory() as tmp:
        for case, metadata in CASES.items():
            path = os.path.join(tmp, case)
            store = ts.open(
                {"driver": "zarr3", "kvstore": {"driver": "file", "path": path + "/"}, "metadata": metadata},
                create=True,
            ).result()
            written = None
            if all(n > 0 for n in store.shape):
                written = [0] * store.rank
                store[tuple(written)] = np.asarray(value_for(metadata["data_type"])).astype(store.dtype.numpy_dtype)
            with open(os.path.join(path, "zarr.json"), encoding="utf-8") as f:
                text = f.read()
            with open(os.path.join(out_dir, f"{case}.json"), "w", encoding="utf-8") as f:
                f.write(text)
            # The fill element's bytes as TensorStore holds it (little-endian; one byte per int4/float8).
            fill = np.asarray(store.fill_value).tobytes().hex()
            manifest[case] = {"metadata": metadata, "written": written, "keys": keys_under(path), "fill_bytes": fill}
    with open(os.path.join(out_dir, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "generate":
        sys.exit(__doc__)
    generate(sys.argv[2])
