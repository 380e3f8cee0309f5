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
import struct
import subprocess
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
        "large-f4": (np.round(smooth(40000, "<f8", seed=3) / 8) * 8).astype("<f4"),
        "large-i2": (np.arange(40000) // 3 % 1000).astype("<i2"),
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


CNAMES = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"]


def blosc_cases():
    w = Writer("blosc")
    data = inputs()
    by_size = {1: "text-u1", 2: "arange-i2", 4: "smooth-f4", 8: "smooth-f8"}
    for cname in CNAMES:
        # Every shuffle for each item size.
        for itemsize, name in by_size.items():
            for shuffle in (0, 1, 2, -1):
                codec = numcodecs.Blosc(cname, 5, shuffle)
                w.add(f"{name} {cname} clevel 5 shuffle {shuffle}", codec, name, data[name])
        # Levels, including 0 (stored).
        for clevel in (0, 1, 9):
            w.add(f"smooth-f4 {cname} clevel {clevel}", numcodecs.Blosc(cname, clevel, 1), "smooth-f4", data["smooth-f4"])
        # Forced block sizes, with a leftover block; bit shuffle of a leftover block.
        for blocksize in (256, 1000, 4096):
            for shuffle in (1, 2):
                codec = numcodecs.Blosc(cname, 5, shuffle, blocksize)
                w.add(f"odd-f4 {cname} blocksize {blocksize} shuffle {shuffle}", codec, "odd-f4", data["odd-f4"])
        w.add(f"odd-f4 {cname} automatic blocksize", numcodecs.Blosc(cname, 5, 1), "odd-f4", data["odd-f4"])
        # Several automatic blocks, split streams.
        for clevel in (1, 5, 9) if cname in ("lz4", "blosclz") else (5,):
            w.add(f"large-f4 {cname} clevel {clevel}", numcodecs.Blosc(cname, clevel, 1), "large-f4", data["large-f4"])
        w.add(f"large-i2 {cname} bitshuffle", numcodecs.Blosc(cname, 3, 2), "large-i2", data["large-i2"])
        # Incompressible data: falls back to a stored frame.
        w.add(f"random-u1 {cname}", numcodecs.Blosc(cname, 5, 0), "random-u1", data["random-u1"])
        w.add(f"random-f8 {cname}", numcodecs.Blosc(cname, 9, 1), "random-f8", data["random-f8"])
        # Item sizes other than 1, 2, 4, 8.
        w.add(f"u12-structured {cname}", numcodecs.Blosc(cname, 5, 1), "u12-structured", data["u12-structured"])
        w.add(f"u12-structured {cname} bitshuffle", numcodecs.Blosc(cname, 5, 2), "u12-structured", data["u12-structured"])
        w.add(f"bool-pattern {cname} autoshuffle", numcodecs.Blosc(cname, 5, -1), "bool-pattern", data["bool-pattern"])
        w.add(f"zeros-u1 {cname}", numcodecs.Blosc(cname, 5, 1), "zeros-u1", data["zeros-u1"])
        # Smaller than 128 bytes: always stored.
        for name in ("empty", "one-byte", "hello"):
            w.add(f"{name} {cname}", numcodecs.Blosc(cname, 5, 1), name, data[name])
    zarr_cases(w)
    w.write()


def zarr_arrays():
    """Arrays of every dtype, as zarr-python 2.13 writes them (one chunk each)."""
    rng = np.random.RandomState(7)
    n = 600
    base = np.linspace(-50, 50, n)
    return {
        "|b1": base > 3,
        "|i1": (base).astype("i1"),
        "|u1": (base + 60).astype("u1"),
        "<i2": (base * 300).astype("<i2"),
        "<u2": (base * 300 + 20000).astype("<u2"),
        "<i4": (base * 1e6).astype("<i4"),
        "<u4": (base * 1e6 + 1e8).astype("<u4"),
        "<i8": (base * 1e12).astype("<i8"),
        "<u8": (base * 1e12 + 1e14).astype("<u8"),
        ">i4": (base * 1e6).astype(">i4"),
        "<f2": base.astype("<f2"),
        "<f4": np.sin(base).astype("<f4"),
        "<f8": np.sin(base) * rng.normal(1, 0.01, n),
        "<c8": (base + 1j * base[::-1]).astype("<c8"),
        "<c16": base + 1j * np.cos(base),
        "<M8[ns]": (np.datetime64("2020-01-01T00:00:00", "ns") + (base * 1e9).astype("i8")).astype("<M8[ns]"),
        "<m8[s]": (base * 100).astype("<m8[s]"),
        "|S5": np.array([f"s{i % 1000}" for i in range(n)], dtype="|S5"),
        "<U4": np.array([f"u{i % 100}" for i in range(n)], dtype="<U4"),
        "|V12": np.array([(i, i / 2, -i) for i in range(n)], dtype=[("a", "<i4"), ("b", "<f4"), ("c", "<i4")]),
    }


def zarr_cases(w):
    import zarr

    for dtype, arr in zarr_arrays().items():
        compressors = [numcodecs.Blosc("lz4", 5, -1), numcodecs.Blosc("zstd", 3, 2)]
        if dtype in ("<f4", "<i2", "|S5", "|V12"):
            compressors += [numcodecs.Blosc("blosclz", 9, 1), numcodecs.Blosc("zlib", 1, 1, 256)]
        for compressor in compressors:
            store = {}
            z = zarr.array(arr, chunks=(len(arr),), compressor=compressor, store=store)
            assert z.dtype == arr.dtype
            enc = store["0"]
            raw = np.ascontiguousarray(arr).tobytes()
            name = f"zarr-{dtype}"
            w.inputs[name] = b64(raw)
            w.cases.append({"name": f"zarr-python {dtype} {compressor.cname} shuffle {compressor.shuffle}",
                            "config": compressor.get_config(), "input": name, "itemsize": arr.dtype.itemsize,
                            "encoded": b64(enc)})


def zstd_cli(raw, *args):
    return subprocess.run(["zstd", "-q", "-c", *args], input=raw, capture_output=True, check=True).stdout


def zstd_cases():
    w = Writer("zstd")
    data = inputs()
    for name in ["empty", "one-byte", "hello", "text-u1", "random-u1", "smooth-f4", "smooth-f8", "zeros-u1", "large-i2", "large-f4"]:
        for level in (1, 5) if name.startswith("large") else (-1, 1, 3, 9, 22):
            w.add(f"{name} level {level}", numcodecs.Zstd(level), name, data[name])
    # Frames numcodecs decodes that its own encoder does not write: no content size (streamed, as
    # TensorStore writes), content checksums, several frames, skippable frames. Made with the zstd
    # command line tool (1.5); reading from a pipe it writes no content size.
    codec = numcodecs.Zstd(1)
    extra = {}
    raw = data["large-f4"].tobytes()
    extra["large-f4 streamed with checksum"] = ("large-f4", zstd_cli(raw, "--check"))
    extra["large-f4 streamed without checksum"] = ("large-f4", zstd_cli(raw, "--no-check", "-19"))
    raw = data["text-u1"].tobytes()
    half = len(raw) // 2
    two = zstd_cli(raw[:half], "--check") + zstd_cli(raw[half:], "--no-check", "-3")
    extra["text-u1 in two frames"] = ("text-u1", two)
    skippable = struct.pack("<II", 0x184D2A5E, 5) + b"skip!"
    extra["text-u1 with skippable frames"] = ("text-u1", skippable + zstd_cli(raw[:half]) + skippable + zstd_cli(raw[half:]))
    raw = data["smooth-f8"].tobytes()
    extra["smooth-f8 long-distance fast level"] = ("smooth-f8", zstd_cli(raw, "--fast=3", "--check"))
    for name, (input_name, enc) in extra.items():
        arr = data[input_name]
        # numcodecs 0.11 decodes only frames that state their content size.
        try:
            ok = bytes(codec.decode(enc)) == arr.tobytes()
        except RuntimeError:
            ok = False
        w.inputs[input_name] = b64(arr.tobytes())
        w.cases.append({"name": name, "config": codec.get_config(), "input": input_name, "itemsize": arr.dtype.itemsize,
                        "encoded": b64(enc), "numcodecs_decodes": ok})
    w.write()


def main():
    os.makedirs(OUT, exist_ok=True)
    blosc.use_threads = False
    which = sys.argv[1:] or ["lz4", "blosc", "zstd"]
    if "lz4" in which:
        lz4_cases()
    if "blosc" in which:
        blosc_cases()
    if "zstd" in which:
        zstd_cases()


if __name__ == "__main__":
    main()
