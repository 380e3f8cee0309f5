"""Writes zlib and gzip streams made by CPython's zlib and gzip modules, for ../inflate-live.test.ts.

Writes JSON to stdout: [{"name", "format": "zlib"|"gzip", "encoded": "<base64>", "size",
"sha256": "<hex of what numcodecs 0.11 decodes it to>"}, ...]: every level, window sizes,
strategies (fixed Huffman only, Huffman only, RLE, filtered), memory levels (many small blocks),
flushes (empty stored blocks), streams followed by other bytes, gzip headers with every optional
field, several members and zero padding; data from empty to 3 MiB. Run with /usr/bin/python3.
"""
import base64
import gzip
import hashlib
import io
import json
import struct
import sys
import zlib

import numcodecs
import numpy as np

rng = np.random.default_rng(7)


def field(n):
    """A smooth float32 field with a little noise, like the bench data."""
    side = max(1, int(np.sqrt(n)))
    i = np.arange(n)
    values = np.sin(6 * (i % side) / side) * np.cos(4 * (i // side) / side) + rng.normal(0, 0.01, n)
    return values.astype("<f4").tobytes()


DATA = {
    "empty": b"",
    "1 byte": b"\x2a",
    "2 bytes": b"ab",
    "random 1000": rng.integers(0, 256, 1000, dtype=np.uint8).tobytes(),
    "random 65537": rng.integers(0, 256, 65537, dtype=np.uint8).tobytes(),
    "zeros 100003": bytes(100003),
    "text": b"zlib and gzip, decoded in WebAssembly by @z/codecs-wasm. " * 3000,
    "runs": bytes((i // 700) % 5 for i in range(70001)),
    "few symbols": rng.choice(np.array([0, 1, 2, 255], dtype=np.uint8), 50000, p=[0.7, 0.2, 0.09, 0.01]).tobytes(),
    "float32 field 256 KiB": field(1 << 16),
    "int16 wave": (np.sin(np.arange(20001) / 40) * 1000).astype("<i2").tobytes(),
}
BIG = field(3 << 18) + rng.integers(0, 256, 1 << 19, dtype=np.uint8).tobytes()  # 3.5 MiB

cases = []


def add(name, fmt, encoded):
    decoded = numcodecs.get_codec({"id": fmt}).decode(encoded)
    cases.append({
        "name": name,
        "format": fmt,
        "encoded": base64.b64encode(encoded).decode(),
        "size": len(bytes(decoded)),
        "sha256": hashlib.sha256(bytes(decoded)).hexdigest(),
    })


def deflate(data, level=6, wbits=15, mem=8, strategy=zlib.Z_DEFAULT_STRATEGY, flush_every=0):
    c = zlib.compressobj(level, zlib.DEFLATED, wbits, mem, strategy)
    if not flush_every:
        return c.compress(data) + c.flush()
    out = []
    for i in range(0, len(data), flush_every):
        out.append(c.compress(data[i:i + flush_every]))
        out.append(c.flush(zlib.Z_SYNC_FLUSH if (i // flush_every) % 2 else zlib.Z_FULL_FLUSH))
    return b"".join(out) + c.flush()


for name, data in DATA.items():
    for level in range(10):
        add(f"zlib level {level}, {name}", "zlib", zlib.compress(data, level))
    for strategy, label in [(zlib.Z_FIXED, "fixed Huffman only"), (zlib.Z_HUFFMAN_ONLY, "Huffman only"),
                            (zlib.Z_RLE, "RLE"), (zlib.Z_FILTERED, "filtered")]:
        add(f"zlib {label}, {name}", "zlib", deflate(data, strategy=strategy))
    add(f"gzip level 1, {name}", "gzip", gzip.compress(data, 1, mtime=0))
add("zlib level 1, 3.5 MiB", "zlib", zlib.compress(BIG, 1))
add("zlib level 9, 3.5 MiB", "zlib", zlib.compress(BIG, 9))
add("gzip level 6, 3.5 MiB", "gzip", gzip.compress(BIG, 6))

sample = DATA["float32 field 256 KiB"][:200000] + DATA["text"][:50000]
for wbits in range(9, 16):
    add(f"zlib window bits {wbits}", "zlib", deflate(sample, wbits=wbits))
for mem in (1, 9):
    add(f"zlib memory level {mem} (block sizes)", "zlib", deflate(sample, 1, mem=mem))
add("zlib with sync and full flushes (empty stored blocks)", "zlib", deflate(sample, 6, flush_every=9999))
add("zlib level 0, flushed often", "zlib", deflate(sample, 0, flush_every=777))
add("zlib followed by other bytes", "zlib", zlib.compress(sample, 1) + b"trailing bytes")
add("zlib followed by another zlib stream", "zlib", zlib.compress(b"first", 1) + zlib.compress(b"second", 1))

for level in (0, 1, 5, 9):
    add(f"gzip level {level}", "gzip", gzip.compress(sample, level, mtime=0))
add("gzip via zlib (window bits 31)", "gzip", deflate(sample, 6, wbits=31))
add("gzip of two members", "gzip", gzip.compress(b"first member ", mtime=0) + gzip.compress(sample, 9, mtime=0))
add("gzip of an empty member and another", "gzip", gzip.compress(b"", mtime=0) + gzip.compress(b"x" * 1000, mtime=0))
add("gzip with zero padding", "gzip", gzip.compress(sample, 1, mtime=0) + bytes(1000))
add("gzip of two members with zero padding between", "gzip",
    gzip.compress(b"a" * 5000, mtime=0) + bytes(3) + gzip.compress(b"b" * 5000, mtime=0) + bytes(2))
buf = io.BytesIO()
with gzip.GzipFile(filename="chunk.bin", mode="wb", fileobj=buf, mtime=12345) as f:
    f.write(sample)
add("gzip with a file name", "gzip", buf.getvalue())


def member(raw, flags, extra=b"", name=b"", comment=b"", data=b""):
    header = struct.pack("<BBBBIBB", 0x1F, 0x8B, 8, flags, 0, 0, 255)
    if flags & 4:
        header += struct.pack("<H", len(extra)) + extra
    if flags & 8:
        header += name + b"\0"
    if flags & 16:
        header += comment + b"\0"
    if flags & 2:
        header += struct.pack("<H", zlib.crc32(header) & 0xFFFF)
    return header + raw + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


raw = deflate(sample, 6, wbits=-15)
add("gzip with FEXTRA, FNAME, FCOMMENT and FHCRC", "gzip", member(raw, 2 | 4 | 8 | 16, b"xx\4\0abcd", b"n.bin", b"a comment", sample))
add("gzip with an empty FEXTRA", "gzip", member(raw, 4, b"", data=sample))
add("gzip with FHCRC only", "gzip", member(raw, 2, data=sample))
add("gzip with the reserved flags set", "gzip", member(raw, 0xE0, data=sample))
add("gzip, empty", "gzip", b"")

json.dump(cases, sys.stdout)
