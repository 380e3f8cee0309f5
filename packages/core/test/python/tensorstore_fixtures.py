#!/usr/bin/python3
"""TensorStore-written zarr v2 arrays of its extension dtypes, for tensorstore.test.ts, and the check
that TensorStore reads back what our library wrote.

Usage, in a venv with tensorstore 0.1.85, ml_dtypes and numpy from pip (or, as first made, with the
unpacked tensorstore and ml_dtypes 0.5.x cp311 wheels on PYTHONPATH of /usr/bin/python3):

  python tensorstore_fixtures.py generate ../fixtures/tensorstore
  python tensorstore_fixtures.py verify ../fixtures/tensorstore OURS

`generate` writes, for each case, <case>/array (TensorStore's array: a 2-D grid, zlib, one write
that leaves the last chunk row missing so it reads as the fill value) and <case>/expected.json
(TensorStore's reading of the whole array: float32 bits for the floats, ints for int4/int2; and for
the floats, `rewritten`: the codes ml_dtypes converts those float32 values back to, what z writes).
`verify` opens OURS/<case>/array (written by tensorstore.test.ts with Z_TENSORSTORE_OUT=OURS)
with TensorStore and checks that it reads expected.json's values (a NaN as a NaN of the same sign),
that the written rows hold the `rewritten` codes, and that the .zarray says the same as TensorStore's.
"""
import json
import shutil
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import tensorstore as ts

SHAPE, CHUNKS, WRITTEN_ROWS = [16, 16], [5, 7], 12

CASES = {
    "bfloat16": 1.5,
    "float8_e3m4": 0.25,
    "float8_e4m3fn": "NaN",
    "float8_e4m3fnuz": -2.0,
    "float8_e4m3b11fnuz": 0.125,
    "float8_e5m2": "-Infinity",
    "float8_e5m2fnuz": "NaN",
    "int4": -1,
    "int2": 1,
}


def source_values(name):
    """Every code of the 8-bit types (in a scrambled order), random codes for bfloat16, every value for the ints."""
    t = getattr(ml_dtypes, name)
    n = SHAPE[0] * SHAPE[1]
    rng = np.random.default_rng(len(name))
    if name == "bfloat16":
        codes = rng.integers(0, 2**16, n, dtype=np.uint64).astype(np.uint16)
        # Infinities, NaNs of both signs (with payloads, signalling too), the smallest subnormal, -0, 1.
        codes[:9] = [0x7F80, 0xFF80, 0x7FC0, 0x0001, 0x8000, 0x3F80, 0xFFC0, 0x7F81, 0xFFA5]
        return codes.view(t).reshape(SHAPE)
    if name in ("int4", "int2"):
        lo = -(2 ** (3 if name == "int4" else 1))
        return (np.arange(n) % (-2 * lo) + lo).astype(np.int8).astype(t).reshape(SHAPE)
    return rng.permutation(np.arange(256, dtype=np.uint8)).view(t).reshape(SHAPE)


def spec(path, name, fill, create):
    s = {"driver": "zarr", "kvstore": {"driver": "file", "path": str(Path(path).resolve())}}
    if create:
        s["metadata"] = {"dtype": name, "shape": SHAPE, "chunks": CHUNKS, "compressor": {"id": "zlib", "level": 1}, "fill_value": fill}
    return s


def encoded(values, name):
    if name in ("int4", "int2"):
        return values.astype(np.int8).ravel().tolist()
    return values.astype(np.float32).view(np.uint32).ravel().tolist()


def rewritten(case, name, fill, whole):
    """The codes of the float32 values TensorStore read (as z holds them) converted back to the
    format as ml_dtypes converts (z's documented rounding): the same codes, but a NaN becomes the
    format's NaN of its sign. TensorStore's own float32 conversion agrees, except for bfloat16
    NaNs, which it truncates and marks with bit 5 (0x7fc00000 -> 0x7fe0); that is checked here."""
    f32 = whole.astype(np.float32)
    t = ts.open(spec(case / "rewritten", name, fill, True), create=True).result()
    ts.cast(t, ts.float32)[...] = f32  # TensorStore converts float32 to the format
    view = np.uint16 if name == "bfloat16" else np.uint8
    theirs = t.read().result().view(view)
    shutil.rmtree(case / "rewritten")
    codes = f32.astype(getattr(ml_dtypes, name)).view(view)
    differ = theirs != codes
    if name == "bfloat16":
        assert np.isnan(f32[differ]).all() and (theirs[differ] == ((f32[differ].view(np.uint32) >> 16) | 0x20)).all(), "bfloat16: unexpected TensorStore conversion"
    else:
        assert not differ.any(), f"{name}: TensorStore and ml_dtypes convert float32 differently"
    return codes.ravel().tolist()


def generate(outdir):
    outdir = Path(outdir)
    for name, fill in CASES.items():
        case = outdir / name
        shutil.rmtree(case, ignore_errors=True)
        t = ts.open(spec(case / "array", name, fill, True), create=True).result()
        t[:WRITTEN_ROWS, :] = source_values(name)[:WRITTEN_ROWS, :]
        whole = ts.open(spec(case / "array", name, fill, False)).result().read().result()
        expected = {"dtype": name, "fill_value": fill, "shape": SHAPE, "chunks": CHUNKS, "written_rows": WRITTEN_ROWS, "values": encoded(whole, name)}
        if name not in ("int4", "int2"):
            expected["rewritten"] = rewritten(case, name, fill, whole)
        (case / "expected.json").write_text(json.dumps(expected) + "\n")
    print(f"generated {len(CASES)} TensorStore cases in {outdir}")


def verify(fixtures, ours):
    failed = 0
    for name in CASES:
        expected = json.loads((Path(fixtures) / name / "expected.json").read_text())
        problems = []
        try:
            read = ts.open(spec(Path(ours) / name / "array", name, None, False)).result().read().result()
            got = encoded(read, name)
        except Exception as e:
            read, got, problems = None, [], [f"TensorStore cannot read it: {e}"]
        for i, (a, b) in enumerate(zip(got, expected["values"])):
            # A NaN of the same sign (a bfloat16 NaN's payload is not written: ml_dtypes' float32 conversion).
            if a != b and not (name not in ("int4", "int2") and np.isnan(np.uint32(a).view(np.float32)) and np.isnan(np.uint32(b).view(np.float32)) and a >> 31 == b >> 31):
                problems.append(f"element {i}: {a:#x} instead of {b:#x}")
        if read is not None and "rewritten" in expected:
            # The stored codes themselves, in the rows written: what ml_dtypes converts the values to.
            n = expected["written_rows"] * SHAPE[1]
            codes = read.view(np.uint16 if name == "bfloat16" else np.uint8).ravel()[:n].tolist()
            problems += [f"code {i}: {a:#x} instead of {b:#x}" for i, (a, b) in enumerate(zip(codes, expected["rewritten"][:n])) if a != b]
        theirs = json.loads((Path(fixtures) / name / "array" / ".zarray").read_text())
        mine = json.loads((Path(ours) / name / "array" / ".zarray").read_text())
        if mine != theirs:
            problems.append(f".zarray says {mine} instead of {theirs}")
        print(("FAIL " if problems else "ok   ") + name + "".join("\n  - " + p for p in problems[:5]))
        failed += bool(problems)
    print(f"tensorstore verify: {len(CASES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["generate"] and len(sys.argv) == 3:
        generate(sys.argv[2])
    elif sys.argv[1:2] == ["verify"] and len(sys.argv) == 4:
        sys.exit(verify(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
