#!/usr/bin/env python3
"""Zarr v3 arrays written by TensorStore 0.1.85's zarr3 driver, and TensorStore's reading of ours.

Usage, with the python of the venv apps/bench/python/ensure-tensorstore.sh makes:

  python tensorstore_v3.py generate OUTDIR     # the fixtures (apps/conformance/fixtures/tensorstore-v3)
  python tensorstore_v3.py verify FIXTURES OURS  # TensorStore reads what z wrote of every case

`generate` creates each case of CASES below with TensorStore in OUTDIR/<case>/array (zarr.json
and the chunks it stored), writes the case's regions of its values there, and keeps TensorStore's
reading of the whole array as OUTDIR/<case>/expected.bin: C order, little-endian, each element as
`encode_values` says (the extension floats as float32, int4/int2 as int8: what z's `get` gives).
OUTDIR/manifest.json lists, for each case, the metadata given to TensorStore, the regions written
(`[start, stop]` per dimension, in order; every region takes its values from the whole array's
values, which are expected.bin's where a region reaches) and the chunk keys TensorStore stored.
Values are seeded by the case's name, so generating twice gives the same files (TensorStore's
compressors, gzip included, write the same bytes for the same input).

`verify` opens OURS/<case>/array (what z's create({zarrFormat: 3}) and set wrote for the case)
with TensorStore, and prints one JSON object: `problems`, for each case of the manifest in OURS, the
list of what differs from the fixture (values, chunk keys, the metadata TensorStore makes of the
zarr.json; an empty list is a pass), and `differing`, for each case, the chunk keys (shards) both
stored whose bytes differ. The test in apps/conformance/test/tensorstore-v3.test.ts reads it.

TensorStore 0.1.85 refuses uint2/uint4, float8_e4m3, the float6 formats, string, bytes, datetimes
and structs, so those are not here. Its float8_e8m0fnu fill values come back wrong (4.0 is held as
the code 0x41, 2^-62), so that case writes every element and shows no fill. Cases that give no
codecs get TensorStore's default chain, which for an empty array, or a chunk larger than the
array, is `sharding_indexed`: those give `bytes` explicitly, and the `shard-*` cases shard on
purpose (index at the end and the start, nested shards, index codecs big-endian, transposed or
without a checksum, inner chains of gzip, blosc, zstd, crc32c and transpose, a transpose before the
shards, a 0-d shard, inner chunks of the fill left out, and a spread of data types). TensorStore
refuses bytes -> bytes codecs after `sharding_indexed`, so no case has them.
"""
import json
import os
import sys
import tempfile
import zlib

import ml_dtypes
import numpy as np
import tensorstore as ts


def grid(*shape):
    return {"name": "regular", "configuration": {"chunk_shape": list(shape)}}


def codec(name, **configuration):
    return {"name": name, "configuration": configuration} if configuration else {"name": name}


LE = codec("bytes", endian="little")
BE = codec("bytes", endian="big")


def blosc(cname, shuffle, typesize, clevel=5):
    return codec("blosc", cname=cname, clevel=clevel, shuffle=shuffle, typesize=typesize, blocksize=0)


# The extension types z holds as float32 values, and those it holds as int8 values.
EXTENSION_FLOATS = {
    "bfloat16",
    "float4_e2m1fn",
    "float8_e3m4",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e4m3b11fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
}
EXTENSION_INTS = {"int2", "int4"}

# Every data type TensorStore creates, with a fill other than the type's zero.
DTYPE_FILLS = {
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
    "float32": "NaN",
    "float64": 1e-300,
    "complex64": [1.5, -2.0],
    "complex128": [0.1, "Infinity"],
}

# Rows 0-2 of a 5 x 4 array in 2 x 3 chunks: chunk row 1 half written, chunk row 2 missing (the
# fill), and the second chunk column past the edge.
FIRST_ROWS = [[[0, 3], [0, 4]]]

CASES = {}
for name, fill in DTYPE_FILLS.items():
    CASES[f"dtype-{name}"] = {
        "metadata": {"shape": [5, 4], "data_type": name, "fill_value": fill, "chunk_grid": grid(2, 3)},
        # TensorStore holds float8_e8m0fnu's fill wrongly (see the docstring): no cell shows it.
        "writes": [[[0, 5], [0, 4]]] if name == "float8_e8m0fnu" else FIRST_ROWS,
    }


def fill_case(data_type, fill):
    """A 1-d array of 7 in chunks of 3: chunk 0 written, chunks 1 and 2 missing (read as the fill)."""
    return {
        "metadata": {"shape": [7], "data_type": data_type, "fill_value": fill, "chunk_grid": grid(3)},
        "writes": [[[0, 3]]],
    }


CASES.update(
    {
        "fill-f4-nan-payload": fill_case("float32", "0x7fc00001"),
        "fill-f4-negative-nan": fill_case("float32", "0xffc00000"),
        "fill-f4-infinity": fill_case("float32", "Infinity"),
        "fill-f4-negative-infinity": fill_case("float32", "-Infinity"),
        "fill-f4-negative-zero": fill_case("float32", -0.0),
        "fill-f8-nan": fill_case("float64", "NaN"),
        "fill-f8-nan-payload": fill_case("float64", "0x7ff8000000000001"),
        "fill-f8-signalling-nan": fill_case("float64", "0x7ff0000000000001"),
        "fill-f2-nan-payload": fill_case("float16", "0x7e01"),
        "fill-bf16-nan-payload": fill_case("bfloat16", "0x7fc1"),
        "fill-c8-nan-parts": fill_case("complex64", ["NaN", "-Infinity"]),
        "fill-c16-hex-parts": fill_case("complex128", ["0x7ff8000000000002", -0.0]),
        "fill-u8-big": fill_case("uint64", 2**64 - 2),
        "fill-i8-max": fill_case("int64", 2**63 - 1),
    }
)


def codec_case(shape, chunks, data_type, codecs, fill=0, writes=None):
    if data_type.startswith("complex") and fill == 0:
        fill = [0.0, 0.0]
    case = {"metadata": {"shape": shape, "data_type": data_type, "fill_value": fill, "chunk_grid": grid(*chunks), "codecs": codecs}}
    if writes is not None:
        case["writes"] = writes
    return case


CASES.update(
    {
        "codecs-bytes-little-i4": codec_case([10], [4], "int32", [LE]),
        "codecs-bytes-big-i4": codec_case([10], [4], "int32", [BE]),
        "codecs-bytes-big-f8-2d": codec_case([5, 6], [2, 4], "float64", [BE], fill="NaN"),
        "codecs-bytes-big-c16": codec_case([6], [4], "complex128", [BE]),
        "codecs-bytes-big-u8": codec_case([6], [4], "uint64", [BE]),
        "codecs-bytes-big-f2": codec_case([6], [4], "float16", [BE]),
        "codecs-bytes-big-bf16": codec_case([6], [4], "bfloat16", [BE]),
        "codecs-transpose-3d": codec_case(
            [4, 5, 6], [2, 5, 3], "uint16", [codec("transpose", order=[2, 0, 1]), LE], writes=[[[0, 3], [0, 5], [0, 6]]]
        ),
        "codecs-transpose-2d-big": codec_case([5, 7], [4, 3], "int64", [codec("transpose", order=[1, 0]), BE], fill=-1),
        "codecs-transpose-big-gzip": codec_case(
            [6, 4], [4, 4], "float32", [codec("transpose", order=[1, 0]), BE, codec("gzip", level=5)]
        ),
        "codecs-blosc-lz4-shuffle-f4": codec_case([100], [30], "float32", [LE, blosc("lz4", "shuffle", 4)]),
        "codecs-blosc-lz4-bitshuffle-i2": codec_case([10, 10], [4, 4], "int16", [LE, blosc("lz4", "bitshuffle", 2)]),
        "codecs-blosc-zstd-bitshuffle-f8": codec_case([100], [30], "float64", [LE, blosc("zstd", "bitshuffle", 8)]),
        "codecs-blosc-zstd-shuffle-u8": codec_case([50], [16], "uint64", [LE, blosc("zstd", "shuffle", 8, clevel=9)]),
        "codecs-blosc-lz4hc-noshuffle-u1": codec_case([64], [20], "uint8", [codec("bytes"), blosc("lz4hc", "noshuffle", 1)]),
        "codecs-blosc-blosclz-shuffle-i4": codec_case([40], [16], "int32", [LE, blosc("blosclz", "shuffle", 4)]),
        "codecs-blosc-zlib-shuffle-c8": codec_case([20], [8], "complex64", [LE, blosc("zlib", "shuffle", 4)]),
        "codecs-blosc-snappy-shuffle-f4": codec_case([40], [16], "float32", [LE, blosc("snappy", "shuffle", 4)]),
        "codecs-gzip-1": codec_case([10, 10], [4, 4], "int16", [LE, codec("gzip", level=1)]),
        "codecs-gzip-9": codec_case([30], [16], "float64", [LE, codec("gzip", level=9)]),
        "codecs-zstd": codec_case([30], [16], "uint32", [LE, codec("zstd", level=3, checksum=False)]),
        "codecs-zstd-checksum": codec_case([30], [16], "uint32", [LE, codec("zstd", level=3, checksum=True)]),
        "codecs-crc32c": codec_case([10], [4], "uint8", [codec("bytes"), codec("crc32c")]),
        "codecs-crc32c-big": codec_case([4, 4], [3, 3], "float32", [BE, codec("crc32c")]),
        "codecs-zstd-crc32c": codec_case([10], [4], "int8", [codec("bytes"), codec("zstd", level=5, checksum=True), codec("crc32c")]),
        "codecs-gzip-crc32c": codec_case([10], [4], "int16", [BE, codec("gzip", level=6), codec("crc32c")]),
        "codecs-transpose-blosc-crc32c": codec_case(
            [6, 5, 4],
            [3, 5, 2],
            "float32",
            [codec("transpose", order=[2, 1, 0]), LE, blosc("lz4", "shuffle", 4), codec("crc32c")],
            fill="-Infinity",
            writes=[[[0, 3], [0, 5], [0, 4]], [[3, 6], [0, 5], [2, 4]]],
        ),
        "codecs-gzip-zstd": codec_case([20], [8], "uint16", [LE, codec("gzip", level=1), codec("zstd", level=1, checksum=False)]),
    }
)


def keys_case(encoding):
    case = {"metadata": {"shape": [4, 4, 4], "data_type": "uint8", "fill_value": 7, "chunk_grid": grid(2, 2, 2)}}
    if encoding is not None:
        case["metadata"]["chunk_key_encoding"] = encoding
    # Not every chunk: the missing ones read as the fill.
    case["writes"] = [[[0, 4], [0, 2], [0, 4]], [[2, 4], [2, 4], [0, 2]]]
    return case


CASES.update(
    {
        "keys-default-slash": keys_case(None),
        "keys-default-dot": keys_case({"name": "default", "configuration": {"separator": "."}}),
        "keys-v2-dot": keys_case({"name": "v2"}),
        "keys-v2-slash": keys_case({"name": "v2", "configuration": {"separator": "/"}}),
    }
)

CASES.update(
    {
        "shape-0d": {"metadata": {"shape": [], "data_type": "float64", "fill_value": 2.5}, "writes": [[]]},
        "shape-0d-unwritten": {"metadata": {"shape": [], "data_type": "int16", "fill_value": -3}, "writes": []},
        "shape-0d-v2-keys": {
            "metadata": {"shape": [], "data_type": "int8", "fill_value": 0, "chunk_key_encoding": {"name": "v2"}},
            "writes": [[]],
        },
        "shape-0d-gzip": {"metadata": {"shape": [], "data_type": "complex64", "fill_value": [0, 0], "codecs": [LE, codec("gzip", level=1)]}, "writes": [[]]},
        "shape-empty-dim0": {"metadata": {"shape": [0, 3], "data_type": "int32", "fill_value": 0, "chunk_grid": grid(2, 2), "codecs": [LE]}, "writes": []},
        "shape-empty-dim1": {"metadata": {"shape": [4, 0], "data_type": "float32", "fill_value": 1.0, "chunk_grid": grid(2, 2), "codecs": [LE]}, "writes": []},
        "shape-partial-edges": {"metadata": {"shape": [7, 5], "data_type": "int16", "fill_value": 9, "chunk_grid": grid(3, 2)}},
        "shape-3d": {
            "metadata": {"shape": [5, 6, 7], "data_type": "float32", "fill_value": 0.5, "chunk_grid": grid(2, 4, 3)},
            "writes": [[[0, 5], [0, 6], [1, 7]], [[1, 4], [2, 5], [0, 3]]],
        },
        "shape-chunk-larger-than-array": {"metadata": {"shape": [3, 2], "data_type": "uint16", "fill_value": 1, "chunk_grid": grid(8, 8), "codecs": [LE]}},
        "shape-unit-chunks": {"metadata": {"shape": [3, 3], "data_type": "int8", "fill_value": -1, "chunk_grid": grid(1, 1)}, "writes": [[[0, 2], [1, 3]]]},
        "names-with-nulls": {
            "metadata": {"shape": [2, 3, 4], "data_type": "float32", "fill_value": 0, "dimension_names": ["t", None, "x"]},
        },
        "values-f4-nan-payloads": {"metadata": {"shape": [8], "data_type": "float32", "fill_value": 0, "chunk_grid": grid(4)}, "special": "nan-payloads"},
        "values-f8-nan-payloads": {"metadata": {"shape": [8], "data_type": "float64", "fill_value": 0, "chunk_grid": grid(4)}, "special": "nan-payloads"},
    }
)

# --- sharding_indexed ----------------------------------------------------------------------


def shard(inner, codecs=None, index_codecs=None, location=None):
    configuration = {"chunk_shape": inner, "codecs": codecs or [LE], "index_codecs": index_codecs or [LE, codec("crc32c")]}
    if location is not None:
        configuration["index_location"] = location
    return {"name": "sharding_indexed", "configuration": configuration}


def shard_case(shape, shards, data_type, codecs, fill=0, writes=None, special=None):
    case = codec_case(shape, shards, data_type, codecs, fill, writes)
    if special is not None:
        case["special"] = special
    return case


# Each writes some regions only: shards missing, inner chunks missing in the shards written (read
# as the fill), and shards at the array's edge partly outside it.
CASES.update(
    {
        "shard-end-i2": shard_case(
            [10, 9], [4, 6], "int16", [shard([2, 3])], fill=-5, writes=[[[0, 5], [0, 9]], [[6, 9], [2, 4]]]
        ),
        "shard-start-gzip-f4": shard_case(
            [9, 7], [6, 4], "float32", [shard([3, 2], [LE, codec("gzip", level=1)], location="start")], fill="NaN",
            writes=[[[0, 4], [0, 7]], [[6, 9], [4, 7]]],
        ),
        "shard-blosc-lz4-u2": shard_case(
            [12, 10], [6, 10], "uint16", [shard([3, 5], [LE, blosc("lz4", "shuffle", 2)])], writes=[[[0, 9], [0, 10]]]
        ),
        "shard-blosc-zstd-f8-start": shard_case(
            [50], [24], "float64", [shard([8], [LE, blosc("zstd", "bitshuffle", 8)], location="start")],
            writes=[[[0, 20]], [[30, 50]]],
        ),
        "shard-zstd-crc32c-i8": shard_case(
            [20], [8], "int64", [shard([2], [LE, codec("zstd", level=3, checksum=False), codec("crc32c")])], fill=-1,
            writes=[[[0, 11]], [[15, 20]]],
        ),
        "shard-crc32c-u1": shard_case(
            [16, 16], [8, 8], "uint8", [shard([4, 4], [codec("bytes"), codec("crc32c")])], fill=3, writes=[[[0, 16], [0, 12]]]
        ),
        "shard-transpose-big-3d-f8": shard_case(
            [5, 6, 7], [4, 6, 4], "float64", [shard([2, 3, 2], [codec("transpose", order=[2, 0, 1]), BE])], fill=0.5,
            writes=[[[0, 5], [0, 6], [0, 5]]],
        ),
        "shard-nested": shard_case(
            [12, 12], [8, 8], "int32", [shard([4, 4], [shard([2, 2], [LE, codec("gzip", level=1)])])], fill=7,
            writes=[[[0, 10], [0, 5]], [[9, 12], [9, 12]]],
        ),
        "shard-nested-start-blosc": shard_case(
            [16, 8], [16, 8], "float32",
            [shard([8, 4], [shard([4, 2], [LE, blosc("lz4", "noshuffle", 4)], location="start")], location="start")],
            writes=[[[0, 12], [0, 8]]],
        ),
        "shard-index-big-no-crc": shard_case(
            [8, 8], [8, 8], "int16", [shard([2, 4], index_codecs=[BE])], writes=[[[0, 6], [0, 8]]]
        ),
        "shard-index-transpose-start": shard_case(
            [8, 8], [8, 8], "int16",
            [shard([2, 4], index_codecs=[codec("transpose", order=[1, 0, 2]), LE, codec("crc32c")], location="start")],
            writes=[[[0, 6], [0, 8]]],
        ),
        "shard-after-transpose": shard_case(
            [6, 8], [6, 8], "int16", [codec("transpose", order=[1, 0]), shard([4, 3])], writes=[[[0, 6], [0, 5]]]
        ),
        "shard-0d": shard_case([], [], "float32", [shard([])], fill=1.5, writes=[[]]),
        # Inner chunks holding nothing but the fill are not stored; a shard of them is not stored.
        "shard-fill-blocks": shard_case([8, 12], [4, 6], "uint16", [shard([2, 3])], fill=9, special="fill-blocks"),
    }
)
# The 0-d case's grid is the array's own (no chunk_grid given).
del CASES["shard-0d"]["metadata"]["chunk_grid"]
for name in ["bool", "int4", "uint64", "float16", "bfloat16", "float8_e4m3fn", "complex64", "float64"]:
    CASES[f"shard-dtype-{name}"] = {
        "metadata": {
            "shape": [5, 4],
            "data_type": name,
            "fill_value": DTYPE_FILLS[name] if name != "float64" else "NaN",
            "chunk_grid": grid(4, 4),
            "codecs": [shard([2, 2], [LE] if name not in ("bool", "int4", "float8_e4m3fn") else [codec("bytes")])],
        },
        "writes": FIRST_ROWS,
    }


NAN_PAYLOADS = {
    "float32": (np.uint32, [0x7FC00001, 0xFFC00000, 0x7F800001, 0xFFFFFFFF, 0x7FC00000, 0x80000000, 0x7F800000, 0x3F800000]),
    "float64": (
        np.uint64,
        [0x7FF8000000000001, 0xFFF8000000000000, 0x7FF0000000000001, 0xFFFFFFFFFFFFFFFF, 0x7FF8000000000000, 0x8000000000000000, 0xFFF0000000000000, 1],
    ),
}


# --- values -------------------------------------------------------------------------------


def numpy_dtype(data_type):
    if data_type in EXTENSION_FLOATS or data_type in EXTENSION_INTS:
        return np.dtype(getattr(ml_dtypes, data_type))
    return np.dtype(data_type)


def values_for(case_name, case):
    """The whole array's source values, seeded by the case's name."""
    meta = case["metadata"]
    shape, data_type = tuple(meta["shape"]), meta["data_type"]
    dtype = numpy_dtype(data_type)
    rng = np.random.default_rng(zlib.crc32(case_name.encode()))
    n = int(np.prod(shape, dtype=np.int64))
    if case.get("special") == "fill-blocks":
        # Shard (0, 0) all fill, inner chunks (0, 0) and (1, 1) of shard (1, 1) all fill.
        values = (np.arange(n) % 50).astype(dtype).reshape(shape)
        values[0:4, 0:6] = 9
        values[4:6, 6:9] = 9
        values[6:8, 9:12] = 9
        return values
    if case.get("special") == "nan-payloads":
        bits_type, bits = NAN_PAYLOADS[data_type]
        return np.array(bits, dtype=bits_type).view(dtype).reshape(shape)
    if data_type == "bool":
        # Alternate, so that no chunk is all fill (TensorStore stores no such chunk).
        return (np.arange(n) % 3 == 1).reshape(shape)
    if data_type in EXTENSION_INTS:
        low, high = (-2, 2) if data_type == "int2" else (-8, 8)
        return rng.integers(low, high, n).astype(dtype).reshape(shape)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True).reshape(shape)
    if dtype.kind == "c":
        parts = rng.standard_normal(2 * n) * 100
        return parts.astype(np.float64).view(np.complex128).astype(dtype).reshape(shape)
    values = (rng.standard_normal(n) * 10).astype(np.float32)
    if data_type == "float8_e8m0fnu":
        values = np.abs(values)
    elif data_type != "float4_e2m1fn":
        # The specials each format has (ml_dtypes rounds an infinity to NaN where there is none).
        for i, special in enumerate([np.nan, -0.0, np.inf, -np.inf, -np.nan][: max(0, n - 2)]):
            values[i + 1] = special
    return values.astype(dtype).reshape(shape)


def encode_values(array, data_type):
    """The bytes z's `get` gives for these values: C order, little-endian, extension types widened."""
    if data_type in EXTENSION_FLOATS:
        array = array.astype(np.float32)
    elif data_type in EXTENSION_INTS:
        array = array.astype(np.int8)
    array = np.ascontiguousarray(array)
    return array.astype(array.dtype.newbyteorder("<")).tobytes()


def whole(shape):
    return [[[0, s] for s in shape]]


def region_index(region):
    return tuple(slice(a, b) for a, b in region)


# --- generate -----------------------------------------------------------------------------


def chunk_keys(root):
    out = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
            if rel != "zarr.json":
                out.append(rel)
    return sorted(out)


def open_array(path, metadata=None):
    spec = {"driver": "zarr3", "kvstore": {"driver": "file", "path": path + "/"}}
    if metadata is None:
        return ts.open(spec, open=True, read=True).result()
    return ts.open({**spec, "metadata": metadata}, create=True).result()


def generate(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    manifest = {}
    for name, case in CASES.items():
        meta = case["metadata"]
        array_dir = os.path.join(out_dir, name, "array")
        store = open_array(array_dir, meta)
        values = values_for(name, case)
        writes = case.get("writes", whole(meta["shape"]))
        for region in writes:
            store[region_index(region)] = values[region_index(region)]
        read = store.read().result()
        with open(os.path.join(out_dir, name, "expected.bin"), "wb") as f:
            f.write(encode_values(read, meta["data_type"]))
        manifest[name] = {"metadata": meta, "writes": writes, "keys": chunk_keys(array_dir)}
    with open(os.path.join(out_dir, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")


# --- verify -------------------------------------------------------------------------------


def metadata_seen(store):
    """What TensorStore makes of an array's zarr.json (its spec's metadata, attributes aside)."""
    meta = store.spec().to_json()["metadata"]
    meta.pop("attributes", None)
    return meta


def verify(fixtures, ours):
    with open(os.path.join(fixtures, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    report = {}
    differing = {}
    for name, case in manifest.items():
        if not os.path.isdir(os.path.join(ours, name)):
            continue  # a case z refuses to create (the test says which, and why)
        problems = []
        try:
            array_dir = os.path.join(ours, name, "array")
            store = open_array(array_dir)
            theirs = open_array(os.path.join(fixtures, name, "array"))
            data_type = case["metadata"]["data_type"]
            got = encode_values(store.read().result(), data_type)
            with open(os.path.join(fixtures, name, "expected.bin"), "rb") as f:
                want = f.read()
            if got != want:
                problems.append(describe_values(got, want, store.dtype.numpy_dtype.itemsize if data_type not in EXTENSION_FLOATS else 4))
            keys = chunk_keys(array_dir)
            if keys != case["keys"]:
                problems.append(f"chunk keys {keys} instead of {case['keys']}")
            differing[name] = [
                k for k in keys if k in case["keys"] and read_file(os.path.join(array_dir, k)) != read_file(os.path.join(fixtures, name, "array", k))
            ]
            seen, expected = metadata_seen(store), metadata_seen(theirs)
            if seen != expected:
                problems.append(f"TensorStore reads the metadata as {json.dumps(seen, sort_keys=True)} instead of {json.dumps(expected, sort_keys=True)}")
        except Exception as e:  # a refusal to open or read is this case's failure
            problems.append(f"{type(e).__name__}: {e}")
        report[name] = problems
    json.dump({"problems": report, "differing": differing}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


def describe_values(got, want, itemsize):
    if len(got) != len(want):
        return f"{len(got)} bytes of values instead of {len(want)}"
    bad = [i // itemsize for i in range(0, len(want), itemsize) if got[i : i + itemsize] != want[i : i + itemsize]]
    first = [f"element {i}: {got[i * itemsize:(i + 1) * itemsize][::-1].hex()} instead of {want[i * itemsize:(i + 1) * itemsize][::-1].hex()}" for i in bad[:6]]
    return f"{len(bad)} of {len(want) // itemsize} elements differ: " + "; ".join(first)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "generate":
        generate(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "verify":
        verify(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
