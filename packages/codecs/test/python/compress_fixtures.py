"""Writes the bz2 and lzma fixtures under test/fixtures/{bz2,lzma}/ and checks our encoder's output.

Run from packages/codecs with /usr/bin/python3 (numcodecs 0.11, Python's bz2/lzma, xz-utils):

    pnpm --filter @z/codecs build            # our encoders, for the second step
    /usr/bin/python3 test/python/compress_fixtures.py

1. Python-made fixtures: deterministic inputs compressed by numcodecs BZ2/LZMA (and a few streams
   only Python's decompressors read: concatenated streams, trailing bytes, randomised blocks come
   from step 2). Each manifest entry names the file, the codec config to decode it with, the
   length and SHA-256 of what Python decodes it to (None when Python refuses it).
2. Our fixtures: the same inputs encoded by our TypeScript encoders (dist/, run through node
   test/python/encode_ours.mjs), decoded by Python here; the manifest records the SHA-256 Python
   computed of its decode (which must be the input's) and the size next to Python's own.
"""
import base64
import hashlib
import json
import lzma
import os
import subprocess
import sys
import tempfile
import time
import bz2 as _bz2

import numcodecs
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(PACKAGE, "test", "fixtures")


def inputs():
    rs = np.random.RandomState(0)
    return {
        "empty": b"",
        "one-byte": b"\x2a",
        "random-16k": rs.randint(0, 256, 16384).astype("u1").tobytes(),
        "text-50k": b"".join(b"line %d: the quick brown fox\n" % (i % 97) for i in range(1800)),
        "gradient-u1-256k": (np.add.outer(np.arange(512), np.arange(512)) // 4 % 256).astype("u1").tobytes(),
        "temps-f4-400k": np.round(20 + 5 * np.sin(np.arange(100000) / 500), 1).astype("<f4").tobytes(),
        "sine-i2-400k": (1000 * np.sin(np.arange(200000) / 100)).astype("<i2").tobytes(),
        "zeros-1m": bytes(1 << 20),
    }


def sha(data):
    return hashlib.sha256(bytes(data)).hexdigest()


class Manifest:
    def __init__(self, codec):
        self.codec = codec
        self.dir = os.path.join(FIXTURES, codec)
        os.makedirs(self.dir, exist_ok=True)
        for name in os.listdir(self.dir):
            os.remove(os.path.join(self.dir, name))
        self.entries = []

    def add(self, name, config, encoded, decoded_by, input_name=None, note=None, **extra):
        """Stores `encoded`; `decoded_by` decodes it as numcodecs/Python would (or raises)."""
        file = name.replace(" ", "-") + ".bin"
        with open(os.path.join(self.dir, file), "wb") as f:
            f.write(encoded)
        try:
            decoded = bytes(decoded_by(encoded))
            result = {"size": len(decoded), "sha256": sha(decoded)}
        except Exception as error:  # Python refuses it: so must we.
            result = {"error": f"{type(error).__name__}: {error}"}
        entry = {"name": name, "file": file, "config": config, "python": result}
        if input_name is not None:
            entry["input"] = input_name
        if note:
            entry["note"] = note
        entry.update(extra)
        self.entries.append(entry)
        return entry

    def write(self):
        with open(os.path.join(self.dir, "manifest.json"), "w") as f:
            json.dump(
                {
                    "numcodecs": numcodecs.__version__,
                    "python": sys.version.split()[0],
                    "xz": lzma_version(),
                    "inputs": {k: {"size": len(v), "sha256": sha(v)} for k, v in inputs().items()},
                    "fixtures": self.entries,
                },
                f,
                indent=1,
            )
            f.write("\n")
        total = sum(os.path.getsize(os.path.join(self.dir, e["file"])) for e in self.entries)
        print(f"{self.codec}: {len(self.entries)} fixtures, {total} bytes")


def lzma_version():
    out = subprocess.run(["xz", "--version"], capture_output=True, text=True).stdout.split("\n")[1]
    return out


def numcodecs_decode(codec):
    return lambda encoded: codec.decode(encoded)


# ----------------------------------------------------------------------------------------------
# bz2

def bz2_fixtures():
    m = Manifest("bz2")
    data = inputs()
    plan = [
        ("empty", [1]),
        ("one-byte", [1, 9]),
        ("random-16k", [9]),
        ("text-50k", [1, 9]),
        ("gradient-u1-256k", [1, 9]),
        ("temps-f4-400k", [1, 5]),
        ("sine-i2-400k", [1, 9]),
        ("zeros-1m", [1]),
    ]
    for name, levels in plan:
        for level in levels:
            codec = numcodecs.BZ2(level)
            m.add(f"{name} level {level}", codec.get_config(), codec.encode(data[name]), numcodecs_decode(codec), name)
    dec = numcodecs_decode(numcodecs.BZ2())
    config = numcodecs.BZ2().get_config()
    two = _bz2.compress(data["text-50k"], 9) + _bz2.compress(data["gradient-u1-256k"], 1)
    m.add("two streams", config, two, dec, note="text-50k then gradient-u1-256k")
    m.add("trailing garbage", config, _bz2.compress(data["text-50k"], 1) + b"garbage after the stream", dec, "text-50k")
    m.add("trailing zeros", config, _bz2.compress(data["text-50k"], 1) + bytes(10), dec, "text-50k")
    m.add("trailing truncated stream", config, _bz2.compress(data["text-50k"], 1) + b"BZh9", dec)
    m.add("empty input", config, b"", dec, "empty")
    full = _bz2.compress(data["temps-f4-400k"], 1)
    m.add("truncated", config, full[: len(full) // 2], dec)
    bad = bytearray(full)
    bad[len(bad) // 3] ^= 0x10
    m.add("bit flipped", config, bytes(bad), dec)
    return m


# ----------------------------------------------------------------------------------------------
# lzma

FILTER_LZMA1 = lzma.FILTER_LZMA1


def lzma_fixtures():
    m = Manifest("lzma")
    data = inputs()

    def add(name, input_name, **params):
        codec = numcodecs.LZMA(**params)
        return m.add(name, codec.get_config(), codec.encode(data[input_name]), numcodecs_decode(codec), input_name)

    for name in ("empty", "one-byte", "random-16k", "text-50k", "gradient-u1-256k", "temps-f4-400k", "sine-i2-400k", "zeros-1m"):
        add(f"{name} xz default", name)
    for check, label in ((lzma.CHECK_NONE, "none"), (lzma.CHECK_CRC32, "crc32"), (lzma.CHECK_SHA256, "sha256")):
        add(f"temps-f4-400k xz check {label}", "temps-f4-400k", check=check)
    for preset in (0, 1, 9, 6 | lzma.PRESET_EXTREME):
        add(f"sine-i2-400k xz preset {preset}", "sine-i2-400k", preset=preset)
    add("text-50k alone", "text-50k", format=lzma.FORMAT_ALONE)
    add("empty alone", "empty", format=lzma.FORMAT_ALONE)
    add("temps-f4-400k alone preset 2", "temps-f4-400k", format=lzma.FORMAT_ALONE, preset=2)
    add("text-50k raw lzma2", "text-50k", format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "preset": 1}])
    add("random-16k raw lzma2", "random-16k", format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2}])
    add("empty raw lzma2", "empty", format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2}])
    add("gradient-u1-256k raw lzma1", "gradient-u1-256k", format=lzma.FORMAT_RAW, filters=[{"id": FILTER_LZMA1, "preset": 6}])
    add(
        "temps-f4-400k raw lzma1 lc0 lp2 pb2",
        "temps-f4-400k",
        format=lzma.FORMAT_RAW,
        filters=[{"id": FILTER_LZMA1, "lc": 0, "lp": 2, "pb": 2, "dict_size": 1 << 16}],
    )
    add(
        "temps-f4-400k raw delta lzma2",
        "temps-f4-400k",
        format=lzma.FORMAT_RAW,
        filters=[{"id": lzma.FILTER_DELTA, "dist": 4}, {"id": lzma.FILTER_LZMA2, "preset": 6}],
    )
    add(
        "sine-i2-400k raw delta lzma1",
        "sine-i2-400k",
        format=lzma.FORMAT_RAW,
        filters=[{"id": lzma.FILTER_DELTA, "dist": 2}, {"id": FILTER_LZMA1}],
    )

    # Streams numcodecs' LZMA decodes though its encoder never writes them.
    xz = numcodecs.LZMA()
    dec = numcodecs_decode(xz)
    config = xz.get_config()
    text = data["text-50k"]
    m.add("two xz streams", config, lzma.compress(text) + lzma.compress(data["gradient-u1-256k"], preset=1), dec,
          note="text-50k then gradient-u1-256k")
    m.add("xz trailing garbage", config, lzma.compress(text) + b"garbage after the stream, 12+ bytes", dec, "text-50k")
    m.add("xz trailing short garbage", config, lzma.compress(text) + b"\0\0\0\0", dec)
    m.add("xz with delta filter", config,
          lzma.compress(data["sine-i2-400k"], filters=[{"id": lzma.FILTER_DELTA, "dist": 2}, {"id": lzma.FILTER_LZMA2}]),
          dec, "sine-i2-400k")
    m.add("xz with x86 bcj filter", config,
          lzma.compress(text, filters=[{"id": lzma.FILTER_X86}, {"id": lzma.FILTER_LZMA2}]), dec, "text-50k",
          note="BCJ filters are not supported: must fail with a CodecError")
    for args, label in (
        (["--block-size=65536"], "xz cli blocks of 64 KiB"),
        (["-T2", "--block-size=100000"], "xz cli multithreaded blocks"),
        (["--check=sha256", "-0"], "xz cli sha256"),
        (["--check=crc32", "--lzma2=preset=3,lc=0,lp=2,pb=2"], "xz cli lc0 lp2 pb2"),
    ):
        out = subprocess.run(["xz", "-c", *args], input=data["temps-f4-400k"], capture_output=True, check=True).stdout
        m.add(label, config, out, dec, "temps-f4-400k")
    full = lzma.compress(data["temps-f4-400k"])
    m.add("xz truncated", config, full[: len(full) // 2], dec)
    bad = bytearray(full)
    bad[len(bad) // 3] ^= 0x10
    m.add("xz bit flipped", config, bytes(bad), dec)
    alone = numcodecs.LZMA(format=lzma.FORMAT_ALONE)
    two_alone = lzma.compress(text, format=lzma.FORMAT_ALONE) + lzma.compress(text[:1000], format=lzma.FORMAT_ALONE)
    m.add("two alone streams", alone.get_config(), two_alone, numcodecs_decode(alone), note="text-50k then its first 1000 bytes")
    # .lzma with the size in its header (and the end marker too, which liblzma accepts).
    known = bytearray(lzma.compress(text, format=lzma.FORMAT_ALONE))
    known[5:13] = len(text).to_bytes(8, "little")
    known = bytes(known)
    m.add("alone known size and end marker", alone.get_config(), known, numcodecs_decode(alone), "text-50k")
    short = bytearray(known)
    short[5:13] = (len(text) - 1).to_bytes(8, "little")
    m.add("alone size one short", alone.get_config(), bytes(short), numcodecs_decode(alone))
    auto = numcodecs.LZMA(format=lzma.FORMAT_AUTO)
    m.add("xz decoded as auto", auto.get_config(), lzma.compress(text), numcodecs_decode(auto), "text-50k")
    m.add("alone decoded as auto", auto.get_config(), known, numcodecs_decode(auto), "text-50k")
    return m


# ----------------------------------------------------------------------------------------------
# Ours, checked by Python

OURS = [
    # (codec, fixture name, input, config)
    ("bz2", "text-50k level 1", "text-50k", {"id": "bz2", "level": 1}),
    ("bz2", "sine-i2-400k level 9", "sine-i2-400k", {"id": "bz2", "level": 9}),
    ("bz2", "random-16k level 1", "random-16k", {"id": "bz2", "level": 1}),
    ("bz2", "temps-f4-400k level 1 randomised", "temps-f4-400k", {"id": "bz2", "level": 1, "randomise": True}),
    ("bz2", "empty level 1", "empty", {"id": "bz2", "level": 1}),
    ("lzma", "sine-i2-400k xz default", "sine-i2-400k", {"id": "lzma", "format": 1, "check": -1, "preset": None, "filters": None}),
    ("lzma", "random-16k xz default", "random-16k", {"id": "lzma", "format": 1, "check": -1, "preset": None, "filters": None}),
    ("lzma", "empty xz default", "empty", {"id": "lzma", "format": 1, "check": -1, "preset": None, "filters": None}),
    ("lzma", "text-50k xz crc32 preset 1", "text-50k", {"id": "lzma", "format": 1, "check": 1, "preset": 1, "filters": None}),
    ("lzma", "gradient-u1-256k xz sha256", "gradient-u1-256k", {"id": "lzma", "format": 1, "check": 10, "preset": None, "filters": None}),
    ("lzma", "temps-f4-400k alone", "temps-f4-400k", {"id": "lzma", "format": 2, "check": -1, "preset": None, "filters": None}),
    ("lzma", "text-50k raw lzma2", "text-50k", {"id": "lzma", "format": 3, "check": -1, "preset": None, "filters": [{"id": 33, "preset": 1}]}),
    ("lzma", "gradient-u1-256k raw lzma1", "gradient-u1-256k",
     {"id": "lzma", "format": 3, "check": -1, "preset": None, "filters": [{"id": FILTER_LZMA1, "preset": 6}]}),
    ("lzma", "temps-f4-400k raw delta lzma2", "temps-f4-400k",
     {"id": "lzma", "format": 3, "check": -1, "preset": None, "filters": [{"id": 3, "dist": 4}, {"id": 33, "preset": 6}]}),
    ("lzma", "sine-i2-400k xz delta lzma2", "sine-i2-400k",
     {"id": "lzma", "format": 1, "check": -1, "preset": None, "filters": [{"id": 3, "dist": 2}, {"id": 33}]}),
]


def python_decoder(config):
    config = dict(config)
    if config["id"] == "bz2":
        return lambda b: _bz2.decompress(b)
    fmt, filters = config["format"], config["filters"]
    if fmt != lzma.FORMAT_RAW:
        filters = None  # Python's decompressor takes filters only for FORMAT_RAW.
    return lambda b: lzma.decompress(b, format=fmt, filters=filters)


def python_encoder(config):
    config = dict(config)
    if config["id"] == "bz2":
        return lambda b: _bz2.compress(b, config["level"])
    return lambda b: numcodecs.LZMA(config["format"], config["check"], config["preset"], config["filters"]).encode(b)


def ours(manifests):
    data = inputs()
    built = lambda codec: os.path.exists(os.path.join(PACKAGE, "dist", f"{codec}.js"))
    jobs = [o for o in OURS if o[0] in manifests and built(o[0])]
    with tempfile.TemporaryDirectory() as tmp:
        job_list = []
        for i, (codec, name, input_name, config) in enumerate(jobs):
            path = os.path.join(tmp, f"in-{i}.bin")
            with open(path, "wb") as f:
                f.write(data[input_name])
            job_list.append({"codec": codec, "input": path, "output": os.path.join(tmp, f"out-{i}.bin"), "config": config})
        with open(os.path.join(tmp, "jobs.json"), "w") as f:
            json.dump(job_list, f)
        subprocess.run(["node", os.path.join(HERE, "encode_ours.mjs"), os.path.join(tmp, "jobs.json")], check=True)
        with open(os.path.join(tmp, "jobs.json")) as f:
            job_list = json.load(f)
        for (codec, name, input_name, config), job in zip(jobs, job_list):
            with open(job["output"], "rb") as f:
                encoded = f.read()
            raw = data[input_name]
            t = time.perf_counter()
            theirs = python_encoder(config)(raw) if "randomise" not in config else _bz2.compress(raw, config["level"])
            encode_ms = (time.perf_counter() - t) * 1000
            decode_config = {k: v for k, v in config.items() if k != "randomise"}
            entry = manifests[codec].add(
                "ours " + name, decode_config, encoded, python_decoder(config), input_name,
                size=len(encoded), python_size=len(theirs), python_encode_ms=round(encode_ms, 1),
                our_encode_ms=job.get("ms"),
            )
            ok = entry["python"].get("sha256") == sha(raw)
            print(f"  ours {name}: {len(encoded)} bytes (python {len(theirs)}), python decodes it: {'OK' if ok else entry['python']}")
            if not ok:
                raise SystemExit(f"Python does not decode our {name} to its input")


if __name__ == "__main__":
    manifests = {"bz2": bz2_fixtures(), "lzma": lzma_fixtures()}
    skip = [c for c in sys.argv[1:] if c.startswith("--no-ours")]
    if not skip:
        ours(manifests)
    for m in manifests.values():
        m.write()
