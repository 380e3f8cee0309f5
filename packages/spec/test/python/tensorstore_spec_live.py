#!/usr/bin/env python3
"""TensorStore's side of spec-tensorstore-live.test.ts: the same specs, opened by TensorStore 0.1.85.

Usage (the test runs it with the venv apps/bench/python/ensure-tensorstore.sh makes):

  python tensorstore_spec_live.py write CASES.json DIR   # TensorStore creates and writes each case under DIR
  python tensorstore_spec_live.py read CASES.json DIR    # TensorStore opens each case under DIR and reads it

CASES.json is a list of {"name", "spec", "write": [[start, stop], ...]} (the spec without its kvstore,
which is {"driver": "file", "path": DIR/name}; its driver "zarr2" unless the spec names "zarr3"); the values written are value(j) for the j-th element
of the region in C order, as the test's own `value` computes them. Both commands print a JSON object
of name -> {"values": every element of the array in C order, "zarray": the stored .zarray (or zarr.json) text,
"keys": the stored keys} or name -> {"error": TensorStore's message}; `read` also reads, for the
cases with "strict_read", the spec with "fill_missing_data_reads": false, and reports its error.
"""
import json
import os
import re
import sys

import numpy as np
import tensorstore as ts


def value(dtype, j):
    """The j-th value written: the test's `value` in TypeScript computes the same."""
    if dtype == "bool":
        return j % 3 == 0
    if dtype in ("int4", "int2"):
        return (j % 7) - 3 if dtype == "int4" else (j % 3) - 1
    if dtype.startswith("int") or dtype.startswith("uint"):
        return (j * 7 + 3) % 100
    if dtype.startswith("complex"):
        return complex(j * 0.25 - 10, j)
    return j * 0.25 - 10


def clean(error):
    s = str(error)
    s = re.sub(r" \[source locations='.*", "", s, flags=re.S)
    return re.sub(r" \[tensorstore_spec='.*", "", s, flags=re.S)


def full_spec(case, root, **extra):
    return {"driver": "zarr2", "kvstore": {"driver": "file", "path": os.path.join(root, case["name"]) + "/"},
            **case["spec"], **extra}


def plain(values, dtype):
    """Array values as JSON: numbers (complex as [re, im]), bools as bools."""
    flat = values.ravel()
    if dtype.startswith("complex"):
        return [[float(v.real), float(v.imag)] for v in flat]
    if dtype in ("bfloat16",) or dtype.startswith("float"):
        return [float(v) for v in flat.astype(np.float64)]
    if dtype == "bool":
        return [bool(v) for v in flat]
    return [int(v) for v in flat]


def describe(case, root, t):
    path = os.path.join(root, case["name"])
    keys = sorted(os.path.relpath(os.path.join(d, f), path).replace(os.sep, "/")
                  for d, _, files in os.walk(path) for f in files if not f.endswith(".__lock"))
    meta_key = "zarr.json" if case["spec"].get("driver") == "zarr3" else case["spec"].get("metadata_key", ".zarray")
    with open(os.path.join(path, meta_key)) as f:
        zarray = f.read()
    return {"values": plain(t.read().result(), t.dtype.name), "zarray": zarray, "keys": keys,
            "shape": list(t.shape), "dtype": t.dtype.name}


def write(cases, root):
    out = {}
    for case in cases:
        try:
            t = ts.open(full_spec(case, root, create=True, delete_existing=True)).result()
            region = tuple(slice(a, b) for a, b in case["write"])
            shape = [b - a for a, b in case["write"]]
            n = int(np.prod(shape))
            values = np.asarray([value(t.dtype.name, j) for j in range(n)], dtype=t.dtype.numpy_dtype).reshape(shape)
            t[region] = values
            if case.get("write_fill"):
                fill_region = tuple(slice(a, b) for a, b in case["write_fill"])
                t[fill_region] = np.zeros([b - a for a, b in case["write_fill"]], dtype=t.dtype.numpy_dtype)
            out[case["name"]] = describe(case, root, ts.open(full_spec(case, root)).result())
        except Exception as e:  # noqa: BLE001
            out[case["name"]] = {"error": clean(e)}
    print(json.dumps(out))


def read(cases, root):
    out = {}
    for case in cases:
        try:
            entry = describe(case, root, ts.open(full_spec(case, root)).result())
            if case.get("strict_read"):
                strict = ts.open(full_spec(case, root, fill_missing_data_reads=False)).result()
                try:
                    strict.read().result()
                    entry["strict_error"] = None
                except Exception as e:  # noqa: BLE001
                    entry["strict_error"] = clean(e)
            out[case["name"]] = entry
        except Exception as e:  # noqa: BLE001
            out[case["name"]] = {"error": clean(e)}
    print(json.dumps(out))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] in ("write", "read"):
        with open(sys.argv[2]) as f:
            cases = json.load(f)
        (write if sys.argv[1] == "write" else read)(cases, sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)
