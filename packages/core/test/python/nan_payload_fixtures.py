#!/usr/bin/python3
"""Arrays of floats and complexes holding signalling NaNs, NaN payloads and negative zeros,
written and read by zarr-python 2.13 (numpy copies every bit), for nan-payloads.test.ts.

    /usr/bin/python3 nan_payload_fixtures.py ../fixtures/nan-payloads

For each dtype (<f4 >f4 <c8 >c8 <f8 >f8 <c16 >c16) and order (C, F), a 5x7 array in 3x4 chunks,
no compressor, fill value NaN:

- <case>/source: zarr-python's `z[...] = source`;
- <case>/writes: the writes listed in WRITES, one after another on an empty array (each one a
  read-modify-write of chunks holding the fill value or earlier writes);

and <case>.json: the source and each write's value as hex of little-endian bytes, and what
zarr-python (then numpy, for the negative steps zarr-python 2.13 lacks) reads for each of READS.
"""
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import zarr

SHAPE, CHUNKS = (5, 7), (3, 4)
DTYPES = ["<f4", ">f4", "<c8", ">c8", "<f8", ">f8", "<c16", ">c16"]

# Bits placed among ordinary values: signalling NaNs (positive and negative, with payloads), a
# quiet NaN with a payload, -0.0, the negative quiet NaN and the largest signalling NaN.
SPECIALS = {
    4: [0x7F800001, 0xFF800123, 0x7FC00005, 0x80000000, 0xFFC00000, 0x7FBFFFFF],
    8: [0x7FF0000000000001, 0xFFF0000000000123, 0x7FF8000000000005, 0x8000000000000000, 0xFFF8000000000000, 0x7FF7FFFFFFFFFFFF],
}
UINT = {4: np.uint32, 8: np.uint64}

# The selections read, as the test spells them (Python slices with a negative step are applied by
# numpy to zarr-python's whole read, as zarr-python 2.13 has no negative steps).
READS = {
    "all": lambda z, a: z[...],
    "reversed rows of column 1": lambda z, a: a[::-1, 1],
    "every other row backwards, every third column backwards": lambda z, a: a[4:0:-2, ::-3],
    "element [1, 2]": lambda z, a: z[1, 2],
    "row 3": lambda z, a: z[3],
    "column 6": lambda z, a: z[:, 6],
    "oindex [[4, 0, 3], [6, 1, 1]]": lambda z, a: z.oindex[[4, 0, 3], [6, 1, 1]],
    "vindex [[0, 4, 2, 1], [6, 0, 3, 0]]": lambda z, a: z.vindex[[0, 4, 2, 1], [6, 0, 3, 0]],
}


def floats(bits, dtype):
    """numpy floats (of dtype's base float type, native order) with exactly these bits."""
    width = np.dtype(dtype).itemsize // (2 if np.dtype(dtype).kind == "c" else 1)
    return np.asarray(bits, dtype=UINT[width]).view(f"<f{width}")


def source(dtype):
    dt = np.dtype(dtype)
    complex_ = dt.kind == "c"
    width = dt.itemsize // (2 if complex_ else 1)
    n = SHAPE[0] * SHAPE[1] * (2 if complex_ else 1)
    values = (np.arange(n) * 1.5 - 10).astype(f"<f{width}")
    bits = values.view(UINT[width])
    for i, special in enumerate(SPECIALS[width]):
        bits[(i * 11 + 1) % n] = special
        bits[(i * 7 + 4) % n] = special
    values = bits.view(f"<f{width}")
    if complex_:
        values = values.view(f"<c{2 * width}")
    return values.reshape(SHAPE).astype(dt)


def little(values, dtype):
    """Hex of the values' bytes, little-endian (what z holds in memory), C order."""
    dt = np.dtype(dtype)
    a = np.ascontiguousarray(values, dtype=dt)
    return (a.byteswap() if dt.byteorder == ">" else a).tobytes().hex()


def writes(dtype):
    """The writes, each as (description for the test, what the test passes, what zarr-python does)."""
    dt = np.dtype(dtype)
    src = source(dtype)
    width = dt.itemsize // (2 if dt.kind == "c" else 1)
    # A scalar: a double the test passes as a JS number. numpy converts it to float32 as the CPU
    # does (the quiet NaN 0xffc00005 for a float32 array); a float64 array keeps its signalling NaN.
    scalar_bits = 0xFFF0000000000123 if width == 8 else 0xFFF80000A0000000
    scalar = floats([scalar_bits], "<f8")[0]
    # One element of signalling NaNs (the real part positive, the imaginary part negative).
    one = floats([SPECIALS[width][0]], dtype)[0] if dt.kind != "c" else np.array(floats([SPECIALS[width][0], SPECIALS[width][1]], dtype)).view(f"<c{2 * width}")[0]
    out = []

    def w(kind, selection, value, apply):
        out.append((kind, selection, value, apply))

    block = src[1:4, 2:6]
    w("basic", "[1:4, 2:6]", block, lambda z: z.__setitem__((slice(1, 4), slice(2, 6)), block))
    reverse = src[4:0:-1, 0:7:3]
    w("basic", "[4:0:-1, 0:7:3]", reverse, lambda z: z.__setitem__((slice(1, 5), slice(0, 7, 3)), reverse[::-1]))
    outer = src[[0, 3, 4]][:, [6, 1, 2]]
    w("oindex", "[[0, 3, 4], [6, 1, 2]]", outer, lambda z: z.oindex.__setitem__(([0, 3, 4], [6, 1, 2]), outer))
    points = src[[0, 2, 4, 1], [5, 0, 3, 6]]
    w("vindex", "[[0, 2, 4, 1], [5, 0, 3, 6]]", points, lambda z: z.vindex.__setitem__(([0, 2, 4, 1], [5, 0, 3, 6]), points))
    if dt.kind == "c":
        # A complex scalar [re, im]: 0 and -0 (numpy keeps the sign of the imaginary zero).
        pair = np.array([0.0, -0.0])
        w("scalar", "[2, 3:7]", pair, lambda z: z.__setitem__((2, slice(3, 7)), complex(0.0, -0.0)))
    else:
        w("scalar", "[2, 3:7]", floats([scalar_bits], "<f8"), lambda z: z.__setitem__((2, slice(3, 7)), scalar))
    # numpy's scalar of the array's type, which zarr-python fills with (the test passes a 0-d array).
    w("zero-d", "[0, 0:3]", np.array(one, dtype=dt), lambda z: z.__setitem__((0, slice(0, 3)), one))
    w("basic", "[:, 6]", src[:, 6], lambda z: z.__setitem__((slice(None), 6), src[:, 6]))
    return out


def chunk_files(path):
    return sorted(p.name for p in Path(path).iterdir() if not p.name.startswith("."))


def generate(outdir):
    outdir = Path(outdir)
    shutil.rmtree(outdir, ignore_errors=True)
    outdir.mkdir(parents=True)
    cases = []
    for dtype in DTYPES:
        for order in "CF":
            name = f"{dtype.replace('<', 'le-').replace('>', 'be-')}-{order}"
            fill = complex(np.nan, 0) if np.dtype(dtype).kind == "c" else np.nan
            make = lambda path: zarr.open_array(str(path), mode="w", shape=SHAPE, chunks=CHUNKS, dtype=dtype, order=order, compressor=None, fill_value=fill)
            src = source(dtype)
            z = make(outdir / name / "source")
            z[...] = src
            whole = z[...]
            assert whole.tobytes() == src.tobytes(), f"{name}: zarr-python changed the source"
            reads = {label: little(read(z, whole), dtype) for label, read in READS.items()}
            assert reads["all"] == little(src, dtype)
            zw = make(outdir / name / "writes")
            steps = []
            for kind, selection, value, apply in writes(dtype):
                apply(zw)
                # A scalar's value: the float64s the test passes as JS numbers.
                text = little(value, "<f8") if kind == "scalar" else little(value, dtype)
                steps.append({"kind": kind, "selection": selection, "value": text, "shape": [] if kind == "scalar" else list(value.shape)})
            case = {"name": name, "dtype": dtype, "order": order, "shape": list(SHAPE), "chunks": list(CHUNKS),
                    "source": little(src, dtype), "reads": reads, "writes": steps,
                    "source_chunks": chunk_files(outdir / name / "source"), "written_chunks": chunk_files(outdir / name / "writes")}
            (outdir / f"{name}.json").write_text(json.dumps(case, indent=1) + "\n")
            cases.append(name)
    (outdir / "cases.json").write_text(json.dumps({"zarr": zarr.__version__, "numpy": np.__version__, "cases": cases}, indent=1) + "\n")
    print(f"wrote {len(cases)} cases to {outdir}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    generate(sys.argv[1])
