#!/usr/bin/python3
"""Writes the conformance fixtures with zarr-python: the reference our TypeScript code is held to.

Usage: /usr/bin/python3 generate.py OUTDIR [--cases DIR]

For every case in DIR/*.json (default: ../cases), OUTDIR/<name>/ receives:

  array/          the array as zarr-python writes it (zarr.create + the case's writes)
  case.json       the case spec, as given
  values.bin      the source values the writes take their data from: the whole array's shape,
                  C order, little-endian (bool as 0/1 bytes)
  expected.bin    what reading the whole array gives (zarr-python's z[...]), encoded the same way
  selections.json a few basic selections (ints, negative ints, slices with steps) and, for each,
                  the shape of the result and the file holding zarr-python's result
  sel-<i>.bin     those results, encoded as expected.bin

A case is a JSON object:

  name                 directory name, unique across all files
  shape, chunks        lists of ints ([] for a 0-d array)
  dtype                a v2 type string such as "<f8", "|b1", or "|O" for an object array, whose
                       object codec is the first filter (see objects.py: such cases have .json
                       files where others have .bin files)
  compressor           codec config ({"id": "zlib", "level": 1}) or null
  order                "C" or "F"
  dimension_separator  "." or "/"; omitted = not passed to zarr
  fill_value           in .zarray encoding ("NaN", "Infinity", 18446744073709551615, null, ...)
  filters              list of codec configs or null
  writes               list of regions, each a list of [start, stop] per dimension, applied in
                       order with z[region] = values[region]; omitted = one write of the whole
                       array; [] = nothing written

Gzip chunks get 0 as the time stamp in their header (see zero_gzip_mtimes), so that generating
twice gives identical trees (live.sh checks fresh fixtures against the committed ones with diff -r).

With fill_value null zarr-python reads missing chunks as uninitialised memory, so such cases must
write (at least partly) to every chunk; cells of a written chunk that no write reached are zeros
(zarr-python starts a new chunk from zeros then), which is deterministic and part of the check.
"""

import argparse
import base64
import json
import os
import shutil
import sys
import zlib
from pathlib import Path

import numcodecs
import numpy as np
import zarr
from zarr.meta import Metadata2

import objects

CASES_DIR = Path(__file__).resolve().parent.parent / "cases"
METADATA_KEYS = {".zarray", ".zattrs"}
GZIP_MAGIC = b"\x1f\x8b\x08"
GZIP_MTIME = slice(4, 8)


# --- case specs -------------------------------------------------------------------------------


def load_cases(cases_dir):
    """All cases of cases_dir/*.json, in file then list order; names must be unique."""
    cases, seen = [], {}
    for path in sorted(Path(cases_dir).glob("*.json")):
        for case in json.loads(path.read_text()):
            validate_case(case, path.name)
            if case["name"] in seen:
                raise ValueError(f"case {case['name']!r} in {path.name} is already in {seen[case['name']]}")
            seen[case["name"]] = path.name
            cases.append(case)
    return cases


def validate_case(case, where):
    required = ["name", "shape", "chunks", "dtype", "compressor", "order", "fill_value", "filters"]
    missing = [k for k in required if k not in case]
    if missing:
        raise ValueError(f"{where}: case {case.get('name')!r} lacks {missing}")
    name, shape = case["name"], case["shape"]
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"{where}: bad case name {name!r}")
    if len(case["chunks"]) != len(shape):
        raise ValueError(f"{name}: chunks {case['chunks']} do not match shape {shape}")
    for region in regions_of(case):
        if len(region) != len(shape) or any(not 0 <= a <= b <= s for (a, b), s in zip(region, shape)):
            raise ValueError(f"{name}: write region {region} does not fit shape {shape}")


def regions_of(case):
    """The case's write regions; omitted means one write of the whole array."""
    writes = case.get("writes")
    return [[[0, s] for s in case["shape"]]] if writes is None else writes


def region_index(region):
    return tuple(slice(a, b) for a, b in region)


def case_seed(name):
    """A seed that depends only on the case's name, so adding cases leaves the others alone."""
    return zlib.crc32(name.encode("utf-8"))


# --- source values ----------------------------------------------------------------------------


def written_mask(shape, regions):
    mask = np.zeros(shape, dtype=bool)
    for region in regions:
        mask[region_index(region)] = True
    return mask


def case_dtype(case):
    """The case's dtype: a type string, or a structured descr as JSON lists (numpy wants tuples)."""
    def fields(descr):
        return [tuple([f[0], fields(f[1]) if isinstance(f[1], list) else f[1], *map(tuple, f[2:])]) for f in descr]
    spec = case["dtype"]
    return np.dtype(fields(spec) if isinstance(spec, list) else spec)


POWERS_OF_TEN = np.array([float(f"1e{k}") for k in range(-6, 7)])


def random_values(dtype, n, rng):
    """n random values of dtype (native byte order), spanning its range."""
    if dtype.fields is not None:
        out = np.zeros(n, dtype=dtype)
        for name in dtype.names:
            sub = dtype.fields[name][0]
            count = int(np.prod(sub.shape)) if sub.shape else 1
            vals = random_values(sub.base, n * count, rng)
            out[name] = vals.reshape((n,) + sub.shape) if sub.shape else vals
        return out
    if dtype.kind == "c":
        parts = random_values(np.dtype(f"f{dtype.itemsize // 2}"), 2 * n, rng)
        out = np.empty(n, dtype=dtype)
        out.real, out.imag = parts[:n], parts[n:]
        return out
    if dtype.kind in "mM":
        return rng.integers(-(2**62), 2**62, n, dtype=np.int64).view(dtype)
    if dtype.kind == "S":
        return np.array([bytes(rng.integers(0, 256, rng.integers(0, dtype.itemsize + 1))) for _ in range(n)], dtype=dtype)
    if dtype.kind == "U":
        chars = "aZ09 éß漢字\u00ff\U0001F600"
        return np.array(["".join(rng.choice(list(chars), rng.integers(0, dtype.itemsize // 4 + 1))) for _ in range(n)], dtype=dtype)
    if dtype.kind == "V":
        return np.frombuffer(rng.integers(0, 256, n * dtype.itemsize, dtype=np.uint8).tobytes(), dtype=dtype).copy()
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        wide = np.uint64 if dtype.kind == "u" else np.int64
        return rng.integers(int(info.min), int(info.max), n, dtype=wide, endpoint=True).astype(dtype)
    if dtype.kind == "f":
        # Powers of ten from a table: numpy's `10.0 ** k` is off by an ulp on some CPUs (its AVX-512
        # power), and the fixtures must come out the same on every machine.
        magnitudes = POWERS_OF_TEN[rng.integers(-6, 7, n) + 6]
        return (rng.standard_normal(n) * magnitudes).astype(dtype)
    raise ValueError(f"no value generator for dtype {dtype.str}")


def special_values(dtype):
    """Values worth checking bit for bit: extremes of the range, signed zeros, NaNs with payloads."""
    if dtype.fields is not None or dtype.kind in "SUV":
        return np.zeros(0, dtype=dtype)
    if dtype.kind in "mM":
        return np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max, 0], dtype=np.int64).view(dtype)  # NaT first
    if dtype.kind == "c":
        part = special_values(np.dtype(f"f{dtype.itemsize // 2}"))
        out = np.empty(part.size, dtype=dtype)
        out.real, out.imag = part, part[::-1]  # assigned, not computed: 1j * inf would make a NaN
        return out
    if dtype.kind == "b":
        return np.array([True, False])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        values = [int(info.min), int(info.max), 0, int(info.min) + 1, int(info.max) - 1]
        if dtype.kind == "i":
            values.append(-1)
        if dtype.itemsize == 8:  # beyond what a JS number holds exactly
            values += [2**53 + 1, 2**63 - 1] + ([2**63, 2**64 - 2] if dtype.kind == "u" else [-(2**53) - 1])
        return np.array(values, dtype=dtype)
    if dtype.kind == "f":
        finfo = np.finfo(dtype)
        bits = np.dtype(f"u{dtype.itemsize}")
        nan, neg_nan, payload_nan = {
            8: [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF800000000DEAD],
            4: [0x7FC00000, 0xFFC00000, 0x7FC0DEAD],
            2: [0x7E00, 0xFE00, 0x7E2D],
        }[dtype.itemsize]
        specials = np.array([np.inf, -np.inf, -0.0, 0.0, finfo.smallest_subnormal, -finfo.tiny,
                             finfo.max, -finfo.max, 0, 0, 0], dtype=dtype)
        specials[-3:] = np.array([nan, neg_nan, payload_nan], dtype=bits).view(dtype)
        return specials[[8, 0, 2, 1, 4, 9, 3, 5, 6, 10, 7]]  # NaN, ±inf and -0.0 early: small writes get them
    raise ValueError(f"no special values for dtype {dtype.str}")


def make_values(case, mask):
    """The source array (native byte order): random values, with the special values placed in
    randomly chosen cells that the writes reach."""
    dtype = case_dtype(case).newbyteorder("=")
    rng = np.random.default_rng(case_seed(case["name"]))
    if objects.is_object_case(case):
        return objects.object_values(case, mask.size, rng).reshape(mask.shape)
    values = random_values(dtype, mask.size, rng)
    written = np.flatnonzero(mask)
    specials = special_values(dtype)[: written.size]
    values[rng.choice(written, size=specials.size, replace=False)] = specials
    return values.reshape(mask.shape)


def to_le_bytes(a):
    """C order, little-endian bytes of an array (bool as 0/1)."""
    a = np.asarray(a)
    return a.astype(a.dtype.newbyteorder("<"), order="C").tobytes(order="C")


# --- the array --------------------------------------------------------------------------------


def creation_fill_value(encoded, dtype):
    """The fill value to pass to zarr.create. For void and structured dtypes zarr-python 2.13 (with
    numpy 1.24) fails on its own decoded value (it compares it with 0), but takes raw bytes."""
    if dtype.kind == "V" and isinstance(encoded, str):
        return base64.standard_b64decode(encoded)
    return Metadata2.decode_fill_value(encoded, dtype)


def create_array(case, path):
    dtype = case_dtype(case)
    compressor = case["compressor"]
    filters = case["filters"]
    kwargs = {}
    if objects.is_object_case(case):
        # The object codec is the first filter in .zarray; zarr-python takes it as object_codec.
        kwargs["object_codec"] = numcodecs.get_codec(filters[0])
        filters = filters[1:] or None
    if "dimension_separator" in case:
        kwargs["dimension_separator"] = case["dimension_separator"]
    return zarr.create(
        shape=tuple(case["shape"]),
        chunks=tuple(case["chunks"]),
        dtype=dtype,
        compressor=numcodecs.get_codec(compressor) if compressor is not None else None,
        fill_value=creation_fill_value(case["fill_value"], dtype),
        order=case["order"],
        filters=[numcodecs.get_codec(f) for f in filters] if filters is not None else None,
        store=zarr.DirectoryStore(str(path)),
        **kwargs,
    )


def apply_writes(z, values, regions):
    for region in regions:
        index = region_index(region)
        z[index] = values[index]


def chunk_files(array_dir):
    """Relative (/-separated) paths of every file of the array but its metadata documents."""
    found = set()
    for root, _dirs, files in os.walk(array_dir):
        for f in files:
            rel = Path(root, f).relative_to(array_dir).as_posix()
            if rel not in METADATA_KEYS:
                found.add(rel)
    return found


def zero_gzip_mtimes(array_dir):
    """numcodecs' GZip writes the current time into each gzip header (MTIME, bytes 4-7), so
    fixtures would never regenerate byte for byte. Set it to 0, which RFC 1952 defines as "no time
    stamp"; no other byte changes (the CRC covers only the uncompressed data)."""
    for key in chunk_files(array_dir):
        path = array_dir / key
        data = bytearray(path.read_bytes())
        if data[:3] != GZIP_MAGIC:
            raise ValueError(f"{path}: not a gzip member")
        data[GZIP_MTIME] = bytes(4)
        path.write_bytes(bytes(data))


def check_every_chunk_written(case, array_dir):
    """For fill_value null: a missing chunk would read as garbage, so there must be none."""
    grid = [-(-s // c) for s, c in zip(case["shape"], case["chunks"])]
    n_expected = int(np.prod(grid)) if case["shape"] else 1
    n_found = len(chunk_files(array_dir))
    if n_found != n_expected:
        raise ValueError(
            f"{case['name']}: fill_value null needs every chunk written; "
            f"{n_found} of {n_expected} chunks are (adjust the case's writes)"
        )


# --- selections -------------------------------------------------------------------------------


def int_or_slice(i, size, fallback):
    """The int index i if the dimension has room for it, else the slice fallback."""
    return i if -size <= i < size else fallback


def selections_for(shape):
    """A few basic selections for shape, encoded per dimension as an int or [start, stop, step]."""
    if not shape:
        return [[]]
    n = len(shape)
    every_other = [[None, None, 2] for _ in shape]
    last_row = [int_or_slice(-1, shape[0], [None, None, 1])] + [[1, None, 3]] * (n - 1)
    negative_bounds = [[-3, None, None]] + [[None, -1, None]] * max(n - 2, 0)
    if n > 1:
        negative_bounds.append(int_or_slice(-2, shape[-1], [-2, None, None]))
    past_the_end = [[None, 100, 5]] + [int_or_slice(0, s, [0, 0, None]) for s in shape[1:]]
    return [every_other, last_row, negative_bounds, past_the_end]


def json_lines(items):
    """A JSON list with one item per line: compact, yet diffs stay readable."""
    return "[\n" + ",\n".join("  " + json.dumps(item) for item in items) + "\n]\n"


def decode_selection(selection):
    return tuple(item if isinstance(item, int) else slice(*item) for item in selection)


def write_selections(z, case_dir):
    entries = []
    for i, selection in enumerate(selections_for(list(z.shape))):
        if z.dtype == object:
            result = z[decode_selection(selection)]
            filename = f"sel-{i}.json"
            (case_dir / filename).write_text(objects.dumps(objects.encode_array(result)))
            entries.append({"selection": selection, "shape": list(np.shape(result)) if isinstance(result, np.ndarray) else [], "file": filename})
            continue
        # Scalars come back as Python values (a str loses its U width): cast back to the dtype.
        result = np.asarray(z[decode_selection(selection)], dtype=z.dtype)
        filename = f"sel-{i}.bin"
        (case_dir / filename).write_bytes(to_le_bytes(result))
        entries.append({"selection": selection, "shape": list(result.shape), "file": filename})
    (case_dir / "selections.json").write_text(json_lines(entries))


# --- one case, all cases ----------------------------------------------------------------------


def generate_case(case, case_dir):
    if case_dir.exists():
        shutil.rmtree(case_dir)
    case_dir.mkdir(parents=True)
    array_dir = case_dir / "array"
    regions = regions_of(case)
    values = make_values(case, written_mask(tuple(case["shape"]), regions))

    z = create_array(case, array_dir)
    apply_writes(z, values, regions)
    if z.compressor is not None and z.compressor.codec_id == "gzip":  # none for 0-d arrays
        zero_gzip_mtimes(array_dir)
    if case["fill_value"] is None and not objects.is_object_case(case):  # object arrays read None there
        check_every_chunk_written(case, array_dir)

    reread = zarr.open_array(str(array_dir), mode="r")
    (case_dir / "case.json").write_text(json.dumps(case, indent=2) + "\n")
    if objects.is_object_case(case):
        (case_dir / "values.json").write_text(objects.dumps(objects.encode_array(values)))
        (case_dir / "expected.json").write_text(objects.dumps(objects.encode_array(reread[...])))
        write_selections(reread, case_dir)
        return
    (case_dir / "values.bin").write_bytes(to_le_bytes(values))
    (case_dir / "expected.bin").write_bytes(to_le_bytes(reread[...]))
    write_selections(reread, case_dir)


def remove_stale_cases(outdir, names):
    """Deletes case directories (those with a case.json) whose case no longer exists."""
    for child in sorted(outdir.iterdir()):
        if child.is_dir() and (child / "case.json").exists() and child.name not in names:
            print(f"removing stale case {child.name}")
            shutil.rmtree(child)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--cases", type=Path, default=CASES_DIR, help="directory of case files (*.json)")
    args = parser.parse_args(argv)

    cases = load_cases(args.cases)
    args.outdir.mkdir(parents=True, exist_ok=True)
    remove_stale_cases(args.outdir, {c["name"] for c in cases})
    for case in cases:
        generate_case(case, args.outdir / case["name"])
    print(f"generated {len(cases)} cases into {args.outdir} (zarr {zarr.__version__}, numcodecs {numcodecs.__version__})")


if __name__ == "__main__":
    main(sys.argv[1:])
