"""Byte-exact fixtures for @z/codecs' filters, checksums and object codecs.

Run with the system Python, which has numcodecs 0.11 and NumPy 1.24:

    /usr/bin/python3 packages/codecs/test/python/numcodecs_fixtures.py

It writes test/fixtures/numcodecs-{filters,checksums,objects}.json. Every case holds a codec config
as numcodecs' get_config() writes it, an input, what numcodecs encoded the input to, and what
numcodecs decodes that to (for lossy filters, not the input). Byte buffers are base64. Values of
object arrays are tagged so that the TypeScript side can rebuild them exactly:

    str -> JSON string, None -> null, bool -> JSON bool, list -> JSON list,
    int -> {"int": "123"}, float -> {"float": "1.0"} (repr), bytes -> {"bytes": b64},
    dict -> {"dict": [[key, value], ...]}, ndarray -> {"ndarray": dtype.str, "data": b64},
    msgpack.ExtType -> {"ext": code, "data": b64}, a long list of one value -> {"repeat": value, "count": n},
    a long str or bytes of one character -> {"str" or "bytes": {"repeat": char or byte, "count": n}}

Encodings longer than 4 KiB are stored zlib-compressed ("encodedDeflated") to keep the files small.

fletcher32 and jenkins_lookup3 are not in numcodecs 0.11: their checksums come from the
independent Python implementations below, written from the HDF5 and lookup3.c definitions and
checked against the published test vectors.
"""
import base64
import json
import math
import os
import struct
import sys
import warnings
import zlib

import msgpack
import numcodecs
import numpy as np

warnings.simplefilter("ignore")
assert numcodecs.__version__.startswith("0.11"), numcodecs.__version__

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures")


def b64(data):
    return base64.b64encode(bytes(data)).decode("ascii")


def rng(seed):
    return np.random.RandomState(seed)


# ---------------------------------------------------------------------------------------------
# Inputs


def ints(dtype, n, seed):
    """Integers over the whole range of `dtype`, with the extremes and zero among them."""
    dt = np.dtype(dtype)
    info = np.iinfo(dt)
    r = rng(seed)
    hi = r.randint(0, 2**31, size=n).astype(np.uint64)
    lo = r.randint(0, 2**31, size=n).astype(np.uint64)
    raw = ((hi << np.uint64(33)) ^ (lo << np.uint64(2)) ^ r.randint(0, 4, size=n).astype(np.uint64))
    values = raw.view(np.int64) if info.min < 0 else raw
    values = values.astype(dt.newbyteorder("="))
    values[:4] = [info.min, info.max, 0, 1 if info.max > 0 else 0]
    return values.astype(dt)


def small_ints(dtype, n, seed):
    """Slowly varying integers (what delta filters are for)."""
    dt = np.dtype(dtype)
    r = rng(seed)
    start = 20 if dt.kind == "u" else -20
    return (start + np.cumsum(r.randint(-3, 4, size=n))).clip(0 if dt.kind == "u" else -1000, 1000).astype(dt)


def floats(dtype, n, seed, specials=True):
    dt = np.dtype(dtype)
    r = rng(seed)
    values = (r.standard_normal(n) * 10.0 ** r.randint(-3, 4, size=n)).astype(dt)
    if specials and n >= 7:
        values[:6] = [0.0, -0.0, 1.5, -2.25, np.inf, -np.inf]
        values[6] = np.nan
    return values


def smooth_floats(dtype, n, seed):
    dt = np.dtype(dtype)
    r = rng(seed)
    return (100 + np.cumsum(r.standard_normal(n))).astype(dt)


# ---------------------------------------------------------------------------------------------
# Filters


filters = []


def add_filter(name, codec, data, context_dtype=None, decode_only=False):
    """`data` is what encode takes (or, with decode_only, what decode takes)."""
    config = codec.get_config()
    data = np.ascontiguousarray(data)
    case = {"name": name, "config": config}
    if decode_only:
        dec = np.asarray(codec.decode(data.tobytes()))
        case.update(encoded=b64(data.tobytes()), decoded=b64(dec.tobytes()))
    else:
        enc = np.asarray(codec.encode(data))
        dec = np.asarray(codec.decode(enc))
        case.update(dtype=(context_dtype or data.dtype.str), input=b64(data.tobytes()),
                    encoded=b64(enc.tobytes()), decoded=b64(dec.tobytes()))
    filters.append(case)


ORDERS = ["<", ">"]
INT_TYPES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"]
FLOAT_TYPES = ["f2", "f4", "f8"]


def typed(order, t):
    return ("|" if t[1] == "1" and t[0] != "f" else order) + t


# delta: every type, both byte orders, astype the same.
for t in INT_TYPES + FLOAT_TYPES:
    for order in ORDERS if not t.endswith("1") else ["|"]:
        dt = typed(order, t)
        codec = numcodecs.Delta(dtype=dt)
        if t[0] == "f":
            add_filter(f"delta {dt} smooth", codec, smooth_floats(dt, 40, 1))
            add_filter(f"delta {dt} with specials", codec, floats(dt, 24, 2))
        else:
            add_filter(f"delta {dt} slowly varying", codec, small_ints(dt, 40, 3))
            add_filter(f"delta {dt} wrapping", codec, ints(dt, 24, 4))
        # Decoding sums in dtype: overflow wraps.
        add_filter(f"delta {dt} decode random", codec, ints(typed(order, t.replace("f", "u")), 16, 5).view(dt) if t[0] == "f" else ints(dt, 16, 5), decode_only=True)
# delta across types.
for dt, at in [("<i2", "|i1"), ("<i4", "<i2"), ("|u1", "<i2"), ("<i8", "<i4"), ("<i4", "<i8"), ("<u2", "|u1"),
               ("<f8", "<f4"), ("<f4", "<f8"), ("<f8", "<f2"), ("<f4", "<f2"), ("<i4", "<f8"), ("<f8", "<i4"),
               ("<f8", "<i8"), (">i4", "<i2"), ("<i2", ">i4"), ("<u8", "<f8"), ("<i8", "<u8")]:
    codec = numcodecs.Delta(dtype=dt, astype=at)
    src = smooth_floats(dt, 30, 6) if dt[1] == "f" else small_ints(dt, 30, 7)
    add_filter(f"delta {dt} as {at}", codec, src)
    enc_type = np.dtype(at)
    raw = ints(at.replace("f", "u") if enc_type.kind == "f" else at, 16, 8)
    add_filter(f"delta {dt} as {at} decode random", codec, raw.view(at) if enc_type.kind == "f" else raw, decode_only=True)

# fixedscaleoffset.
lin = np.linspace(1000, 1001, 10, dtype="<f8")
fso = [
    ("doc example, scale 10", dict(offset=1000, scale=10, dtype="<f8", astype="u1"), lin),
    ("doc example, scale 100", dict(offset=1000, scale=10**2, dtype="<f8", astype="u1"), lin),
    ("doc example, scale 1000", dict(offset=1000, scale=10**3, dtype="<f8", astype="u2"), lin),
    ("float offset", dict(offset=1000.0, scale=10, dtype="<f8", astype="u1"), lin),
    ("float scale", dict(offset=1000, scale=0.5, dtype="<f8", astype="<i2"), np.linspace(900, 1100, 33)),
    ("float32 int offset", dict(offset=1000, scale=10, dtype="<f4", astype="u1"), lin.astype("<f4")),
    ("float32 float offset", dict(offset=1000.5, scale=10, dtype="<f4", astype="<u2"), lin.astype("<f4")),
    ("float32 huge offset", dict(offset=1e300, scale=1e-300, dtype="<f4", astype="<f8"), lin.astype("<f4")),
    ("float16", dict(offset=10, scale=100, dtype="<f2", astype="<i2"), np.linspace(9, 11, 21).astype("<f2")),
    ("float16 float offset", dict(offset=10.25, scale=4.0, dtype="<f2", astype="|i1"), np.linspace(9, 11, 21).astype("<f2")),
    ("float16 large int scale", dict(offset=0, scale=1000, dtype="<f2", astype="<i4"), np.linspace(-5, 5, 21).astype("<f2")),
    ("int32 int arithmetic", dict(offset=100000, scale=3, dtype="<i4", astype="<i4"), small_ints("<i4", 30, 9) * 1000),
    ("int32 wrapping", dict(offset=-5, scale=7, dtype="<i4", astype="<i2"), ints("<i4", 30, 10)),
    ("uint8 promoted offset", dict(offset=1000, scale=2, dtype="|u1", astype="<i4"), ints("|u1", 30, 11)),
    ("uint8 negative offset", dict(offset=-5, scale=1, dtype="|u1", astype="<i2"), ints("|u1", 30, 12)),
    ("int16 float scale", dict(offset=0, scale=0.1, dtype="<i2", astype="|i1"), small_ints("<i2", 30, 13)),
    ("int64", dict(offset=2**40, scale=2, dtype="<i8", astype="<i8"), ints("<i8", 20, 14)),
    ("uint64 big offset", dict(offset=2**63, scale=1, dtype="<u8", astype="<f8"), ints("<u8", 20, 15)),
    ("big-endian", dict(offset=1000, scale=10, dtype=">f8", astype=">u2"), lin.astype(">f8")),
    ("big-endian float32 to int8", dict(offset=-1.5, scale=20, dtype=">f4", astype="|i1"), np.linspace(-3, 0, 40).astype(">f4")),
    ("to float32", dict(offset=3.0, scale=1.0, dtype="<f8", astype="<f4"), floats("<f8", 20, 16)),
    ("out of range", dict(offset=0, scale=1000, dtype="<f8", astype="|u1"), floats("<f8", 20, 17, specials=False)),
    ("nan offset", dict(offset=float("nan"), scale=1, dtype="<f8", astype="<f8"), lin),
]
for name, kwargs, data in fso:
    codec = numcodecs.FixedScaleOffset(**kwargs)
    add_filter(f"fixedscaleoffset {name}", codec, np.asarray(data, dtype=kwargs["dtype"]))
    if isinstance(kwargs["offset"], float) and math.isnan(kwargs["offset"]):
        # Which of two NaNs NumPy's SIMD loops return differs between loops: not a fixture.
        continue
    at = np.dtype(kwargs["astype"])
    raw = ints(at.str.replace("f", "u") if at.kind == "f" else at.str, 12, 18)
    add_filter(f"fixedscaleoffset {name} decode random", codec, raw.view(at) if at.kind == "f" else raw, decode_only=True)

# quantize.
for digits in [-2, 0, 1, 2, 3, 5, 10]:
    for dt in ["<f2", "<f4", "<f8", ">f4", ">f8"]:
        codec = numcodecs.Quantize(digits=digits, dtype=dt)
        data = (floats(dt, 30, 19) if digits != 10 else smooth_floats(dt, 30, 20))
        add_filter(f"quantize digits {digits} {dt}", codec, data)
for dt, at in [("<f8", "<f4"), ("<f4", "<f8"), ("<f8", "<f2"), ("<f2", "<f8"), (">f8", "<f4")]:
    codec = numcodecs.Quantize(digits=3, dtype=dt, astype=at)
    add_filter(f"quantize digits 3 {dt} as {at}", codec, smooth_floats(dt, 30, 21))

# packbits.
for n in [0, 1, 7, 8, 9, 16, 17, 100]:
    add_filter(f"packbits {n} booleans", numcodecs.PackBits(), rng(22 + n).randint(0, 2, n).astype(bool))
add_filter("packbits nonzero bytes are true", numcodecs.PackBits(),
           np.array([0, 1, 2, 255, 0, 3, 1, 1, 1, 0, 128], dtype="u1").view(bool))
for raw in [[0], [0, 0xA5], [3, 0xFF], [7, 0x80], [1, 0x12, 0x34, 0xFF]]:
    add_filter(f"packbits decode {raw}", numcodecs.PackBits(), np.array(raw, dtype="u1"), decode_only=True)

# categorize.
labels = ["female", "male", "ñandú", "日本", "😀", ""]
words = np.array(["male", "female", "female", "unexpected", "ñandú", "日本", "😀", "", "male", "femal"], dtype=object)
for at in ["|u1", "<u2", "<i4", ">i2", "<f4", "<u8"]:
    codec = numcodecs.Categorize(labels=labels, dtype=object, astype=at)
    add_filter(f"categorize object as {at}", codec, words)
for dt in ["<U6", ">U6", "<U2"]:
    codec = numcodecs.Categorize(labels=labels, dtype=dt)
    add_filter(f"categorize {dt}", codec, words.astype(dt))
codec = numcodecs.Categorize(labels=["a", "b", "a"], dtype=object)
add_filter("categorize repeated label", codec, np.array(["a", "b", "c"], dtype=object))
for at in ["|u1", "<f8"]:
    codec = numcodecs.Categorize(labels=labels, dtype=object, astype=at)
    raw = np.array([0, 1, 2, 3, 4, 5, 6, 7, 255], dtype=at)
    add_filter(f"categorize decode {at}", codec, raw, decode_only=True)

# astype.
pairs = [("<f4", "<f8"), ("<f8", "<f4"), ("<f2", "<f8"), ("<f2", "<f4"), ("<i2", "<i4"), ("|u1", "<i8"), ("<i4", "<f8"),
         ("<f4", "<i4"), ("<i8", "<f8"), ("<f8", "<u8"), ("|b1", "<f8"), ("<f8", "|b1"), (">i4", "<i4"), ("<f4", ">f8"),
         ("<u4", "<f4"), ("<i8", "<f4"), ("<u2", "<f2"), ("|i1", "<u2")]
for enc_t, dec_t in pairs:
    codec = numcodecs.AsType(encode_dtype=enc_t, decode_dtype=dec_t)
    dt = np.dtype(dec_t)
    if dt.kind == "f":
        data = floats(dec_t, 30, 23, specials=np.dtype(enc_t).kind == "f")
        if np.dtype(enc_t).kind in "iu":
            data = (np.linspace(-300, 300, 30) if np.dtype(enc_t).kind == "i" else np.linspace(0, 250, 30)).astype(dec_t)
    elif dt.kind == "b":
        data = rng(24).randint(0, 2, 20).astype(bool)
    else:
        data = ints(dec_t, 30, 25)
    add_filter(f"astype {dec_t} to {enc_t}", codec, data)
    et = np.dtype(enc_t)
    raw = ints(et.str.replace("f", "u") if et.kind == "f" else et.str, 16, 26) if et.kind != "b" else np.array([0, 1] * 4, dtype="u1")
    add_filter(f"astype {enc_t} back to {dec_t} decode random", codec, raw.view(et), decode_only=True)
# astype to the same float type, or another byte order of it: NumPy copies the bits, so signalling
# NaNs, NaN payloads and signs, and -0.0 stay as they are.
nan_bits = {2: [0x7C01, 0xFD23, 0x7E05, 0xFE00], 4: [0x7F800001, 0xFF800123, 0x7FC00005, 0xFFC00000],
            8: [0x7FF0000000000001, 0xFFF0000000000123, 0x7FF8000000000005, 0xFFF8000000000000]}
for enc_t, dec_t in [(">f4", "<f4"), ("<f4", "<f4"), ("<f4", ">f4"), (">f8", "<f8"), ("<f8", "<f8"), (">f2", "<f2")]:
    w = np.dtype(dec_t).itemsize
    nans = np.array(nan_bits[w], dtype=f"<u{w}").view(f"<f{w}").astype(dec_t)
    add_filter(f"astype {dec_t} to {enc_t} keeps NaN bits", numcodecs.AsType(encode_dtype=enc_t, decode_dtype=dec_t), np.concatenate([floats(dec_t, 8, 27), nans]))
# float to integer casts beyond the range (NumPy's values for what C leaves undefined).
special = np.array([np.nan, np.inf, -np.inf, 1e10, -1e10, 300.7, -1.5, 3e9, 1e20, -1e20, 2.0**63, 1.8e19, -3e9, 70000.5, -70000.5, 127.9, -128.9], dtype="<f8")
for t in ["|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8"]:
    add_filter(f"astype <f8 out of range to {t}", numcodecs.AsType(encode_dtype=t, decode_dtype="<f8"), special)

# shuffle.
for size in [0, 1, 2, 3, 4, 8, 16]:
    n = max(size, 1) * 13
    add_filter(f"shuffle elementsize {size}", numcodecs.Shuffle(elementsize=size), rng(27 + size).randint(0, 256, n).astype("u1"))
add_filter("shuffle default elementsize", numcodecs.Shuffle(), np.arange(25, dtype="<i4"))

# bitround (numcodecs only rounds little-endian floats).
for dt, keeps in [("<f2", [0, 1, 5, 9, 10]), ("<f4", [0, 1, 10, 22, 23]), ("<f8", [0, 1, 20, 51, 52])]:
    data = floats(dt, 40, 28)
    data[7] = np.finfo(dt).max
    data[8] = -np.finfo(dt).max
    data[9] = np.finfo(dt).tiny / 2
    for keep in keeps:
        add_filter(f"bitround keepbits {keep} {dt}", numcodecs.BitRound(keepbits=keep), data.copy(), context_dtype=dt)


# ---------------------------------------------------------------------------------------------
# Checksums


def fletcher32_hdf5(data):
    """Fletcher-32 as HDF5 defines it (H5_checksum_fletcher32): big-endian 16-bit words, ones'
    complement sums folded every 360 words, an odd last byte as the high byte of a word."""
    sum1 = sum2 = 0
    words = len(data) // 2
    i = 0
    while words:
        run = min(words, 360)
        words -= run
        for _ in range(run):
            sum1 += (data[i] << 8) | data[i + 1]
            sum2 += sum1
            i += 2
        sum1 = (sum1 & 0xFFFF) + (sum1 >> 16)
        sum2 = (sum2 & 0xFFFF) + (sum2 >> 16)
    if len(data) % 2:
        sum1 += data[i] << 8
        sum2 += sum1
        sum1 = (sum1 & 0xFFFF) + (sum1 >> 16)
        sum2 = (sum2 & 0xFFFF) + (sum2 >> 16)
    sum1 = (sum1 & 0xFFFF) + (sum1 >> 16)
    sum2 = (sum2 & 0xFFFF) + (sum2 >> 16)
    return ((sum2 << 16) | sum1) & 0xFFFFFFFF


M32 = 0xFFFFFFFF


def rot(x, k):
    return ((x << k) | (x >> (32 - k))) & M32


def hashlittle(key, initval=0):
    """lookup3.c hashlittle(), byte by byte (the code path for unaligned keys)."""
    length = len(key)
    a = b = c = (0xDEADBEEF + length + initval) & M32
    k = 0
    while length > 12:
        a = (a + key[k] + (key[k + 1] << 8) + (key[k + 2] << 16) + (key[k + 3] << 24)) & M32
        b = (b + key[k + 4] + (key[k + 5] << 8) + (key[k + 6] << 16) + (key[k + 7] << 24)) & M32
        c = (c + key[k + 8] + (key[k + 9] << 8) + (key[k + 10] << 16) + (key[k + 11] << 24)) & M32
        a = (a - c) & M32; a ^= rot(c, 4); c = (c + b) & M32
        b = (b - a) & M32; b ^= rot(a, 6); a = (a + c) & M32
        c = (c - b) & M32; c ^= rot(b, 8); b = (b + a) & M32
        a = (a - c) & M32; a ^= rot(c, 16); c = (c + b) & M32
        b = (b - a) & M32; b ^= rot(a, 19); a = (a + c) & M32
        c = (c - b) & M32; c ^= rot(b, 4); b = (b + a) & M32
        length -= 12
        k += 12
    if length == 0:
        return c
    tail = key[k:k + length] + bytes(12 - length)
    a = (a + int.from_bytes(tail[0:4], "little")) & M32
    b = (b + int.from_bytes(tail[4:8], "little")) & M32
    c = (c + int.from_bytes(tail[8:12], "little")) & M32
    c ^= b; c = (c - rot(b, 14)) & M32
    a ^= c; a = (a - rot(c, 11)) & M32
    b ^= a; b = (b - rot(a, 25)) & M32
    c ^= b; c = (c - rot(b, 16)) & M32
    a ^= c; a = (a - rot(c, 4)) & M32
    b ^= a; b = (b - rot(a, 14)) & M32
    c ^= b; c = (c - rot(b, 24)) & M32
    return c


# Bob Jenkins' own self-test values (lookup3.c driver5) and numcodecs' newer tests.
assert hashlittle(b"", 0) == 0xDEADBEEF
assert hashlittle(b"", 0xDEADBEEF) == 0xBD5B7DDE
assert hashlittle(b"Four score and seven years ago", 0) == 0x17770551
assert hashlittle(b"Four score and seven years ago", 1) == 0xCD628161
assert hashlittle(b"jenkins", 0) == 202276345
assert hashlittle(b"Four score and seven years ago", 1230).to_bytes(4, "little") == b"\xd7Z\xe2\x0e"
# numcodecs' Fletcher32 known vector (tests/test_fletcher32.py::test_known).
_known = np.array([1911, -2427, 1897, -2412, 2440, 873, -621, -829, 551, -2118], dtype="<i8").tobytes()
assert struct.pack("<I", fletcher32_hdf5(_known)) == b"\xfd%\x86d"

checksum_inputs = {
    "empty": b"",
    "one byte": b"\x2a",
    "two bytes": b"\x01\x02",
    "three bytes": b"\xff\xff\xff",
    "hello": b"hello world",
    "twelve bytes": b"abcdefghijkl",
    "thirteen bytes": b"abcdefghijklm",
    "Four score": b"Four score and seven years ago",
    "arange i4": np.arange(1000, dtype="<i4").tobytes(),
    "random 5001": rng(30).randint(0, 256, 5001).astype("u1").tobytes(),
    "0xff 2000": b"\xff" * 2000,
    "fletcher32 known": _known,
}
checksums = []


def add_checksum(name, config, input_name, data, enc):
    """Encoded bytes are the input with 4 checksum bytes before or after it: stored as those 4 bytes."""
    checksum, at = (enc[:4], "start") if enc[4:] == data else (enc[-4:], "end")
    assert (enc[:-4] if at == "end" else enc[4:]) == data and len(enc) == len(data) + 4
    checksums.append({"name": name, "config": config, "input": input_name, "checksum": checksum.hex(), "at": at})


for name, data in checksum_inputs.items():
    for codec in [numcodecs.CRC32(), numcodecs.Adler32()]:
        enc = bytes(codec.encode(np.frombuffer(data, dtype="u1")))
        assert bytes(codec.decode(enc)) == data
        add_checksum(f"{codec.codec_id} {name}", codec.get_config(), name, data, enc)
    add_checksum(f"fletcher32 {name}", {"id": "fletcher32"}, name, data, data + struct.pack("<I", fletcher32_hdf5(data)))
    for initval, prefix in [(0, None), (1, None), (1230, None), (0xDEADBEEF, None), (1230, b"Hello world")]:
        h = hashlittle((prefix or b"") + data, initval)
        add_checksum(f"jenkins_lookup3 {name} initval {initval}{' with prefix' if prefix else ''}",
                     {"id": "jenkins_lookup3", "initval": initval, "prefix": None if prefix is None else list(prefix)},
                     name, data, data + struct.pack("<I", h))
# numcodecs' newer jenkins test: an HDF5 fixed array data block checksummed with its prefix.
fadb_index = bytes.fromhex(
    "0008000000000000f70f000000000000f717000000000000f70f000000000000ee27000000000000"
    "f70f000000000000e537000000000000f70f000000000000dc47000000000000f70f000000000000"
    "d357000000000000f70f000000000000ca67000000000000f70f000000000000c177000000000000"
    "f70f000000000000b887000000000000f70f000000000000af97000000000000f70f000000000000"
    "a6a7000000000000f70f0000000000009db7000000000000f70f00000000000094c7000000000000"
    "f70f0000000000008bd7000000000000f70f00000000000082e7000000000000f70f000000000000"
    "79f7000000000000f70f000000000000")
fadb_prefix = b"FADB\x00\x01\xcf\x01\x00\x00\x00\x00\x00\x00"
assert hashlittle(fadb_prefix + fadb_index, 0).to_bytes(4, "little") == b"n\x96\x07\x85"
checksum_inputs["HDF5 FADB block"] = fadb_index
add_checksum("jenkins_lookup3 HDF5 FADB block", {"id": "jenkins_lookup3", "initval": 0, "prefix": list(fadb_prefix)},
             "HDF5 FADB block", fadb_index, fadb_index + b"n\x96\x07\x85")


# ---------------------------------------------------------------------------------------------
# Object codecs


def tag(v):
    if isinstance(v, str) and len(v) > 1000 and v == v[:1] * len(v):
        return {"str": {"repeat": v[0], "count": len(v)}}
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (int, np.integer)):
        return {"int": str(int(v))}
    if isinstance(v, (float, np.floating)):
        return {"float": repr(float(v))}
    if isinstance(v, bytes):
        if len(v) > 1000 and v == v[:1] * len(v):
            return {"bytes": {"repeat": v[0], "count": len(v)}}
        return {"bytes": b64(v)}
    if isinstance(v, msgpack.ExtType):  # a namedtuple: before tuples
        return {"ext": v.code, "data": b64(v.data)}
    if isinstance(v, (list, tuple)):
        if len(v) > 1000 and all(x is v[0] for x in v):
            return {"repeat": tag(v[0]), "count": len(v)}
        return [tag(x) for x in v]
    if isinstance(v, dict):
        return {"dict": [[tag(k), tag(x)] for k, x in v.items()]}
    if isinstance(v, np.ndarray):
        return {"ndarray": v.dtype.str, "data": b64(v.tobytes())}
    raise TypeError(type(v))


def object_array(values, shape=None):
    arr = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        arr[i] = v
    return arr if shape is None else arr.reshape(shape)


objects = []


def add_object(name, codec, arr, decodes=True):
    """`arr` is an object array (its values flattened in C order) or a numeric array."""
    enc = bytes(codec.encode(arr))
    case = {"name": name, "config": codec.get_config()}
    if len(enc) > 4096:
        case["encodedDeflated"] = b64(zlib.compress(enc, 9))
    else:
        case["encoded"] = b64(enc)
    if arr.dtype == object:
        case["input"] = tag(list(arr.reshape(-1)))
    else:
        case["dtype"] = arr.dtype.str
        case["bytes"] = b64(arr.tobytes())
    if arr.ndim != 1:
        case["shape"] = list(arr.shape)
    if decodes:
        try:
            dec = codec.decode(enc)
        except Exception as e:
            case["decodeError"] = f"{type(e).__name__}: {e}"
            objects.append(case)
            return
        if isinstance(dec, np.ndarray) and dec.dtype == object:
            case["decoded"] = tag(list(dec.reshape(-1)))
        else:
            case["decodedBytes"] = b64(np.asarray(dec).tobytes())
    objects.append(case)


strings = ["a", "ñ", "", "日本", "😀 emoji", "tab\there", "nul\x00inside", "x" * 300, "quote \" and \\ backslash", "\u007f\u0080\uffff"]
add_object("vlen-utf8 strings", numcodecs.VLenUTF8(), object_array(strings))
add_object("vlen-utf8 empty array", numcodecs.VLenUTF8(), object_array([]))
add_object("vlen-utf8 None and 0 are empty", numcodecs.VLenUTF8(), object_array(["a", None, 0, "b", False]))
add_object("vlen-utf8 2-d", numcodecs.VLenUTF8(), object_array(["a", "b", "c", "d", "e", "f"], (2, 3)))
add_object("vlen-bytes bytes", numcodecs.VLenBytes(), object_array([b"", b"abc", b"\x00\xff", bytes(range(256)), b"x" * 1000]))
add_object("vlen-bytes None is empty", numcodecs.VLenBytes(), object_array([b"a", None, b"b", 0]))
add_object("vlen-bytes empty array", numcodecs.VLenBytes(), object_array([]))
for t in INT_TYPES + FLOAT_TYPES + ["b1"]:
    for order in (ORDERS if not t.endswith("1") else ["|"]):
        dt = typed(order, t)
        if t[0] == "f":
            items = [floats(dt, 5, 31), np.array([], dt), floats(dt, 1, 32, specials=False), None]
        elif t == "b1":
            items = [np.array([True, False, True]), np.array([], bool), None]
        else:
            items = [ints(dt, 5, 33), np.array([], dt), small_ints(dt, 3, 34), None]
        add_object(f"vlen-array {dt}", numcodecs.VLenArray(dt), object_array(items))
add_object("vlen-array <i4 from lists and numbers", numcodecs.VLenArray("<i4"), object_array([[1, 2, 3], [1.5, -2.7], 7, [True, False], []]))
add_object("vlen-array <f8 from lists", numcodecs.VLenArray("<f8"), object_array([[1, 2.5], [2**60], []]))
add_object("vlen-array 2-d", numcodecs.VLenArray("<i2"), object_array([[1], [2, 3], [], [4, 5, 6]], (2, 2)))

mixed = ["a", "ñ", "", "日本", "😀", None, True, False, 0, 1, -1, 2**53 + 1, 2**70, -(2**70), 1.0, 0.1, -0.0, 1e-7, 1e16, 1e22,
         float("nan"), float("inf"), float("-inf"), 3.141592653589793, "ctrl\x01\x1f\x7f", "sur\ud800rogate",
         [1, [2, "x"], []], {"b": 1, "a": [None], "ñ": 2.5, "😀": 0, "\uff5e": 1}, {}, "x" * 40]
json_configs = [
    numcodecs.JSON(),
    numcodecs.JSON(indent=2),
    numcodecs.JSON(indent=0),
    numcodecs.JSON(indent="\t"),
    numcodecs.JSON(ensure_ascii=False, encoding="utf-8"),
    numcodecs.JSON(sort_keys=False),
    numcodecs.JSON(separators=(", ", ": ")),
    numcodecs.JSON(indent=1, separators=(",", ":")),
]
for codec in json_configs:
    values = mixed if codec._encoder_config["ensure_ascii"] else [v for v in mixed if v != "sur\ud800rogate"]
    label = json.dumps({k: v for k, v in codec.get_config().items() if k != "id"}, sort_keys=True)
    add_object(f"json2 mixed {label}", codec, object_array(values))
add_object("json2 strings", numcodecs.JSON(), object_array(strings))
add_object("json2 empty", numcodecs.JSON(), object_array([]))
add_object("json2 2-d", numcodecs.JSON(), object_array(["a", 1, None, 2.5, [1], {"k": "v"}], (2, 3)))
add_object("json2 3-d indent", numcodecs.JSON(indent=2), object_array(list(range(12)), (2, 3, 2)))
add_object("json2 utf-16", numcodecs.JSON(encoding="utf-16", ensure_ascii=False), object_array(strings))
add_object("json2 utf-16-be", numcodecs.JSON(encoding="utf-16-be", ensure_ascii=False), object_array(strings))
add_object("json2 latin-1", numcodecs.JSON(encoding="latin-1", ensure_ascii=False), object_array(["a", "ñ", "é"]))
add_object("json2 ascii", numcodecs.JSON(encoding="ascii"), object_array(strings))
for dt in ["<i4", "<f8", "<f4", "|b1", "<u8", ">i2", "<f2", "|i1"]:
    data = ints(dt, 7, 35) if np.dtype(dt).kind in "iu" else floats(dt, 9, 36) if np.dtype(dt).kind == "f" else np.array([True, False, True])
    add_object(f"json2 numeric {dt}", numcodecs.JSON(), data)
add_object("json2 numeric 2-d", numcodecs.JSON(), np.arange(6, dtype="<i4").reshape(2, 3))

msg_values = ["a", "ñ", "", "日本", "😀", None, True, False, 0, 1, -1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32,
              2**53 + 1, 2**63, 2**64 - 1, -32, -33, -128, -129, -32768, -32769, -(2**31), -(2**31) - 1, -(2**63),
              1.0, 0.1, -0.0, 1e300, float("nan"), float("inf"), b"", b"\x00\xff", [1, [2, "x"], []], {"b": 1, "a": [None]}, {},
              "x" * 31, "x" * 32, "x" * 255, "x" * 256, b"z" * 255, b"z" * 256,
              list(range(15)), list(range(16)), {str(i): i for i in range(15)}, {f"k{i}": i for i in range(16)},
              msgpack.ExtType(5, b"xy"), msgpack.ExtType(3, b"12345678"), msgpack.ExtType(7, b"abc")]
for kwargs in [{}, {"use_single_float": True}, {"use_bin_type": False}, {"raw": True}, {"use_bin_type": False, "raw": True}]:
    codec = numcodecs.MsgPack(**kwargs)
    label = json.dumps(kwargs, sort_keys=True)
    add_object(f"msgpack2 mixed {label}", codec, object_array(msg_values))
add_object("msgpack2 strings", numcodecs.MsgPack(), object_array(strings))
add_object("msgpack2 64 KiB str and bin", numcodecs.MsgPack(), object_array(["y" * 65535, "y" * 65536, b"w" * 65535, b"w" * 65536]))
add_object("msgpack2 64 KiB raw str", numcodecs.MsgPack(use_bin_type=False, raw=True), object_array([b"w" * 65536]))
add_object("msgpack2 long list", numcodecs.MsgPack(), object_array([[None] * 65536, [True] * 65535]))
add_object("msgpack2 empty", numcodecs.MsgPack(), object_array([]))
add_object("msgpack2 2-d", numcodecs.MsgPack(), object_array(["a", 1, None, 2.5, [1], {"k": "v"}], (3, 2)))
for dt in ["<i4", "<f8", "<f4", "|b1", "<u8", ">i2", "<f2", "|i1"]:
    data = ints(dt, 7, 37) if np.dtype(dt).kind in "iu" else floats(dt, 9, 38) if np.dtype(dt).kind == "f" else np.array([True, False, True])
    add_object(f"msgpack2 numeric {dt}", numcodecs.MsgPack(), data)

base64_cases = []
for name, data in [("empty", b""), ("one", b"a"), ("two", b"ab"), ("three", b"abc"), ("binary", bytes(range(256))),
                   ("random", rng(39).randint(0, 256, 1000).astype("u1").tobytes())]:
    codec = numcodecs.Base64()
    enc = bytes(codec.encode(np.frombuffer(data, dtype="u1")))
    assert bytes(codec.decode(enc)) == data
    base64_cases.append({"name": f"base64 {name}", "config": codec.get_config(), "input": b64(data), "encoded": b64(enc)})
lenient = [b"YWJj\n", b"YW Jj", b"YWJjZA==", b"YWJjZA==garbage", b"YWJjZA=", b"YWJjZA", b"YWJjZ", b"Y", b"====", b"YQ==YQ==",
           b"YWJ\xffj", b"Y=WJj", b"YW=Jj", b"YWJ=j", b"YW==", b"YW=", b"=", b"", b"!!!!", b"YWJjZGVm\r\n", b"YQ"]
for text in lenient:
    try:
        dec = bytes(numcodecs.Base64().decode(text))
        base64_cases.append({"name": f"base64 decode {text!r}", "config": {"id": "base64"}, "encoded": b64(text), "decoded": b64(dec)})
    except Exception as e:
        base64_cases.append({"name": f"base64 decode {text!r} fails", "config": {"id": "base64"}, "encoded": b64(text), "error": str(e)})

# Quantize's scale for each number of digits, computed by numcodecs' code.
quantize_scales = []
for digits in range(-30, 60):
    precision = 10. ** -digits
    exp = math.log(precision, 10)
    exp = int(math.floor(exp)) if exp < 0 else int(math.ceil(exp))
    bits = math.ceil(math.log(10. ** -exp, 2))
    quantize_scales.append([digits, repr(2. ** bits)])

# NumPy's value-based result types of `array op scalar`.
result_types = []
scalars = [0, 1, 100, 127, 128, 200, 255, 256, 1000, 32767, 32768, 40000, 65535, 65536, 2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63,
           -1, -100, -128, -129, -200, -32768, -32769, -40000, -(2**31), -(2**31) - 1, -(2**63),
           0.5, 1.0, 1000.0, 64999.0, 65000.0, 65504.0, 70000.0, 3.3e38, 3.4e38, 1e300, float("nan"), float("inf"), -1e5, -1e39]
for t in ["|b1"] + [typed("<", t) for t in INT_TYPES + FLOAT_TYPES]:
    for s in scalars:
        try:
            rt = np.result_type(np.dtype(t), s).str
        except Exception:
            rt = None
        result_types.append([t, {"int": str(s)} if isinstance(s, int) else {"float": repr(s)}, rt])


# get_config() of codecs built from constructor arguments, as a .zarray records them.
config_cases = []
for cls, kwargs in [
    (numcodecs.Delta, {"dtype": "int16"}), (numcodecs.Delta, {"dtype": ">f8", "astype": "float32"}),
    (numcodecs.FixedScaleOffset, {"offset": 1000, "scale": 10, "dtype": "f8", "astype": "u1"}),
    (numcodecs.FixedScaleOffset, {"offset": 1000.0, "scale": 0.5, "dtype": "<f4"}),
    (numcodecs.Quantize, {"digits": 3, "dtype": "float64"}), (numcodecs.Quantize, {"digits": 1, "dtype": "f4", "astype": "f2"}),
    (numcodecs.PackBits, {}), (numcodecs.Categorize, {"labels": ["a", "ñ"], "dtype": object}),
    (numcodecs.Categorize, {"labels": ["a"], "dtype": "U3", "astype": "u2"}),
    (numcodecs.AsType, {"encode_dtype": "f4", "decode_dtype": "f8"}), (numcodecs.Shuffle, {}), (numcodecs.Shuffle, {"elementsize": 8}),
    (numcodecs.BitRound, {"keepbits": 7}), (numcodecs.CRC32, {}), (numcodecs.Adler32, {}),
    (numcodecs.VLenUTF8, {}), (numcodecs.VLenBytes, {}), (numcodecs.VLenArray, {"dtype": "int32"}), (numcodecs.VLenArray, {"dtype": ">u8"}),
    (numcodecs.JSON, {}), (numcodecs.JSON, {"indent": 2}), (numcodecs.JSON, {"indent": 2, "separators": [",", ":"], "encoding": "latin-1"}),
    (numcodecs.MsgPack, {}), (numcodecs.MsgPack, {"use_single_float": True, "use_bin_type": False, "raw": True}), (numcodecs.Base64, {}),
]:
    config = cls(**kwargs).get_config()
    config_cases.append({"arguments": {k: (v if v is not object else "object") for k, v in kwargs.items()}, "config": config})


def dump(name, payload):
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        json.dump(payload, f, indent=0, ensure_ascii=True)
        f.write("\n")
    print(f"{name}: {os.path.getsize(path)} bytes")


dump("numcodecs-filters.json", {"numcodecs": numcodecs.__version__, "numpy": np.__version__, "cases": filters,
                                "quantizeScales": quantize_scales, "resultTypes": result_types, "configs": config_cases})
dump("numcodecs-checksums.json", {"numcodecs": numcodecs.__version__,
                                  "inputs": {k: b64(v) for k, v in checksum_inputs.items()}, "cases": checksums})
dump("numcodecs-objects.json", {"numcodecs": numcodecs.__version__, "msgpack": ".".join(map(str, msgpack.version)),
                                "cases": objects, "base64": base64_cases})
