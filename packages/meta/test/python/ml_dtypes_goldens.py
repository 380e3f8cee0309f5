#!/usr/bin/python3
"""Golden conversions for TensorStore's extension dtypes, computed by ml_dtypes (the library
TensorStore, JAX and the zarr-python users of these dtypes share).

Usage: PYTHONPATH=<dir with ml_dtypes> /usr/bin/python3 ml_dtypes_goldens.py > ../fixtures/ml-dtypes-goldens.json

Debian has no ml_dtypes package; unpack its wheel (0.5.x, cp311) into a directory and put that on
PYTHONPATH, or run it with the python of the TensorStore venv (apps/bench/python/ensure-tensorstore.sh;
ml_dtypes 0.6, which made the committed file). For each float8 format: the float32 value of every one of the 256 codes (as float32
bits, so NaN stays visible), and the code each of a list of float32 inputs rounds to (every code's
value, every midpoint between neighbouring codes and its float32 neighbours, overflow, NaN, -0.0,
infinities). For bfloat16 the same with random and tie-case float32 inputs. For int4, int2, uint4
and uint2 the value of every byte.
"""
import json
import sys

import ml_dtypes
import numpy as np

FLOAT8 = ["float8_e3m4", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2", "float8_e5m2fnuz"]
# Formats ml_dtypes 0.5 did not have (float4_e2m1fn is stored one per byte, as TensorStore does).
FLOAT8 += ["float4_e2m1fn", "float8_e8m0fnu"]


def f32_bits(values):
    return np.asarray(values, dtype=np.float32).view(np.uint32).tolist()


def float8_case(name):
    t = getattr(ml_dtypes, name)
    codes = np.arange(256, dtype=np.uint8)
    values = codes.view(t).astype(np.float32)
    finite = np.sort(np.unique(values[np.isfinite(values)]))
    mids = (finite[:-1].astype(np.float64) + finite[1:]) / 2
    mids32 = mids.astype(np.float32)
    probes = np.concatenate([
        values[np.isfinite(values)],
        mids32,
        np.nextafter(mids32, np.float32(np.inf)),
        np.nextafter(mids32, np.float32(-np.inf)),
        np.array([np.inf, -np.inf, np.nan, -np.nan, 0.0, -0.0, 1e30, -1e30, 1e-30, -1e-30], dtype=np.float32),
        finite[-1:] * np.float32(1.0625), finite[-1:] * np.float32(1.125), finite[-1:] * np.float32(1.5),
        -finite[-1:] * np.float32(1.0625), -finite[-1:] * np.float32(1.125),
        np.random.default_rng(8).standard_normal(200).astype(np.float32) * np.float32(finite[-1] / 4),
    ]).astype(np.float32)
    return {
        "decode": f32_bits(values),
        "encode": [[b, int(c)] for b, c in zip(f32_bits(probes), probes.astype(t).view(np.uint8).tolist())],
    }


def bfloat16_case():
    rng = np.random.default_rng(16)
    bits = np.concatenate([
        rng.integers(0, 2**32, 2000, dtype=np.uint64).astype(np.uint32),
        # ties: the low 16 bits exactly 0x8000, with even and odd upper halves
        (rng.integers(0, 2**16, 200, dtype=np.uint64).astype(np.uint32) << 16) | 0x8000,
        np.array([0x7F7FFFFF, 0xFF7FFFFF, 0x7F7F8000, 0x7F7F7FFF, 0x00000001, 0x80008000, 0x7F800001, 0xFFC00001, 0x7FBFFFFF], dtype=np.uint32),
    ]).astype(np.uint32)
    probes = bits.view(np.float32)
    codes = np.arange(2**16, dtype=np.uint16).view(ml_dtypes.bfloat16).astype(np.float32)
    return {
        "decode_nan_codes": [int(c) for c in np.flatnonzero(np.isnan(codes))[:4]],
        "encode": [[int(b), int(c)] for b, c in zip(bits.tolist(), probes.astype(ml_dtypes.bfloat16).view(np.uint16).tolist())],
    }


def int_case(name):
    t = getattr(ml_dtypes, name)
    return {"decode": np.arange(256, dtype=np.uint8).view(t).astype(np.int8).tolist()}


def uint_case(name):
    t = getattr(ml_dtypes, name)
    return {"decode": np.arange(256, dtype=np.uint8).view(t).astype(np.uint8).tolist()}


out = {
    "ml_dtypes": ml_dtypes.__version__,
    "bfloat16": bfloat16_case(),
    "int4": int_case("int4"),
    "int2": int_case("int2"),
    "uint4": uint_case("uint4"),
    "uint2": uint_case("uint2"),
}
for name in FLOAT8:
    out[name] = float8_case(name)
json.dump(out, sys.stdout, separators=(",", ":"))
sys.stdout.write("\n")
