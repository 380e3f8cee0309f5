"""Object arrays (dtype "|O") in the conformance fixtures.

Their values are Python objects, so instead of values.bin / expected.bin / sel-<i>.bin an object
case has values.json / expected.json / sel-<i>.json: the array's elements in C order as a flat
JSON list, each element encoded by `encode_element`:

  str, int, float, bool, None, list, dict   as JSON (floats are never integral here, so that
                                            1.0 and 1 cannot be confused)
  bytes                                     {"bytes": "<base64>"}
  numpy array (vlen-array elements)         {"array": [numbers], "dtype": "<i4"}

The object codec is the case's first filter; it decides what values are generated.
"""

import base64
import json

import numpy as np

VLEN_CHARS = list("aZ09 éß漢字\u00ff\U0001F600")
JSON_WORDS = ["", "a", "zarr", "é", "漢字", "\U0001F600", "x y"]


def is_object_case(case):
    return case["dtype"] in ("|O", "O", "object")


def object_codec_id(case):
    return case["filters"][0]["id"]


def encode_element(v):
    if isinstance(v, bytes):
        return {"bytes": base64.standard_b64encode(v).decode("ascii")}
    if isinstance(v, np.ndarray):
        return {"array": v.tolist(), "dtype": v.dtype.str}
    if isinstance(v, (list, tuple)):
        return [encode_element(x) for x in v]
    if isinstance(v, dict):
        return {k: encode_element(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return v.item()
    return v


def decode_element(e, codec):
    if isinstance(e, dict) and "bytes" in e:
        return base64.standard_b64decode(e["bytes"])
    if isinstance(e, dict) and "array" in e:
        return np.array(e["array"], dtype=e["dtype"])
    return e


def encode_array(a):
    """A JSON list of the elements of an object array (or one element, for a 0-d result) in C order."""
    if not isinstance(a, np.ndarray):
        return [encode_element(a)]
    return [encode_element(v) for v in a.ravel(order="C")]


def dumps(items):
    return "[\n" + ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in items) + "\n]\n"


def json_value(rng, depth=0):
    kind = rng.integers(0, 7 if depth < 2 else 5)
    if kind == 0:
        return int(rng.integers(-(2**40), 2**40))
    if kind == 1:
        return round(float(rng.standard_normal()) * 100, 3) + 0.0005  # never integral
    if kind == 2:
        return str(rng.choice(JSON_WORDS))
    if kind == 3:
        return bool(rng.integers(0, 2))
    if kind == 4:
        return None
    if kind == 5:
        return [json_value(rng, depth + 1) for _ in range(rng.integers(0, 4))]
    return {str(rng.choice(["a", "b", "k", "é"])) + str(i): json_value(rng, depth + 1) for i in range(rng.integers(0, 3))}


def object_values(case, n, rng):
    """n random elements for the case's object codec, as a 1-d object array."""
    codec = case["filters"][0]
    out = np.empty(n, dtype=object)
    for i in range(n):
        if codec["id"] == "vlen-utf8":
            out[i] = "".join(rng.choice(VLEN_CHARS, rng.integers(0, 7)))
        elif codec["id"] == "vlen-bytes":
            out[i] = bytes(rng.integers(0, 256, rng.integers(0, 7), dtype=np.uint8))
        elif codec["id"] == "vlen-array":
            dtype = np.dtype(codec["dtype"])
            length = rng.integers(0, 5)
            if dtype.kind == "f":
                out[i] = np.round(rng.standard_normal(length) * 1000, 2).astype(dtype)
            else:
                info = np.iinfo(dtype)
                out[i] = rng.integers(int(info.min), int(info.max), length, endpoint=True, dtype=np.int64).astype(dtype)
        else:  # json2, msgpack2
            out[i] = json_value(rng)
    return out
