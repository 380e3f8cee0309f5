#!/usr/bin/env python3
"""Zarr v3 chunks written and read by TensorStore 0.1.85's zarr3 driver, for v3-tensorstore.test.ts.

Usage, in a venv with tensorstore 0.1.85 and numpy (apps/bench/python/ensure-tensorstore.sh makes one):

  python tensorstore_v3_chunks.py generate ../fixtures/tensorstore-v3-chunks.json
  python tensorstore_v3_chunks.py read DIR

`generate`: for each case below, TensorStore creates the array in a file kvstore under a temporary
directory and writes the whole array (values from `values`, never all fill, so every chunk is stored).
The JSON written holds, for each case: `zarr_json`, the text of the zarr.json TensorStore wrote;
`array`, the whole array as z holds it in memory (C order, little-endian, base64); and `chunks`, for
each chunk TensorStore stored, its key, the stored bytes (`stored`) and the chunk decoded
(`decoded`: C order, little-endian, the elements past the array's edge are the fill value, as
TensorStore writes them).

`read`: DIR holds one directory per case (a zarr.json and chunks, written by z); prints a JSON
object with, for each, the whole array as TensorStore reads it (as `array` above), or the error
TensorStore gave (`{"error": ...}`).

Structured (`struct`) arrays are written and read field by field (TensorStore opens one field at a
time), in one transaction so that each chunk is written once with every field. Their fields are
NumPy types only: @z/meta reads extension types (bfloat16, ...) for whole arrays, not as fields.
"""
import base64
import json
import os
import sys
import tempfile
from itertools import permutations

import numpy as np
import tensorstore as ts


def grid(*shape):
    return {"name": "regular", "configuration": {"chunk_shape": list(shape)}}


def le(endian="little"):
    return {"name": "bytes", "configuration": {"endian": endian}}


BYTES = {"name": "bytes"}


def blosc(cname="lz4", clevel=5, shuffle="shuffle", typesize=4, blocksize=0):
    configuration = {"cname": cname, "clevel": clevel, "shuffle": shuffle, "blocksize": blocksize}
    if typesize is not None:
        configuration["typesize"] = typesize
    return {"name": "blosc", "configuration": configuration}


def gzip(level):
    return {"name": "gzip", "configuration": {"level": level}}


def zstd(level, checksum=False):
    return {"name": "zstd", "configuration": {"level": level, "checksum": checksum}}


CRC32C = {"name": "crc32c"}


def transpose(*order):
    return {"name": "transpose", "configuration": {"order": list(order)}}


MULTI_BYTE = [
    "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float16", "float32", "float64", "complex64", "complex128", "bfloat16",
]
ONE_BYTE = ["bool", "int8", "uint8", "int4", "int2", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu"]

CASES = {}
for name in MULTI_BYTE:
    for endian in ["little", "big"]:
        CASES[f"bytes-{endian}-{name}"] = {"shape": [4, 6], "data_type": name, "chunk_grid": grid(2, 3), "codecs": [le(endian)]}
for name in ONE_BYTE:
    CASES[f"bytes-{name}"] = {"shape": [4, 6], "data_type": name, "chunk_grid": grid(2, 3), "codecs": [BYTES]}

CASES.update(
    {
        "transpose-2d-uint16": {
            "shape": [4, 6], "data_type": "uint16", "chunk_grid": grid(4, 3), "codecs": [transpose(1, 0), le()],
        },
        "transpose-2d-identity-float32": {
            "shape": [4, 6], "data_type": "float32", "chunk_grid": grid(2, 3), "codecs": [transpose(0, 1), le()],
        },
        "transpose-2d-big-float64": {
            "shape": [4, 6], "data_type": "float64", "chunk_grid": grid(2, 3), "codecs": [transpose(1, 0), le("big")],
        },
        "transpose-2d-complex128": {
            "shape": [2, 3], "data_type": "complex128", "chunk_grid": grid(2, 3), "codecs": [transpose(1, 0), le()],
        },
        "transpose-2d-twice-int32": {
            "shape": [4, 6], "data_type": "int32", "chunk_grid": grid(4, 3), "codecs": [transpose(1, 0), transpose(1, 0), le()],
        },
        "transpose-3d-bool": {
            "shape": [2, 3, 4], "data_type": "bool", "chunk_grid": grid(2, 3, 4), "codecs": [transpose(2, 0, 1), BYTES],
        },
        "transpose-3d-int8": {
            "shape": [2, 3, 4], "data_type": "int8", "chunk_grid": grid(2, 3, 4), "codecs": [transpose(1, 2, 0), BYTES],
        },
        "transpose-3d-big-int16": {
            "shape": [2, 3, 8], "data_type": "int16", "chunk_grid": grid(2, 3, 4), "codecs": [transpose(2, 1, 0), le("big")],
        },
        "transpose-3d-big-complex64": {
            "shape": [2, 3, 4], "data_type": "complex64", "chunk_grid": grid(2, 3, 4), "codecs": [transpose(1, 0, 2), le("big")],
        },
    }
)
for perm in permutations(range(3)):
    CASES["transpose-3d-" + "".join(map(str, perm)) + "-int32"] = {
        "shape": [2, 3, 8], "data_type": "int32", "chunk_grid": grid(2, 3, 4), "codecs": [transpose(*perm), le()],
    }

for cname in ["lz4", "lz4hc", "blosclz", "zstd", "zlib", "snappy"]:
    for shuffle in ["noshuffle", "shuffle", "bitshuffle"]:
        CASES[f"blosc-{cname}-{shuffle}-int32"] = {
            "shape": [128], "data_type": "int32", "chunk_grid": grid(64),
            "codecs": [le(), blosc(cname, 5, shuffle, None if shuffle == "noshuffle" else 4)],
        }
CASES.update(
    {
        "blosc-defaults-uint16": {"shape": [256], "data_type": "uint16", "chunk_grid": grid(128), "codecs": [le(), {"name": "blosc"}]},
        "blosc-typesize-2-int32": {"shape": [128], "data_type": "int32", "chunk_grid": grid(64), "codecs": [le(), blosc(typesize=2)]},
        "blosc-clevel-0-int32": {"shape": [128], "data_type": "int32", "chunk_grid": grid(64), "codecs": [le(), blosc(clevel=0)]},
        "blosc-clevel-9-zstd-float32": {
            "shape": [128], "data_type": "float32", "chunk_grid": grid(64), "codecs": [le(), blosc("zstd", 9, "bitshuffle", 4)],
        },
        "blosc-blocksize-64-int32": {
            "shape": [128], "data_type": "int32", "chunk_grid": grid(64), "codecs": [le(), blosc(blocksize=64)],
        },
        "blosc-bitshuffle-uint8": {
            "shape": [512], "data_type": "uint8", "chunk_grid": grid(256), "codecs": [BYTES, blosc("lz4", 5, "bitshuffle", 1)],
        },
        "blosc-big-float64": {"shape": [64], "data_type": "float64", "chunk_grid": grid(32), "codecs": [le("big"), blosc(typesize=8)]},
        "blosc-big-bfloat16": {
            "shape": [256], "data_type": "bfloat16", "chunk_grid": grid(128), "codecs": [le("big"), blosc("zstd", 5, "bitshuffle", 2)],
        },
        "gzip-0-int16": {"shape": [64], "data_type": "int16", "chunk_grid": grid(32), "codecs": [le(), gzip(0)]},
        "gzip-1-int16": {"shape": [64], "data_type": "int16", "chunk_grid": grid(32), "codecs": [le(), gzip(1)]},
        "gzip-9-int16": {"shape": [64], "data_type": "int16", "chunk_grid": grid(32), "codecs": [le(), gzip(9)]},
        "gzip-big-complex128": {"shape": [4, 4], "data_type": "complex128", "chunk_grid": grid(2, 4), "codecs": [le("big"), gzip(6)]},
        "zstd-3-int32": {"shape": [128], "data_type": "int32", "chunk_grid": grid(64), "codecs": [le(), zstd(3)]},
        "zstd-3-checksum-int32": {"shape": [128], "data_type": "int32", "chunk_grid": grid(64), "codecs": [le(), zstd(3, True)]},
        "zstd-negative-float32": {"shape": [128], "data_type": "float32", "chunk_grid": grid(64), "codecs": [le(), zstd(-3)]},
        "zstd-19-checksum-big-uint64": {
            "shape": [32], "data_type": "uint64", "chunk_grid": grid(16), "codecs": [le("big"), zstd(19, True)],
        },
        "crc32c-uint8": {"shape": [16], "data_type": "uint8", "chunk_grid": grid(8), "codecs": [BYTES, CRC32C]},
        "crc32c-twice-int32": {"shape": [16], "data_type": "int32", "chunk_grid": grid(8), "codecs": [le(), CRC32C, CRC32C]},
        "chain-transpose-big-blosc-crc32c-float64": {
            "shape": [4, 8], "data_type": "float64", "chunk_grid": grid(4, 8),
            "codecs": [transpose(1, 0), le("big"), blosc("lz4", 5, "shuffle", 8), CRC32C],
        },
        "chain-transpose-zstd-checksum-crc32c-int16": {
            "shape": [2, 4, 6], "data_type": "int16", "chunk_grid": grid(2, 4, 3),
            "codecs": [transpose(2, 0, 1), le(), zstd(5, True), CRC32C],
        },
        "chain-gzip-crc32c-uint32": {"shape": [32], "data_type": "uint32", "chunk_grid": grid(16), "codecs": [le(), gzip(5), CRC32C]},
        "chain-crc32c-zstd-int64": {"shape": [32], "data_type": "int64", "chunk_grid": grid(16), "codecs": [le(), CRC32C, zstd(1)]},
        "chain-zstd-gzip-float32": {"shape": [64], "data_type": "float32", "chunk_grid": grid(32), "codecs": [le(), zstd(3), gzip(1)]},
        "chain-blosc-crc32c-gzip-big-int32": {
            "shape": [4, 32], "data_type": "int32", "chunk_grid": grid(2, 32),
            "codecs": [transpose(1, 0), le("big"), blosc("blosclz", 5, "bitshuffle", 4), CRC32C, gzip(1)],
        },
        "edge-big-int32": {
            "shape": [5, 3], "data_type": "int32", "fill_value": 7, "chunk_grid": grid(2, 2), "codecs": [transpose(1, 0), le("big")],
        },
        "zero-dim-big-float64": {"shape": [], "data_type": "float64", "codecs": [le("big")]},
        "struct-big": {
            "shape": [2, 3], "chunk_grid": grid(2, 3), "codecs": [le("big")],
            "data_type": {
                "name": "struct",
                "configuration": {
                    "fields": [
                        {"name": "a", "data_type": "int16"},
                        {"name": "b", "data_type": "float32"},
                        {"name": "c", "data_type": "uint8"},
                        {"name": "d", "data_type": "complex64"},
                        {"name": "e", "data_type": "float16"},
                        {"name": "f", "data_type": "uint64"},
                    ]
                },
            },
        },
        "struct-little-gzip": {
            "shape": [6], "chunk_grid": grid(3), "codecs": [le(), gzip(1)],
            "data_type": {
                "name": "struct",
                "configuration": {"fields": [{"name": "x", "data_type": "float64"}, {"name": "flag", "data_type": "bool"}]},
            },
        },
        "struct-transpose-big": {
            "shape": [2, 3], "chunk_grid": grid(2, 3), "codecs": [transpose(1, 0), le("big")],
            "data_type": {
                "name": "struct",
                "configuration": {"fields": [{"name": "i", "data_type": "int32"}, {"name": "u", "data_type": "uint16"}]},
            },
        },
    }
)


def sharding(chunk_shape, codecs, index_codecs=None, index_location=None):
    configuration = {"chunk_shape": list(chunk_shape), "codecs": codecs}
    configuration["index_codecs"] = index_codecs if index_codecs is not None else [le(), CRC32C]
    if index_location is not None:
        configuration["index_location"] = index_location
    return {"name": "sharding_indexed", "configuration": configuration}


CASES.update(
    {
        # Inner chunks of fill value are not stored ("holes": the first inner chunk of each shard is 0).
        "sharding-end-gzip-holes-float32": {
            "shape": [8, 8], "data_type": "float32", "chunk_grid": grid(8, 8),
            "codecs": [sharding([4, 4], [le(), gzip(1)])],
        },
        "sharding-start-nested-big-int64": {
            "shape": [16], "data_type": "int64", "chunk_grid": grid(16),
            "codecs": [sharding([8], [sharding([2], [le("big")], [le()])], [le(), CRC32C], "start")],
        },
        "sharding-inner-transpose-crc32c-big-index-uint16": {
            "shape": [4, 6, 4], "data_type": "uint16", "chunk_grid": grid(4, 6, 4),
            "codecs": [sharding([2, 3, 2], [transpose(2, 0, 1), le("big"), CRC32C], [le("big")])],
        },
        "sharding-after-transpose-int32": {
            "shape": [4, 8], "data_type": "int32", "chunk_grid": grid(4, 8),
            "codecs": [transpose(1, 0), sharding([4, 2], [le()], [le(), CRC32C])],
        },
        "sharding-edges-holes-int16": {
            "shape": [10, 6], "data_type": "int16", "fill_value": -1, "chunk_grid": grid(8, 4),
            "codecs": [sharding([4, 2], [le("big")], [le()], "end")],
        },
        "sharding-blosc-zstd-int32": {
            "shape": [64], "data_type": "int32", "chunk_grid": grid(32),
            "codecs": [sharding([16], [le(), blosc("lz4", 5, "shuffle", 4), zstd(3)], [le(), CRC32C])],
        },
        "sharding-complex64-big-transposed-index": {
            "shape": [4, 4], "data_type": "complex64", "chunk_grid": grid(4, 4),
            "codecs": [sharding([2, 2], [le("big")], [transpose(2, 0, 1), le(), CRC32C])],
        },
    }
)


def values(dtype, n, salt=0):
    """n values of a numpy dtype, varied (negative, large, NaN, infinities, -0.0) but never all fill."""
    i = np.arange(n, dtype=np.uint64) + np.uint64(salt)
    mixed = i * np.uint64(2654435761) + np.uint64(12345)
    kind, size = dtype.kind, dtype.itemsize
    if dtype == np.bool_:
        return (i * np.uint64(7) % np.uint64(3)) == 0
    if dtype.name in ("int4", "int2"):
        span = 16 if dtype.name == "int4" else 4
        return ((i % np.uint64(span)).astype(np.int64) - span // 2).astype(dtype)
    if kind in "iu":
        unsigned = mixed.astype(np.dtype(f"u{size}"))
        return unsigned.view(np.dtype(f"{kind}{size}"))
    if kind in "fcV" or dtype.name.startswith(("bfloat", "float")):
        base = (i.astype(np.float64) - n / 2) * 0.37
        if dtype.name.startswith("float8") or dtype.name == "bfloat16" or dtype.name == "float16":
            base = ((i % np.uint64(16)).astype(np.float64) - 7) * 0.25
            if dtype.name == "float8_e8m0fnu":
                base = 2.0 ** ((i % np.uint64(9)).astype(np.float64) - 4)
        if kind == "c":
            out = (base - 2j * base).astype(dtype)
        else:
            out = base.astype(dtype)
        if n >= 4 and kind in "fc":
            out[1] = -0.0
            out[2] = np.inf
            out[3] = np.nan
        return out
    raise ValueError(f"no values for {dtype}")


def smooth(dtype, n):
    """Values blosc and zstd compress (a slow ramp), for the compression cases."""
    if dtype.kind in "iu":
        return (np.arange(n) // 3).astype(dtype)
    return (np.arange(n) * 0.5).astype(dtype)


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


def little(array):
    """The bytes of `array` as z holds them: C order, little-endian (structures packed, each field little-endian)."""
    dtype = array.dtype
    if dtype.names:
        fields = [(name, dtype.fields[name][0].newbyteorder("<")) for name in dtype.names]
        out = np.empty(array.shape, dtype=np.dtype(fields))
        for name in dtype.names:
            out[name] = array[name]
        return np.ascontiguousarray(out).tobytes()
    return np.ascontiguousarray(array.astype(dtype.newbyteorder("<"))).tobytes()


def spec(path, metadata=None, field=None):
    s = {"driver": "zarr3", "kvstore": {"driver": "file", "path": path + "/"}}
    if metadata is not None:
        s["metadata"] = metadata
    if field is not None:
        s["field"] = field
    return s


def field_names(metadata):
    data_type = metadata["data_type"]
    if isinstance(data_type, dict) and data_type["name"] == "struct":
        return [f["name"] for f in data_type["configuration"]["fields"]]
    return None


def open_fields(path, metadata=None, create=False):
    """{field or None: TensorStore}: one open per field of a struct, else one."""
    context = ts.Context()
    names = field_names(metadata) if metadata is not None else None
    if names is None and metadata is None:
        with open(os.path.join(path, "zarr.json"), encoding="utf-8") as f:
            names = field_names(json.load(f))
    if names is None:
        return {None: ts.open(spec(path, metadata), create=create, open=not create, context=context).result()}
    stores = {}
    for index, name in enumerate(names):
        stores[name] = ts.open(
            spec(path, metadata, name), create=create and index == 0, open=not create or index > 0, context=context
        ).result()
    return stores


def assemble(arrays):
    """One numpy array from {field or None: array}."""
    if None in arrays:
        return arrays[None]
    first = next(iter(arrays.values()))
    out = np.empty(first.shape, dtype=np.dtype([(name, a.dtype) for name, a in arrays.items()]))
    for name, a in arrays.items():
        out[name] = a
    return out


def case_values(case, store, salt, fill):
    n = int(np.prod(store.shape))
    dtype = store.dtype.numpy_dtype
    if case.startswith(("blosc", "zstd", "gzip", "chain")) and dtype.kind in "iuf":
        out = smooth(dtype, n).reshape(store.shape)
    else:
        out = values(dtype, n, salt).reshape(store.shape)
    if "holes" in case:
        # The first inner chunk of every shard is the fill value, so TensorStore leaves it out.
        config = [c for c in json.loads(json.dumps(CASES[case]["codecs"])) if c["name"] == "sharding_indexed"][0]
        inner = config["configuration"]["chunk_shape"]
        shard = CASES[case]["chunk_grid"]["configuration"]["chunk_shape"]
        grid_shape = [-(-n // s) for n, s in zip(store.shape, shard)]
        for coords in np.ndindex(*grid_shape):
            region = tuple(slice(c * s, c * s + i) for c, s, i in zip(coords, shard, inner))
            out[region] = fill
    return out


def chunk_keys(root):
    out = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
            if rel != "zarr.json":
                out.append(rel)
    return sorted(out)


def decoded_chunk(key, metadata, array, fill):
    """The chunk at `key` as TensorStore stores it before encoding: the array's elements, fill past its edge."""
    shape = metadata["shape"]
    chunk_shape = metadata.get("chunk_grid", grid(*shape))["configuration"]["chunk_shape"]
    coords = [] if key == "c" else [int(c) for c in key.split("/")[1:]]
    out = np.empty(chunk_shape, dtype=array.dtype)
    out[...] = fill
    region = tuple(slice(c * s, min((c + 1) * s, n)) for c, s, n in zip(coords, chunk_shape, shape))
    inner = tuple(slice(0, r.stop - r.start) for r in region)
    out[inner] = array[region]
    return out


def generate(out_file):
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for case, metadata in CASES.items():
            path = os.path.join(tmp, case)
            stores = open_fields(path, metadata, create=True)
            arrays = {}
            with ts.Transaction() as txn:
                for salt, (name, store) in enumerate(stores.items()):
                    fill = np.asarray(store.fill_value)
                    arrays[name] = np.asarray(case_values(case, store, salt, fill)).astype(store.dtype.numpy_dtype)
                    store.with_transaction(txn)[...] = arrays[name]
            array = assemble(arrays)
            fills = {name: np.asarray(store.fill_value) for name, store in stores.items()}
            fill = assemble(fills) if None not in fills else fills[None]
            with open(os.path.join(path, "zarr.json"), encoding="utf-8") as f:
                text = f.read()
            chunks = {}
            for key in chunk_keys(path):
                with open(os.path.join(path, key), "rb") as f:
                    stored = f.read()
                chunks[key] = {"stored": b64(stored), "decoded": b64(little(decoded_chunk(key, metadata, array, fill)))}
            result[case] = {"zarr_json": text, "array": b64(little(array)), "chunks": chunks}
    with open(out_file, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


def read(root):
    result = {}
    for case in sorted(os.listdir(root)):
        try:
            stores = open_fields(os.path.join(root, case))
            arrays = {name: store.read().result() for name, store in stores.items()}
            result[case] = {"array": b64(little(assemble(arrays)))}
        except Exception as error:  # every failure is the test's to report, with its case
            result[case] = {"error": str(error)}
    json.dump(result, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "generate":
        generate(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "read":
        read(sys.argv[2])
    else:
        sys.exit(__doc__)
