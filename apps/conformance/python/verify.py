#!/usr/bin/python3
"""Checks arrays written by our TypeScript code against what zarr-python wrote for the same case.

Usage: /usr/bin/python3 verify.py FIXTURES OURS

FIXTURES is a directory made by generate.py; OURS/<name>/array is our writing of case <name>.
For every case of FIXTURES:

  1. zarr-python reads OURS/<name>/array (z[...]) bit-exactly as expected.bin (NaN payloads too);
  2. our .zarray is byte-for-byte zarr-python's;
  3. our chunk keys (every file but .zarray/.zattrs) are exactly zarr-python's;
  4. every chunk holds what zarr-python's holds: the same bytes without a compressor, the same
     decompressed bytes with one (so the layout counts: F order, and the padding of edge chunks,
     which zarr-python fills with the fill value, or zeros without one).

Every mismatch is reported (case name and what differs); the exit status is 1 if any case fails.
"""

import difflib
import json
import sys
from pathlib import Path

import numcodecs
import numpy as np
import zarr

import objects
from generate import chunk_files, to_le_bytes

MAX_LISTED = 8  # differing keys or cells listed per problem


# --- describing differences -------------------------------------------------------------------


def first_difference(a, b):
    """Offset of the first differing byte of a and b (or of the shorter one's end)."""
    n = min(len(a), len(b))
    diff = np.flatnonzero(np.frombuffer(a[:n], np.uint8) != np.frombuffer(b[:n], np.uint8))
    return int(diff[0]) if diff.size else n


def describe_bytes(ours, theirs):
    if len(ours) != len(theirs):
        return f"{len(ours)} bytes instead of {len(theirs)} (first difference at byte {first_difference(ours, theirs)})"
    return f"first difference at byte {first_difference(ours, theirs)}"


def describe_elements(ours, theirs, dtype, shape):
    """Which cells differ between two little-endian encodings of an array, as bits."""
    le = dtype.newbyteorder("<")
    if len(ours) != len(theirs):
        return describe_bytes(ours, theirs)
    bits = np.dtype(f"<u{le.itemsize}") if le.itemsize in (1, 2, 4, 8) else np.dtype(f"V{le.itemsize}")
    a, b = np.frombuffer(ours, bits), np.frombuffer(theirs, bits)
    bad = np.flatnonzero(a != b)
    ours_v, theirs_v = np.frombuffer(ours, le), np.frombuffer(theirs, le)
    cells = [
        f"{list(np.unravel_index(i, shape)) if shape else []}: {ours_v[i]!r} ({hex_bits(a[i])}) "
        f"instead of {theirs_v[i]!r} ({hex_bits(b[i])})"
        for i in bad[:MAX_LISTED]
    ]
    return f"{bad.size} of {a.size} cells differ: " + "; ".join(cells)


def hex_bits(x):
    return hex(int(x)) if isinstance(x, np.integer) else bytes(x).hex()


def listed(keys):
    keys = sorted(keys)
    more = f" and {len(keys) - MAX_LISTED} more" if len(keys) > MAX_LISTED else ""
    return ", ".join(keys[:MAX_LISTED]) + more


# --- the four checks --------------------------------------------------------------------------


def check_read(fixture, ours_array):
    """1. zarr-python reads our array as expected.bin."""
    try:
        z = zarr.open_array(str(ours_array), mode="r")
        if z.dtype == object:
            return check_read_objects(fixture, z)
        got = to_le_bytes(z[...])
    except Exception as e:  # any failure to read is the finding
        return [f"zarr-python cannot read it: {type(e).__name__}: {e}"]
    expected = (fixture / "expected.bin").read_bytes()
    if got == expected:
        return []
    return [f"zarr-python reads different values: {describe_elements(got, expected, z.dtype, z.shape)}"]


def check_read_objects(fixture, z):
    """1, for object arrays: the elements zarr-python reads, JSON-encoded, are expected.json's."""
    got = objects.encode_array(z[...])
    expected = json.loads((fixture / "expected.json").read_text())
    bad = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    if len(got) != len(expected):
        return [f"zarr-python reads {len(got)} elements instead of {len(expected)}"]
    if not bad:
        return []
    cells = [f"{list(np.unravel_index(i, z.shape))}: {got[i]!r} instead of {expected[i]!r}" for i in bad[:MAX_LISTED]]
    return [f"zarr-python reads different values: {len(bad)} of {len(got)} cells differ: " + "; ".join(cells)]


def check_metadata(fixture_array, ours_array):
    """2. .zarray is byte-for-byte zarr-python's."""
    theirs = (fixture_array / ".zarray").read_bytes()
    try:
        ours = (ours_array / ".zarray").read_bytes()
    except FileNotFoundError:
        return ["no .zarray"]
    if ours == theirs:
        return []
    diff = difflib.unified_diff(
        theirs.decode(errors="replace").splitlines(), ours.decode(errors="replace").splitlines(),
        "zarr-python", "ours", lineterm="", n=1,
    )
    return [f".zarray differs ({describe_bytes(ours, theirs)}):\n" + "\n".join(diff)]


def check_chunk_keys(ours_keys, their_keys):
    """3. the same set of chunk keys."""
    problems = []
    if their_keys - ours_keys:
        problems.append(f"chunks missing: {listed(their_keys - ours_keys)}")
    if ours_keys - their_keys:
        problems.append(f"chunks zarr-python does not write: {listed(ours_keys - their_keys)}")
    return problems


def compressor_of(fixture_array):
    config = json.loads((fixture_array / ".zarray").read_text())["compressor"]
    return numcodecs.get_codec(config) if config is not None else None


def chunk_payload(data, compressor):
    """The chunk's bytes before compression (the filtered, laid-out elements)."""
    return bytes(data) if compressor is None else bytes(compressor.decode(data))


def check_chunk_contents(fixture_array, ours_array, keys):
    """4. each chunk's bytes (decompressed, with a compressor) are zarr-python's."""
    compressor = compressor_of(fixture_array)
    stage = "bytes" if compressor is None else "decompressed bytes"
    bad = []
    for key in sorted(keys):
        theirs = chunk_payload((fixture_array / key).read_bytes(), compressor)
        try:
            ours = chunk_payload((ours_array / key).read_bytes(), compressor)
        except Exception as e:
            bad.append(f"{key}: cannot decompress ({type(e).__name__}: {e})")
            continue
        if ours != theirs:
            bad.append(f"{key}: {describe_bytes(ours, theirs)}")
    if not bad:
        return []
    more = f"; and {len(bad) - MAX_LISTED} more" if len(bad) > MAX_LISTED else ""
    return [f"{len(bad)} chunks differ in their {stage}: " + "; ".join(bad[:MAX_LISTED]) + more]


# --- cases ------------------------------------------------------------------------------------


def verify_case(fixture, ours_case):
    """Every problem with our writing of one case (empty: it conforms)."""
    fixture_array, ours_array = fixture / "array", ours_case / "array"
    if not ours_array.is_dir():
        return [f"not written ({ours_array} does not exist)"]
    problems = check_read(fixture, ours_array)
    problems += check_metadata(fixture_array, ours_array)
    ours_keys, their_keys = chunk_files(ours_array), chunk_files(fixture_array)
    problems += check_chunk_keys(ours_keys, their_keys)
    problems += check_chunk_contents(fixture_array, ours_array, ours_keys & their_keys)
    return problems


def fixture_cases(fixtures):
    return sorted(d for d in fixtures.iterdir() if (d / "case.json").is_file())


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    fixtures, ours = Path(argv[0]), Path(argv[1])
    cases = fixture_cases(fixtures)
    if not cases:
        sys.exit(f"verify: no cases in {fixtures}")
    failed = 0
    for fixture in cases:
        problems = verify_case(fixture, ours / fixture.name)
        if problems:
            failed += 1
            print(f"FAIL {fixture.name}")
            for p in problems:
                print("  - " + p.replace("\n", "\n    "))
        else:
            print(f"ok   {fixture.name}")
    print(f"verify.py (zarr {zarr.__version__}): {len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
