#!/usr/bin/env python3
"""TensorStore 0.1.85's own resolution of zarr2 driver specs, for spec.test.ts.

Usage, in a venv with tensorstore 0.1.85 and numpy (apps/bench/python/ensure-tensorstore.sh makes one):

  python tensorstore_spec_fixtures.py generate ../fixtures/tensorstore-spec

writes there:

- create.json: create specs (hand-picked ones, the reference's examples first, then a seeded random
  mix of ranks 0-6, data types, chunk layout constraints, compressors, fill values and separators),
  each with the `.zarray` text TensorStore wrote for it and/or TensorStore's error.
- open.json: open specs against arrays TensorStore created: the constraints of `metadata` and
  `schema`, `field`, `open_as_void`, `assume_metadata`, and what TensorStore opened (its shape and
  data type) or its error.
- kvstore.json: s3 kvstore specs and `s3://` URLs, each with TensorStore's resolved kvstore JSON
  and its error at open (ts.KvStore.open, which sends no request for these), or its parse error.

Every spec is run as written, with a `memory` kvstore at a path of its own in one context; the
fixture keeps the spec without the kvstore, which the test adds back the same way.
"""
import json
import random
import re
import sys
from pathlib import Path

import tensorstore as ts

CTX = ts.Context()
KV = ts.KvStore.open({"driver": "memory"}, context=CTX).result()
COUNTER = [0]


def clean(error):
    """TensorStore's message without the source locations and the spec it appends."""
    s = str(error)
    s = re.sub(r" \[source locations='.*", "", s, flags=re.S)
    s = re.sub(r" \[tensorstore_spec='.*", "", s, flags=re.S)
    return re.sub(r'"c\d+/', '"<path>/', s)


def fresh_path():
    COUNTER[0] += 1
    return f"c{COUNTER[0]}/"


def run_create(spec):
    path = fresh_path()
    full = {"driver": "zarr2", "kvstore": {"driver": "memory", "path": path}, **spec}
    full.setdefault("create", True)
    out = {"spec": spec}
    try:
        t = ts.open(full, context=CTX).result()
        out["shape"] = list(t.shape)
        out["dtype"] = t.dtype.name
    except Exception as e:  # noqa: BLE001 - TensorStore raises ValueError and others
        out["error"] = clean(e)
    mk = spec.get("metadata_key", ".zarray")
    sub = spec["path"].strip("/") + "/" if isinstance(spec.get("path"), str) and spec["path"] else ""
    key = path + sub + (mk if isinstance(mk, str) else ".zarray")
    stored = KV.read(key).result()
    if stored.state == "value":
        out["zarray"] = stored.value.decode()
    return out


# --- hand-picked create specs -------------------------------------------------------------------

def reference_examples():
    big = {"dtype": "uint16", "domain": {"shape": [1000, 2000, 3000]}}
    return [
        {"schema": big},
        {"schema": {**big, "chunk_layout": {"chunk": {"shape": [100, 200, 300]}}}},
        {"schema": {**big, "chunk_layout": {"chunk": {"aspect_ratio": [1, 2, 2]}}}},
        {"schema": {**big, "chunk_layout": {"chunk": {"aspect_ratio": [1, 2, 2], "elements": 2000000}}}},
        {"metadata": {"shape": [1000, 2000, 3000], "dtype": "<u2"}},
        {"metadata": {"shape": [1000, 1000], "chunks": [100, 100], "dtype": "<i2", "order": "C",
                      "compressor": {"id": "blosc", "shuffle": -1, "clevel": 5, "cname": "lz4"}}, "key_encoding": "."},
        {"metadata": {"shape": [1000, 2000, 3000], "chunks": [100, 200, 300], "dtype": "<u2", "compressor": None,
                      "fill_value": 42, "order": "C", "filters": None}},
        {"metadata": {"shape": [1000, 2000, 3000], "chunks": [100, 200, 300],
                      "dtype": [["x", "<u2", [2, 3]], ["y", "<f4", [5]]],
                      "compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1},
                      "fill_value": "AQACAAMABAAFAAYAAAAgQQAAMEEAAEBBAABQQQAAYEE=", "order": "F", "filters": None},
         "field": "x"},
        {"metadata": {"shape": [1000, 2000, 3000], "chunks": [100, 200, 300],
                      "dtype": [["x", "<u2", [2, 3]], ["y", "<f4", [5]]], "order": "F"}, "field": "y"},
    ]


def hand_picked():
    d10 = {"dtype": "uint8", "metadata": {"shape": [10, 10]}}
    cases = [
        # fill values: TensorStore's conversions and its float output
        {"schema": {"dtype": "float32", "domain": {"shape": [10]}, "fill_value": 0.1}},
        {"metadata": {"dtype": "<f4", "shape": [10], "fill_value": 0.1}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": 1e20}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": 1e-7}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": 0.0001}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": 0.00001}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": 1e15}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": 1e14}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": 123456.789}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": -0.0}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": "NaN"}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": "-Infinity"}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": "1.5"}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": "nan"}},
        {"metadata": {"dtype": "<f8", "shape": [10], "fill_value": True}},
        {"metadata": {"dtype": ">f2", "shape": [10], "fill_value": 0.1}},
        {"metadata": {"dtype": "bfloat16", "shape": [10], "fill_value": 0.1}},
        {"metadata": {"dtype": "float8_e4m3fn", "shape": [10], "fill_value": 0.3}},
        {"metadata": {"dtype": "float8_e5m2", "shape": [10], "fill_value": "Infinity"}},
        {"metadata": {"dtype": "int4", "shape": [10], "fill_value": -3}},
        {"metadata": {"dtype": "int4", "shape": [10], "fill_value": 9}},
        {"metadata": {"dtype": "int2", "shape": [10], "fill_value": 1}},
        {"metadata": {"dtype": "<i4", "shape": [10], "fill_value": 1.0}},
        {"metadata": {"dtype": "<i4", "shape": [10], "fill_value": "1"}},
        {"metadata": {"dtype": "<i4", "shape": [10], "fill_value": 1.5}},
        {"metadata": {"dtype": "|u1", "shape": [10], "fill_value": 256}},
        {"metadata": {"dtype": "|u1", "shape": [10], "fill_value": -1}},
        {"metadata": {"dtype": "<u8", "shape": [10], "fill_value": 18446744073709551615}},
        {"metadata": {"dtype": "<i8", "shape": [10], "fill_value": -9223372036854775808}},
        {"metadata": {"dtype": "|b1", "shape": [10], "fill_value": True}},
        {"metadata": {"dtype": "|b1", "shape": [10], "fill_value": 1}},
        {"metadata": {"dtype": "<c8", "shape": [10], "fill_value": [1.5, "NaN"]}},
        {"metadata": {"dtype": "<c16", "shape": [10], "fill_value": [1, 2, 3]}},
        {"metadata": {"dtype": "<c16", "shape": [10], "fill_value": "AAAAAAAA8D8AAAAAAAAAQA=="}},
        {"metadata": {"dtype": "|S4", "shape": [10], "fill_value": "YWJjZA=="}},
        {"metadata": {"dtype": "|S4", "shape": [10], "fill_value": "YWJj"}},
        {"metadata": {"dtype": "|V3", "shape": [10], "fill_value": "AQID"}},
        {"metadata": {"dtype": "|V3", "shape": [10], "fill_value": 5}},
        {"schema": {"dtype": "int32", "domain": {"shape": [10]}, "fill_value": 1.5}},
        {"schema": {"dtype": "int32", "domain": {"shape": [10]}, "fill_value": "7"}},
        {"schema": {"dtype": "bool", "domain": {"shape": [10]}, "fill_value": "true"}},
        {"schema": {"dtype": "bool", "domain": {"shape": [10]}, "fill_value": 1}},
        {"schema": {"dtype": "float64", "domain": {"shape": [10]}, "fill_value": "NaN"}},
        {"schema": {"dtype": "float64", "domain": {"shape": [10]}, "fill_value": "1e3"}},
        {"schema": {"dtype": "complex64", "domain": {"shape": [10]}, "fill_value": 1}},
        {"schema": {"dtype": "uint16", "domain": {"shape": [10]}, "fill_value": [[5]]}},
        {"schema": {"domain": {"shape": [10]}, "fill_value": 7}, "dtype": "uint8"},
        {"schema": {"domain": {"shape": [10]}, "fill_value": "7"}, "dtype": "uint8"},
        {"schema": {"domain": {"shape": [10]}, "fill_value": [1, 2]}, "dtype": "uint8"},
        {"schema": {"fill_value": [1, 2]}, "dtype": "uint8", "metadata": {"shape": [10, 2]}},
        {"metadata": {"shape": [10]}, "schema": {"fill_value": 7}, "dtype": "uint8"},
        {"metadata": {"shape": [10], "dtype": "<u2", "fill_value": 3}, "schema": {"fill_value": 4}},
        {"metadata": {"shape": [10], "dtype": "<u2", "fill_value": 3}, "schema": {"fill_value": 3}},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2", [3]]]}, "schema": {"fill_value": [1, 2, 3]}},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2", [3]]]}, "schema": {"fill_value": 9}},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2", [3]], ["b", "|u1"]]}, "field": "a", "schema": {"fill_value": 9}},
        {"metadata": {"shape": [10], "dtype": "|S3"}, "schema": {"fill_value": 9}},
        {"metadata": {"shape": [10], "fill_value": 3}, "dtype": "uint8"},
        # data types
        {"metadata": {"shape": [10], "dtype": "<U5"}},
        {"metadata": {"shape": [10], "dtype": "|O"}},
        {"metadata": {"shape": [10], "dtype": "<M8[ns]"}},
        {"metadata": {"shape": [10], "dtype": "|u2"}},
        {"metadata": {"shape": [10], "dtype": "<u1"}},
        {"metadata": {"shape": [10], "dtype": ">b1"}},
        {"metadata": {"shape": [10], "dtype": "|f4"}},
        {"metadata": {"shape": [10], "dtype": "float64"}},
        {"metadata": {"shape": [10], "dtype": "float8_e8m0fnu"}},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2"], ["a", "<i4"]]}, "field": "a"},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2"], ["b", "<i4"]]}},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2"], ["b", "<i4"]]}, "field": "c"},
        {"metadata": {"shape": [10], "dtype": "<u2"}, "field": "a"},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2"]]}},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2", []]]}, "field": "a"},
        {"metadata": {"shape": [10], "dtype": [["", "<u2"]]}, "field": "a"},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2", [0]]]}, "field": "a"},
        {"metadata": {"shape": [10], "dtype": [["a", "<u2"], ["b", "<f8", [2, 2]]]}, "field": "b",
         "schema": {"chunk_layout": {"chunk": {"aspect_ratio": [1, 0, 0]}}}},
        {"metadata": {"shape": [10, 20], "dtype": [["a", "<u2"], ["b", "<f8", [2, 2]]]}, "field": "b",
         "schema": {"chunk_layout": {"inner_order": [1, 0, 2, 3]}}},
        {"metadata": {"shape": [10, 20], "dtype": [["a", "<u2"], ["b", "<f8", [2, 2]]]}, "field": "b",
         "schema": {"chunk_layout": {"inner_order": [0, 1, 3, 2]}}},
        {"metadata": {"shape": [10, 20], "dtype": [["a", "<u2"], ["b", "<f8", [2, 2]]]}, "field": "b",
         "schema": {"chunk_layout": {"inner_order_soft_constraint": [0, 1, 3, 2]}}},
        {"metadata": {"shape": [10, 20], "dtype": [["a", "<u2"], ["b", "<f8", [2, 2]]]}, "field": "b", "rank": 4},
        {"metadata": {"shape": [10, 20], "dtype": [["a", "<u2"], ["b", "<f8", [2, 2]]]}, "field": "b", "rank": 2},
        {"metadata": {"shape": [10, 20], "dtype": [["a", "<u2"], ["b", "<f8", [2, 2]]]}, "field": "b", "dtype": "float32"},
        {"metadata": {"shape": [10, 20], "dtype": [["a", "<u2"], ["b", "<f8", [2, 2]]]}, "open_as_void": True},
        {"metadata": {"shape": [10, 20], "dtype": [["a", "<u2"], ["b", "<f8", [2, 2]]]}, "open_as_void": True, "field": "a"},
        {"schema": {"dtype": "string", "domain": {"shape": [10]}}},
        {"schema": {"dtype": "char", "domain": {"shape": [10]}}},
        {"schema": {"dtype": "float32x", "domain": {"shape": [10]}}},
        {"schema": {"domain": {"shape": [10]}}},
        {"dtype": "uint8"},
        {"dtype": "uint8", "rank": 2},
        {"dtype": "uint8", "rank": 0},
        {"dtype": "uint8", "metadata": {"chunks": [10, 10]}},
        # chunk layouts
        {"metadata": {"shape": [10], "chunks": [3]}, "dtype": "uint8"},
        {"metadata": {"shape": [10], "chunks": [0]}, "dtype": "uint8"},
        {"metadata": {"shape": [10], "chunks": [3, 3]}, "dtype": "uint8"},
        {"metadata": {"shape": [10], "chunks": [3]}, "dtype": "uint8", "schema": {"chunk_layout": {"chunk": {"shape": [4]}}}},
        {"metadata": {"shape": [10], "chunks": [3]}, "dtype": "uint8", "schema": {"chunk_layout": {"chunk": {"shape_soft_constraint": [4]}}}},
        {"metadata": {"shape": [10], "chunks": [3]}, "dtype": "uint8", "schema": {"chunk_layout": {"read_chunk": {"shape": [4]}}}},
        {**d10, "schema": {"chunk_layout": {"grid_origin": [1, 0]}}},
        {**d10, "schema": {"chunk_layout": {"grid_origin": [0, 0]}}},
        {**d10, "schema": {"chunk_layout": {"grid_origin": [None, 0]}}},
        {**d10, "schema": {"chunk_layout": {"grid_origin_soft_constraint": [1, 1]}}},
        {**d10, "schema": {"chunk_layout": {"codec_chunk": {"shape": [2, 2]}}}},
        {**d10, "schema": {"chunk_layout": {"codec_chunk": {"shape_soft_constraint": [2, 2]}}}},
        {**d10, "schema": {"chunk_layout": {"codec_chunk": {"aspect_ratio": [1, 2]}}}},
        {**d10, "schema": {"chunk_layout": {"write_chunk": {"shape": [5, 5]}, "read_chunk": {"shape": [5, 5]}}}},
        {**d10, "schema": {"chunk_layout": {"write_chunk": {"shape": [5, 5]}, "read_chunk": {"shape": [2, 5]}}}},
        {**d10, "schema": {"chunk_layout": {"write_chunk": {"shape": [5, 5]}}}},
        {**d10, "schema": {"chunk_layout": {"read_chunk": {"shape": [5, 0]}}}},
        {**d10, "schema": {"chunk_layout": {"write_chunk": {"shape_soft_constraint": [4, 4]}, "read_chunk": {"shape": [2, 0]}}}},
        {**d10, "schema": {"chunk_layout": {"write_chunk": {"elements": 10}, "read_chunk": {"elements": 20}}}},
        {**d10, "schema": {"chunk_layout": {"write_chunk": {"elements": 10}, "read_chunk": {"elements_soft_constraint": 20}}}},
        {**d10, "schema": {"chunk_layout": {"write_chunk": {"elements_soft_constraint": 10}, "read_chunk": {"elements": 20}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"elements": 0}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"elements": -5}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"elements": 7}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"elements": 1e3}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"elements": "30"}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"shape": ["3", 4]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"shape": [3.0, 4]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"shape": [3.5, 4]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"shape": [-1, 4]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"shape": [-2, 4]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"shape": [None, 4]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"shape": [3, 4, 5]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"aspect_ratio": [0.5, "2"]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"aspect_ratio": [-1, 1]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"aspect_ratio": [0, 0]}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"aspect_ratio": [None, 3], "elements": 20}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"aspect_ratio": [1, 3], "elements": 20}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"aspect_ratio_soft_constraint": [1, 3], "elements_soft_constraint": 20}}}},
        {**d10, "schema": {"chunk_layout": {"chunk": {"bogus": 1}}}},
        {**d10, "schema": {"chunk_layout": {"bogus": 1}}},
        {**d10, "schema": {"chunk_layout": {"rank": 3}}},
        {**d10, "schema": {"chunk_layout": {"rank": 2}}},
        {**d10, "schema": {"chunk_layout": {"inner_order": [1, 0]}}},
        {**d10, "schema": {"chunk_layout": {"inner_order": [1, 1]}}},
        {**d10, "schema": {"chunk_layout": {"inner_order": [0, 1, 2]}}},
        {**d10, "schema": {"chunk_layout": {"inner_order": None}}},
        {**d10, "schema": {"chunk_layout": {"inner_order": [1, 0]}}, "metadata": {"shape": [10, 10], "order": "C"}},
        {**d10, "schema": {"chunk_layout": {"inner_order_soft_constraint": [1, 0]}}, "metadata": {"shape": [10, 10], "order": "C"}},
        {**d10, "schema": {"chunk_layout": {"inner_order_soft_constraint": [1, 0]}}},
        {"metadata": {"shape": [10], "order": "F"}, "dtype": "uint8"},
        {"metadata": {"shape": [], "order": "F"}, "dtype": "uint8"},
        {"metadata": {"shape": [10, 3], "order": "F"}, "dtype": "uint8"},
        {"metadata": {"shape": [10, 3], "order": "K"}, "dtype": "uint8"},
        {"metadata": {"shape": [0, 0, 5]}, "dtype": "uint8"},
        {"metadata": {"shape": [1, 1, 1, 1, 1, 1]}, "dtype": "uint8"},
        {"metadata": {"shape": [2 ** 40, 2 ** 20]}, "dtype": "uint8"},
        {"metadata": {"shape": [2 ** 40, 2 ** 20], "chunks": [2 ** 32, 2 ** 32]}, "dtype": "uint8"},
        {"metadata": {"shape": [-1]}, "dtype": "uint8"},
        {"metadata": {"shape": [10.0]}, "dtype": "uint8"},
        {"metadata": {"shape": [10.5]}, "dtype": "uint8"},
        {"metadata": {"shape": ["10"]}, "dtype": "uint8"},
        # domains
        {**d10, "schema": {"domain": {"inclusive_min": [1, 0], "shape": [10, 10]}}},
        {**d10, "schema": {"domain": {"labels": ["x", "y"]}}},
        {**d10, "schema": {"domain": {"labels": ["x", "x"]}}},
        {**d10, "schema": {"domain": {"shape": [10, 11]}}},
        {**d10, "schema": {"domain": {"exclusive_max": [10, [10]]}}},
        {**d10, "schema": {"domain": {"inclusive_max": [9, 9]}}},
        {**d10, "schema": {"domain": {"shape": [10, 10], "exclusive_max": [10, 10]}}},
        {**d10, "schema": {"domain": {}}},
        {**d10, "schema": {"domain": {"rank": 2}}},
        {**d10, "schema": {"domain": {"rank": 3}}},
        {"schema": {"domain": {"exclusive_max": [10, 20]}}, "dtype": "int16"},
        {"schema": {"domain": {"inclusive_min": [0, 0], "exclusive_max": [10, 20]}}, "dtype": "int16"},
        {"schema": {"domain": {"inclusive_min": [0, 0], "exclusive_max": ["+inf", 20]}}, "dtype": "int16"},
        {"schema": {"domain": {"inclusive_min": [0, 0], "exclusive_max": [[10], [20]]}}, "dtype": "int16"},
        {"schema": {"domain": {"shape": [10, 20], "labels": ["a", ""]}}, "dtype": "int16"},
        {"schema": {"domain": {"shape": [10, 20]}, "rank": 3}, "dtype": "int16"},
        {"schema": {"domain": {"shape": [10, 20]}}, "rank": 2, "dtype": "int16"},
        {"schema": {"domain": {"shape": [10, 20]}}, "rank": 3, "dtype": "int16"},
        {"schema": {"domain": {"shape": [10, 20]}}, "metadata": {"shape": [10, 20]}, "dtype": "int16"},
        {"schema": {"dimension_units": ["nm", None], "domain": {"shape": [10, 20]}}, "dtype": "int16"},
        {"schema": {"dimension_units": [None, None], "domain": {"shape": [10, 20]}}, "dtype": "int16"},
        {"schema": {"dimension_units": [None], "domain": {"shape": [10, 20]}}, "dtype": "int16"},
        {"schema": {"dimension_units": [[4, "nm"], None], "domain": {"shape": [10, 20]}}, "dtype": "int16"},
        {"schema": {"domain": {"shape": [10, 20]}}, "dtype": "int16", "transform": {"input_shape": [10, 20]}},
        {"schema": {"domain": {"shape": [10, 20]}}, "dtype": "int16", "transform": {"input_shape": [10, 21]}},
        {"dtype": "int16", "transform": {"input_shape": [10, 20]}},
        {"dtype": "int16", "transform": {"input_inclusive_min": [0, 0], "input_exclusive_max": [[10], [20]]}},
        {"dtype": "int16", "metadata": {"shape": [10, 20]}, "transform": {"input_inclusive_min": [0, 0], "input_exclusive_max": [[10], [20]]}},
        {"dtype": "int16", "metadata": {"shape": [10, 20]}, "transform": {"input_shape": [10, 20], "output": [{"input_dimension": 0}, {"input_dimension": 1}]}},
        {"dtype": "int16", "metadata": {"shape": [10, 20]}, "transform": {"input_shape": [10, 20]}, "rank": 3},
        # codecs and compressors
        {**d10, "metadata": {"shape": [10, 10], "filters": []}},
        {**d10, "metadata": {"shape": [10, 10], "filters": [{"id": "delta"}]}},
        {**d10, "metadata": {"shape": [10, 10], "filters": {}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": None}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "zlib"}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "gzip", "level": 9}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "zlib", "level": 10}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "bz2"}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "bz2", "level": 0}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "zstd", "level": -5}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "zstd", "level": 23}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "blosc", "typesize": 1}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "blosc", "cname": "lz5"}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "blosc", "cname": "zstd", "clevel": 9, "shuffle": 2, "blocksize": 256}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "blosc", "shuffle": 3}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "blosc", "blocksize": -1}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "lz4"}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "lzma"}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"level": 1}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": "zlib"}},
        {**d10, "schema": {"codec": {"driver": "zarr", "compressor": {"id": "zstd"}}}},
        {**d10, "schema": {"codec": {"driver": "zarr2", "compressor": {"id": "zstd"}}}},
        {**d10, "schema": {"codec": {"driver": "zarr", "compressor": None}}},
        {**d10, "schema": {"codec": {"driver": "zarr3"}}},
        {**d10, "schema": {"codec": {"driver": "n5"}}},
        {**d10, "schema": {"codec": {"driver": "bogus"}}},
        {**d10, "schema": {"codec": {"compressor": None}}},
        {**d10, "schema": {"codec": {"driver": "zarr", "bogus": 1}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "zlib"}}, "schema": {"codec": {"driver": "zarr", "compressor": {"id": "zlib", "level": 1}}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": {"id": "zlib"}}, "schema": {"codec": {"driver": "zarr", "compressor": {"id": "zlib", "level": 2}}}},
        {**d10, "metadata": {"shape": [10, 10], "compressor": None}, "schema": {"codec": {"driver": "zarr", "compressor": {"id": "zlib"}}}},
        {**d10, "schema": {"codec": {"driver": "zarr", "filters": []}}},
        {**d10, "schema": {"codec": {"driver": "zarr", "filters": None}}},
        {**d10, "schema": {"codec": {"driver": "zarr", "filters": [{"id": "delta"}]}}},
        # separators and keys
        {**d10, "key_encoding": "/"},
        {**d10, "key_encoding": "."},
        {**d10, "key_encoding": "-"},
        {**d10, "metadata": {"shape": [10, 10], "dimension_separator": "."}, "key_encoding": "/"},
        {**d10, "metadata": {"shape": [10, 10], "dimension_separator": "/"}, "key_encoding": "/"},
        {**d10, "metadata": {"shape": [10, 10], "dimension_separator": "/"}},
        {**d10, "metadata_key": "zarray"},
        {**d10, "metadata_key": 5},
        # members and open modes
        {**d10, "bogus": 1},
        {**d10, "metadata": {"shape": [10, 10], "bogus": 1}},
        {**d10, "schema": {"bogus": 1}},
        {**d10, "metadata": {"shape": [10, 10], "zarr_format": 3}},
        {**d10, "metadata": {"shape": [10, 10], "zarr_format": 2}},
        {**d10, "driver": "zarr"},
        {**d10, "driver": "zarr3"},
        {**d10, "driver": "bogus"},
        {**d10, "create": True, "open": True},
        {**d10, "create": "yes"},
        {**d10, "delete_existing": True},
        {**d10, "delete_existing": True, "open": True},
        {**d10, "assume_metadata": True},
        {**d10, "assume_metadata": True, "open": True},
        {**d10, "assume_cached_metadata": True},
        {**d10, "allow_metadata_mismatch": False},
        {**d10, "allow_metadata_mismatch": True},
        {**d10, "fill_missing_data_reads": False, "store_data_equal_to_fill_value": True},
        {**d10, "fill_missing_data_reads": 0},
        {**d10, "recheck_cached_data": "open", "recheck_cached_metadata": False},
        {**d10, "recheck_cached_data": 1700000000.5},
        {**d10, "recheck_cached_data": "always"},
        {**d10, "cache_pool": {"total_bytes_limit": 1000000}},
        {**d10, "cache_pool": "cache_pool#nope"},
        {**d10, "cache_pool": {"total_bytes_limit": -1}},
        {**d10, "cache_pool": {"bogus": 1}},
        {**d10, "data_copy_concurrency": {"limit": 2}},
        {**d10, "data_copy_concurrency": {"limit": 0}},
        {**d10, "context": {"cache_pool": {"total_bytes_limit": 5}}},
        {**d10, "context": {"cache_pool#a": {"total_bytes_limit": 5}}, "cache_pool": "cache_pool#a"},
        {**d10, "context": {"bogus": {}}},
        {**d10, "path": "sub"},
        {**d10, "field": ""},
        {**d10, "field": 3},
    ]
    return cases


# --- a seeded random mix --------------------------------------------------------------------------

SCALAR_TS = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
             "float64", "complex64", "complex128", "bfloat16", "float8_e4m3fn", "float8_e5m2", "int4"]
TYPESTRS = ["|b1", "|i1", "|u1", "<i2", ">i2", "<u2", ">u4", "<i8", ">u8", "<f2", ">f4", "<f8", ">f8", "<c8", ">c16",
            "|S1", "|S7", "|V2", "|V5", "bfloat16", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e3m4", "int2"]


def random_fill(rng, ts_dtype):
    if ts_dtype == "bool":
        return rng.choice([True, False])
    if ts_dtype.startswith("uint"):
        return rng.choice([0, 1, 7, 200])
    if ts_dtype.startswith("int"):
        return rng.choice([0, -1, 3, 100])
    if ts_dtype.startswith("complex"):
        return None
    return rng.choice([0.0, -1.5, 0.1, 3.25, 1e20, "NaN", "Infinity", 65504.0, 1e-3])


def typestr_ts(t):
    table = {"b": "bool", "S": "char", "V": "byte"}
    if t[1] in table and len(t) > 2 and t[0] in "<>|":
        return table[t[1]]
    if t[1] in "iu" and t[0] in "<>|":
        return {"i": "int", "u": "uint"}[t[1]] + str(8 * int(t[2:]))
    if t[1] == "f" and t[0] in "<>":
        return "float" + str(8 * int(t[2:]))
    if t[1] == "c" and t[0] in "<>":
        return "complex" + str(8 * int(t[2:]))
    return t


def random_case(rng):
    rank = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 6])
    sizes = [0, 1, 2, 3, 5, 7, 10, 13, 64, 100, 127, 1000, 4096, 100000]
    shape = []
    for _ in range(rank):
        shape.append(rng.choice(sizes[:10] if rank > 3 else sizes))
    spec = {}
    metadata = {}
    schema = {}
    layout = {}
    ts_dtype = None
    structured = False
    # data type
    how = rng.random()
    if how < 0.45:
        ts_dtype = rng.choice(SCALAR_TS)
        (schema if rng.random() < 0.5 else spec)["dtype"] = ts_dtype
    elif how < 0.85:
        t = rng.choice(TYPESTRS)
        metadata["dtype"] = t
        ts_dtype = typestr_ts(t)
    else:
        fields = [["a", rng.choice(["<u2", ">i4", "|u1"])]]
        if rng.random() < 0.7:
            fields.append(["b", rng.choice(["<f4", "<f8", "|b1"]), rng.choice([[2], [2, 3], [1]])])
        metadata["dtype"] = fields
        structured = True
        pick = rng.choice(["a", "b"] if len(fields) > 1 else ["a"])
        spec["field"] = pick
        ts_dtype = typestr_ts(dict((f[0], f[1]) for f in fields)[pick])
    # shape
    where = rng.random()
    if where < 0.5:
        metadata["shape"] = shape
    elif where < 0.9 and not structured:
        schema["domain"] = {"shape": shape}
    else:
        metadata["shape"] = shape
        if not structured:
            schema["domain"] = {"shape": shape}
    # chunks
    r = rng.random()
    field_rank = 0
    if structured:
        sub = dict((f[0], f[2] if len(f) > 2 else []) for f in metadata["dtype"])[spec["field"]]
        field_rank = len(sub)
    full = rank + field_rank
    if ts_dtype in ("char", "byte"):
        full = rank + 1
    if r < 0.2:
        metadata["chunks"] = [max(1, min(s, rng.choice([1, 2, 3, 10, 64]))) for s in shape]
    elif r < 0.35:
        layout["chunk"] = {"shape": [rng.choice([0, 0, 1, 5, -1, 32]) for _ in range(full)]}
    elif r < 0.5:
        layout["chunk"] = {"aspect_ratio": [rng.choice([0, 1, 2, 0.5, 3, 10]) for _ in range(full)]}
        if rng.random() < 0.6:
            layout["chunk"]["elements"] = rng.choice([1, 10, 100, 1000, 4096, 65536, 2000000])
    elif r < 0.6:
        layout["chunk"] = {"elements": rng.choice([1, 7, 100, 1000, 12345, 1 << 20, 1 << 24])}
    elif r < 0.7:
        layout["write_chunk"] = {"shape_soft_constraint": [rng.choice([0, 4, 16]) for _ in range(full)]}
        layout["read_chunk"] = {"aspect_ratio_soft_constraint": [rng.choice([1, 2]) for _ in range(full)],
                                "elements_soft_constraint": rng.choice([100, 5000])}
    elif r < 0.75:
        layout["read_chunk"] = {"shape": [rng.choice([0, 3]) for _ in range(full)]}
        layout["write_chunk"] = {"elements": rng.choice([50, 500])}
    # order
    o = rng.random()
    if o < 0.15:
        metadata["order"] = rng.choice(["C", "F"])
    elif o < 0.3 and full > 0:
        perm = list(range(full))
        if rng.random() < 0.5:
            perm[:rank] = reversed(perm[:rank])
        else:
            rng.shuffle(perm)
        layout["inner_order" if rng.random() < 0.6 else "inner_order_soft_constraint"] = perm
    # compressor
    c = rng.random()
    compressors = [None, {"id": "zlib", "level": rng.randint(0, 9)}, {"id": "gzip"}, {"id": "bz2", "level": rng.randint(1, 9)},
                   {"id": "zstd", "level": rng.choice([-3, 1, 5, 22])},
                   {"id": "blosc", "cname": rng.choice(["lz4", "zstd", "blosclz", "lz4hc", "zlib", "snappy"]),
                    "clevel": rng.randint(0, 9), "shuffle": rng.choice([-1, 0, 1, 2])},
                   {"id": "blosc"}, {"id": "blosc", "shuffle": 2}]
    if c < 0.3:
        metadata["compressor"] = rng.choice(compressors)
    elif c < 0.45:
        schema["codec"] = {"driver": "zarr", "compressor": rng.choice(compressors)}
    # fill value
    f = rng.random()
    if f < 0.3 and not structured and ts_dtype not in ("char", "byte"):
        fill = random_fill(rng, ts_dtype)
        if fill is not None:
            if "dtype" in metadata and rng.random() < 0.6:
                metadata["fill_value"] = fill
            else:
                schema["fill_value"] = fill
    # separator
    s = rng.random()
    if s < 0.15:
        metadata["dimension_separator"] = rng.choice([".", "/"])
    elif s < 0.25:
        spec["key_encoding"] = rng.choice([".", "/"])
    if layout:
        schema["chunk_layout"] = layout
    if metadata:
        spec["metadata"] = metadata
    if schema:
        spec["schema"] = schema
    return spec


def create_cases():
    cases = reference_examples() + hand_picked()
    rng = random.Random(19)
    cases += [random_case(rng) for _ in range(400)]
    return [run_create(spec) for spec in cases]


# --- open specs -------------------------------------------------------------------------------------

BASES = {
    "u2": {"metadata": {"shape": [100, 200], "chunks": [10, 20], "dtype": "<u2", "fill_value": 7,
                        "compressor": {"id": "zlib", "level": 1}, "order": "C"}},
    "f4f": {"metadata": {"shape": [30, 40, 5], "chunks": [7, 8, 5], "dtype": ">f4", "order": "F"}},
    "rec": {"metadata": {"shape": [12, 6], "chunks": [5, 5], "dtype": [["x", "<u2", [2, 3]], ["y", "<f4", [5]]],
                         "fill_value": "AQACAAMABAAFAAYAAAAgQQAAMEEAAEBBAABQQQAAYEE="}, "field": "x"},
    "s5": {"metadata": {"shape": [8], "chunks": [3], "dtype": "|S5", "fill_value": "aGVsbG8="}},
    "slash": {"metadata": {"shape": [9, 9], "chunks": [3, 3], "dtype": "<i8", "dimension_separator": "/"}},
}

OPENS = {
    "u2": [
        {}, {"metadata": {"shape": [100, 200]}}, {"metadata": {"shape": [100, 201]}},
        {"metadata": {"chunks": [10, 20]}}, {"metadata": {"chunks": [10, 21]}},
        {"metadata": {"dtype": "<u2"}}, {"metadata": {"dtype": ">u2"}}, {"metadata": {"dtype": "<u2", "fill_value": 7}},
        {"metadata": {"dtype": "<u2", "fill_value": 8}}, {"metadata": {"compressor": {"id": "zlib"}}},
        {"metadata": {"compressor": {"id": "zlib", "level": 2}}}, {"metadata": {"compressor": None}},
        {"metadata": {"order": "C"}}, {"metadata": {"order": "F"}}, {"metadata": {"dimension_separator": "/"}},
        {"metadata": {"dimension_separator": "."}}, {"key_encoding": "/"}, {"metadata": {"filters": None}},
        {"dtype": "uint16"}, {"dtype": "int16"}, {"rank": 2}, {"rank": 3},
        {"schema": {"domain": {"shape": [100, 200]}}}, {"schema": {"domain": {"shape": [100, 100]}}},
        {"schema": {"domain": {"exclusive_max": [[50], 200]}}}, {"schema": {"domain": {"labels": ["y", "x"]}}},
        {"schema": {"domain": {"inclusive_min": [1, 0]}}},
        {"schema": {"fill_value": 7}}, {"schema": {"fill_value": 8}}, {"schema": {"fill_value": "7"}},
        {"schema": {"codec": {"driver": "zarr", "compressor": {"id": "zlib", "level": 1}}}},
        {"schema": {"codec": {"driver": "zarr", "compressor": {"id": "blosc"}}}},
        {"schema": {"codec": {"driver": "zarr", "compressor": None}}},
        {"schema": {"codec": {"driver": "zarr3"}}},
        {"schema": {"chunk_layout": {"chunk": {"shape": [10, 20]}}}},
        {"schema": {"chunk_layout": {"chunk": {"shape": [10, 10]}}}},
        {"schema": {"chunk_layout": {"chunk": {"shape_soft_constraint": [10, 10]}}}},
        {"schema": {"chunk_layout": {"chunk": {"aspect_ratio": [1, 5], "elements": 5}}}},
        {"schema": {"chunk_layout": {"inner_order": [0, 1]}}}, {"schema": {"chunk_layout": {"inner_order": [1, 0]}}},
        {"schema": {"chunk_layout": {"inner_order_soft_constraint": [1, 0]}}},
        {"schema": {"chunk_layout": {"grid_origin": [0, 0]}}}, {"schema": {"chunk_layout": {"grid_origin": [0, 1]}}},
        {"schema": {"chunk_layout": {"codec_chunk": {"shape": [10, 20]}}}},
        {"schema": {"dimension_units": ["nm", None]}},
        {"field": "x"}, {"open_as_void": True}, {"metadata_key": "zarray"},
        {"transform": {"input_shape": [100, 200]}}, {"transform": {"input_exclusive_max": [[100], [200]], "input_inclusive_min": [0, 0]}},
        {"create": True, "open": True}, {"create": True}, {"create": True, "delete_existing": True, "metadata": {"shape": [5], "dtype": "|u1"}},
        {"assume_metadata": True, "metadata": {"shape": [100, 200], "chunks": [10, 20], "dtype": "<u2"}},
        {"assume_metadata": True, "metadata": {"dtype": "<u2"}},
    ],
    "f4f": [
        {}, {"metadata": {"order": "F"}}, {"metadata": {"order": "C"}},
        {"schema": {"chunk_layout": {"inner_order": [2, 1, 0]}}}, {"schema": {"chunk_layout": {"inner_order": [0, 1, 2]}}},
        {"dtype": "float32"}, {"metadata": {"dtype": "<f4"}}, {"schema": {"fill_value": 0}},
        {"schema": {"fill_value": None}},
    ],
    "rec": [
        {}, {"field": "x"}, {"field": "y"}, {"field": "z"}, {"field": "x", "rank": 4}, {"field": "x", "rank": 5},
        {"field": "y", "dtype": "float32"}, {"field": "y", "dtype": "uint16"},
        {"field": "x", "schema": {"fill_value": [[1, 2, 3], [4, 5, 6]]}}, {"field": "x", "schema": {"fill_value": [1, 2, 3]}},
        {"field": "y", "schema": {"fill_value": [10, 11, 12, 13, 14]}},
        {"field": "x", "schema": {"domain": {"shape": [12, 6, 2, 3]}}}, {"field": "x", "schema": {"domain": {"shape": [12, 6, 3, 2]}}},
        {"field": "x", "schema": {"chunk_layout": {"chunk": {"shape": [5, 5, 2, 3]}}}},
        {"open_as_void": True}, {"open_as_void": True, "rank": 3}, {"open_as_void": True, "dtype": "byte"},
    ],
    "s5": [{}, {"dtype": "char"}, {"rank": 2}, {"rank": 1}, {"schema": {"fill_value": 104}}, {"open_as_void": True}],
    "slash": [{}, {"metadata": {"dimension_separator": "/"}}, {"metadata": {"dimension_separator": "."}}, {"key_encoding": "."}],
}


def open_cases():
    out = []
    for name, base in BASES.items():
        path = fresh_path()
        full = {"driver": "zarr2", "kvstore": {"driver": "memory", "path": path}, "create": True, **base}
        ts.open(full, context=CTX).result()
        created = KV.read(path + ".zarray").result().value.decode()
        for spec in OPENS[name]:
            full = {"driver": "zarr2", "kvstore": {"driver": "memory", "path": path}, **spec}
            case = {"base": name, "spec": spec}
            try:
                t = ts.open(full, context=CTX).result()
                case["shape"] = list(t.shape)
                case["dtype"] = t.dtype.name
                case["domain"] = [list(t.domain.inclusive_min), list(t.domain.exclusive_max)]
            except Exception as e:  # noqa: BLE001
                case["error"] = clean(e)
            after = KV.read(path + ".zarray").result()
            if after.state == "value" and after.value.decode() != created:
                case["zarray_after"] = after.value.decode()
                # put the base back for the next spec
                ts.open({"driver": "zarr2", "kvstore": {"driver": "memory", "path": path}, "create": True,
                         "delete_existing": True, **base}, context=CTX).result()
            out.append(case)
    return {"bases": {k: {"spec": v, "zarray": created_zarray(k, v)} for k, v in BASES.items()}, "cases": out}


def created_zarray(name, base):
    path = fresh_path()
    ts.open({"driver": "zarr2", "kvstore": {"driver": "memory", "path": path}, "create": True, **base}, context=CTX).result()
    return KV.read(path + ".zarray").result().value.decode()


# --- s3 kvstore specs and URLs ------------------------------------------------------------------
# Parsed (ts.Spec) and opened as a kvstore (ts.KvStore.open: TensorStore's checks at open, which
# send no request: no spec here needs the bucket's region looked up before the first read).

def s3_kvstores():
    b = {"driver": "s3", "bucket": "bbb"}
    specs = [
        {"driver": "s3", "bucket": "my-bucket"},
        {"driver": "s3", "bucket": "my-bucket", "path": "a/b"},
        {"driver": "s3", "bucket": "my.dotted.bucket", "path": "x.zarr/", "aws_region": "eu-west-1"},
        {"driver": "s3"},
        {"driver": "s3", "bucket": ""},
        {"driver": "s3", "bucket": "", "endpoint": "https://mybucket.example.com"},
        *({"driver": "s3", "bucket": name} for name in [
            "ab", "abc", "a" * 63, "a" * 64, "A" * 64, "a" * 255, "a" * 256, "My_Bucket", "a..b", "a.-b", "1.2.3.4",
            "1.2.3.4.5", "xn--abc", "abc-s3alias", "abc--ol-s3", "sthree-abc", "-abc", "abc-", "_abc", "ab_c",
            "a b c", "abc/d", "ABC"]),
        {"driver": "s3", "bucket": 5},
        {**b, "requester_pays": "yes"},
        {**b, "requester_pays": True},
        {**b, "requester_pays": False},
        {**b, "host_header": "x"},
        {**b, "host_header": ""},
        {**b, "host_header": 1, "endpoint": "http://localhost:1"},
        {**b, "endpoint": "http://localhost:1", "host_header": "bbb.s3.localstack.localhost.com"},
        {**b, "endpoint": "ftp://x"},
        {**b, "endpoint": "x"},
        {**b, "endpoint": "http://x?q=1"},
        {**b, "endpoint": "http://x#f"},
        {**b, "endpoint": "http://127.0.0.1:9000"},
        {**b, "endpoint": "https://s3.example.com/base/"},
        {**b, "endpoint": ""},
        {**b, "endpoint": "", "host_header": "h"},
        {**b, "endpoint": 3},
        {**b, "aws_region": 3},
        {**b, "aws_region": "eu-west-1"},
        {**b, "aws_region": ""},
        {"driver": "s3", "bucket": "Old_Bucket", "aws_region": "eu-west-1"},
        {"driver": "s3", "bucket": "Old_Bucket", "aws_region": "us-east-1"},
        {"driver": "s3", "bucket": "Old_Bucket"},
        {**b, "use_conditional_write": True},
        {**b, "use_conditional_write": False},
        {**b, "use_conditional_write": "x"},
        *({**b, "aws_credentials": c} for c in [
            {"type": "anonymous"}, {"type": "environment"}, {"type": "default"}, {"type": "default", "profile": "x"},
            {"type": "profile"}, {"type": "profile", "profile": "x", "config_file": "/nonexistent/a", "credentials_file": "/nonexistent/b"},
            {"type": "imds"}, {"type": "ecs", "endpoint": "http://x", "auth_token_file": "/t"},
            {"type": "nope"}, {}, {"type": 5}, {"type": "anonymous", "x": 1}, {"type": "environment", "profile": "x"},
            {"type": "profile", "profile": 1}, "aws_credentials", "aws_credentials#x", "cache_pool", 5]),
        {**b, "s3_request_concurrency": {"limit": 4}},
        {**b, "s3_request_concurrency": {"limit": 0}},
        {**b, "s3_request_concurrency": {"limit": "shared"}},
        {**b, "s3_request_concurrency": {"limit": "x"}},
        {**b, "s3_request_concurrency": {}},
        {**b, "s3_request_concurrency": {"x": 1}},
        {**b, "s3_request_retries": {"max_retries": 3, "initial_delay": "10ms", "max_delay": "1s"}},
        {**b, "s3_request_retries": {"max_retries": 0}},
        {**b, "s3_request_retries": {"initial_delay": "1h30m", "max_delay": "1.5s"}},
        {**b, "s3_request_retries": {"initial_delay": "x"}},
        {**b, "s3_request_retries": {"initial_delay": 5}},
        {**b, "s3_request_retries": {"x": 1}},
        {**b, "experimental_s3_rate_limiter": {"read_rate": 10, "write_rate": 5.5, "doubling_time": "10s"}},
        {**b, "experimental_s3_rate_limiter": {"read_rate": "x"}},
        {**b, "experimental_s3_rate_limiter": {"y": 1}},
        {**b, "data_copy_concurrency": {"limit": 2}},
        {**b, "data_copy_concurrency": 5},
        {**b, "extra": 1},
        {**b, "context": {}},
    ]
    urls = ["s3://bbb", "s3://bbb/", "s3://bbb/a/b", "s3://bbb/a%20b/c%7E", "s3://ab/x", "s3://My_Bucket/x",
            "s3://Old_Bucket", "s3:bbb/x", "s3://bbb/x?q", "s3://bbb/x#f", "s3://", "s3:///x", "s3://bbb/a%zz",
            "S3://bbb/x", "s3://bbb//x", "s3://xn--bucket/x"]
    out = []
    for kv in specs + urls:
        case = {"kvstore": kv}
        try:
            case["resolved"] = ts.Spec({"driver": "zarr2", "kvstore": kv}).to_json()["kvstore"]
        except Exception as e:  # noqa: BLE001
            case["error"] = clean(e)
        if "error" not in case:
            try:
                ts.KvStore.open(kv).result()
            except Exception as e:  # noqa: BLE001
                case["open_error"] = clean(e)
        out.append(case)
    return out


def generate(outdir):
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    creates = create_cases()
    (outdir / "create.json").write_text(json.dumps(creates, indent=1) + "\n")
    opens = open_cases()
    (outdir / "open.json").write_text(json.dumps(opens, indent=1) + "\n")
    kvstores = s3_kvstores()
    (outdir / "kvstore.json").write_text(json.dumps(kvstores, indent=1) + "\n")
    ok = sum(1 for c in creates if "error" not in c)
    print(f"{len(creates)} create specs ({ok} created, {len(creates) - ok} refused), {len(opens['cases'])} open specs, {len(kvstores)} s3 kvstores")


if __name__ == "__main__":
    if sys.argv[1:2] == ["generate"] and len(sys.argv) == 3:
        generate(sys.argv[2])
    else:
        print(__doc__)
        sys.exit(2)
