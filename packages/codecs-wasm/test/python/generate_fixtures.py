"""Writes ../fixtures/numcodecs-0.11.json: bytes numcodecs 0.11 (c-blosc 1.21) produced.

Run with the Debian Python that has numcodecs 0.11 and zarr 2.13:

    /usr/bin/python3 packages/codecs-wasm/test/python/generate_fixtures.py

Each file holds "inputs" (base64 of the raw buffers, shared between cases) and "cases": the codec
config, the input's name, the item size the buffer was given to numcodecs with (blosc shuffles by
it) and what numcodecs encoded it to (base64). Inputs are kept small and compressible so the
files stay small.
"""
import base64
import json
import os
import sys

import numcodecs
import numpy as np
from numcodecs import blosc

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures")


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


def smooth(n, dtype, seed=0):
    """A smooth field plus a little noise, as array data tends to be."""
    rng = np.random.RandomState(seed)
    x = np.linspace(0, 8 * np.pi, n)
    values = 1000 * np.sin(x) + np.cumsum(rng.normal(0, 1, n))
    return values.astype(dtype)


def inputs():
    rng = np.random.RandomState(42)
    return {
        "empty": np.zeros(0, "u1"),
        "one-byte": np.array([42], "u1"),
        "hello": np.frombuffer(b"hello world, hello zarr, hello blosc!", "u1"),
        "text-u1": np.frombuffer(b"The quick brown fox jumps over the lazy dog. " * 40, "u1"),
        "random-u1": rng.randint(0, 256, 1500).astype("u1"),
        "arange-i2": np.arange(1500, dtype="<i2"),
        "smooth-f4": smooth(1500, "<f4"),
        "smooth-f8": smooth(1001, "<f8", seed=1),
        "arange-i8": np.arange(777, dtype="<i8"),
        "zeros-u1": np.zeros(5000, "u1"),
        "odd-f4": smooth(1234, "<f4", seed=2),
        "bool-pattern": (np.arange(3000) % 7 < 3).astype("|b1"),
        "large-f4": smooth(40000, "<f4", seed=3).round(1),
        "large-i2": (np.arange(70000) // 3 % 1000).astype("<i2"),
        "random-f8": rng.normal(0, 1, 300),
        "u12-structured": np.array([(i, i * 0.5, i % 3) for i in range(400)], dtype=[("a", "<i4"), ("b", "<f4"), ("c", "<i4")]),
    }


class Writer:
    def __init__(self, codec_id):
        self.codec_id = codec_id
        self.inputs = {}
        self.cases = []

    def add(self, name, codec, input_name, arr):
        raw = arr.tobytes()
        enc = codec.encode(arr)
        try:
            assert bytes(codec.decode(enc)) == raw, name
        except RuntimeError:
            # numcodecs 0.11's LZ4 cannot decode its own encoding of an empty buffer.
            assert raw == b"", name
        self.inputs[input_name] = b64(raw)
        self.cases.append(
            {
                "name": name,
                "config": codec.get_config(),
                "input": input_name,
                "itemsize": arr.dtype.itemsize,
                "encoded": b64(enc),
            }
        )

    def write(self):
        path = os.path.join(OUT, "numcodecs-0.11.json")
        if os.path.exists(path):
            with open(path) as f:
                old = json.load(f)
            # Keep the other codecs' cases (and the inputs they use).
            cases = [c for c in old["cases"] if c["config"]["id"] != self.codec_id] + self.cases
            inputs = {**old["inputs"], **self.inputs}
            self.cases = cases
            self.inputs = {k: v for k, v in inputs.items() if any(c["input"] == k for c in cases)}
        doc = {
            "numcodecs": numcodecs.__version__,
            "blosc": blosc.VERSION_STRING,
            "inputs": self.inputs,
            "cases": self.cases,
        }
        with open(path, "w") as f:
            json.dump(doc, f, indent=0, sort_keys=False)
            f.write("\n")
        print(f"{path}: {len(self.cases)} cases, {os.path.getsize(path)} bytes", file=sys.stderr)


def lz4_cases():
    w = Writer("lz4")
    data = inputs()
    for name in ["empty", "one-byte", "hello", "text-u1", "random-u1", "smooth-f4", "zeros-u1", "large-i2"]:
        for acc in (1, 10) if name != "large-i2" else (1,):
            w.add(f"{name} acceleration {acc}", numcodecs.LZ4(acc), name, data[name])
    w.write()


def main():
    os.makedirs(OUT, exist_ok=True)
    blosc.use_threads = False
    which = sys.argv[1:] or ["lz4", "blosc", "zstd"]
    if "lz4" in which:
        lz4_cases()


if __name__ == "__main__":
    main()
