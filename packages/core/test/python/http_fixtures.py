"""Writes the fixtures of @z/core's HTTP tests (test/http-*.test.ts) with zarr-python 2.13.

Run from anywhere with /usr/bin/python3 (Debian's python3-zarr):

    /usr/bin/python3 packages/core/test/python/http_fixtures.py

Into test/fixtures/http/:
- hierarchy.zarr/  a DirectoryStore group with consolidated metadata: arrays compressed with blosc
  lz4, zstd, zlib and blosc zstd + bitshuffle, big-endian dtypes, F order, "/" chunk keys, and
  arrays with chunks never written (integer and NaN fill values);
- hierarchy.zip    the same hierarchy copied into a zarr.ZipStore, plus "big", a 640x640 uint8
  array in 100 uncompressed 4 KiB chunks, so a read of a few chunks over HTTP is a small part of
  the archive;
- expected.bin     each small array as zarr-python reads it, C order, little-endian, one after
  the other (one file, as the browser test run can fetch only fixture URLs written out whole);
- expected.json    per array: path, shape, dtype, chunk keys present, where its bytes are in
  expected.bin (or for "big", the SHA-256 of those bytes), and selections (described in JSON, see `selection`) with the values
  zarr-python returned for them.

Everything is a formula of the indices, and the zip's entry times are pinned, so running it again
writes the same bytes.
"""
import hashlib
import json
import os
import shutil
import time

import numpy as np
import zarr
from numcodecs import Blosc, Zlib, Zstd

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures", "http")


def grid(shape):
    return np.indices(shape, dtype=np.float64)


def arrays():
    """(path, create kwargs, values, regions written (None: everything))."""
    i, j = grid((37, 45))
    smooth = (100 * np.sin(i / 5) * np.cos(j / 7) + ((i * 31 + j * 17) % 13) / 64).astype("<f4")
    a, b, c = grid((7, 9, 11))
    cube = (a * 1000 - b * 37 + c * c * 11 - 500).astype("<i4")
    i, j = grid((50, 20))
    shorts = ((i * 97 - j * 641) % 30011 - 15000).astype("<i2")
    ramp = np.linspace(-1.5, 2.25, 25) ** 3
    ramp[7] = np.nan
    ramp[8] = -0.0
    ramp[9] = np.inf
    i, j = grid((12, 18))
    ints = ((i * 1_000_003 + j * 65_537) % 2**31 - 2**30).astype(">i4")
    i, j = grid((20, 30))
    sparse = (i * 30 + j).astype("<i4")
    x = np.arange(100, dtype="<f4")
    return [
        ("lz4", dict(chunks=(16, 16), compressor=Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE)), smooth, None),
        ("zstd", dict(chunks=(4, 4, 5), compressor=Zstd(level=3)), cube, None),
        ("sub/zlib", dict(chunks=(16, 8), compressor=Zlib(level=1), order="F", dimension_separator="/"), shorts, None),
        ("sub/big_endian_f8", dict(chunks=(10,), compressor=None, dtype=">f8", fill_value=float("nan")), ramp, None),
        ("big_endian_i4", dict(chunks=(5, 7), compressor=Blosc(cname="zstd", clevel=3, shuffle=Blosc.BITSHUFFLE), dtype=">i4"), ints, None),
        # Chunks (0, 0), (1, 1) and (3, 2) written, (0, 1) holds only the fill value and is not
        # stored (write_empty_chunks=False), the other eight were never written.
        ("sparse", dict(chunks=(5, 10), compressor=Zlib(level=1), fill_value=-9, write_empty_chunks=False), sparse,
         [(slice(0, 5), slice(0, 10)), (slice(5, 10), slice(10, 20)), (slice(17, 20), slice(22, 30)), "fill:(slice(0, 5), slice(10, 20))"]),
        ("sparse_nan", dict(chunks=(10,), compressor=Blosc(cname="lz4", clevel=1, shuffle=Blosc.NOSHUFFLE), fill_value=float("nan")), x,
         [(slice(3, 17),), (slice(55, 60),), (slice(99, 100),)]),
    ]


def big():
    i, j = grid((640, 640))
    return ((i * 7 + j * 13 + (i * j) % 17) % 256).astype("u1")


# Selections, described so that the TypeScript tests can build the same: an item is an int, a
# slice {"slice": [start, stop, step]}, or an index list {"ints": [...]}; "mask" lists the
# coordinates that are true.
SELECTIONS = {
    "lz4": [
        {"kind": "basic", "sel": [{"slice": [3, 30, 4]}, {"slice": [None, None, -3]}]},
        {"kind": "basic", "sel": [20]},
        {"kind": "basic", "sel": [{"slice": [-5, None, None]}, 44]},
        {"kind": "orthogonal", "sel": [{"ints": [36, 0, 17, 17]}, {"slice": [10, 40, 7]}]},
        {"kind": "coordinate", "sel": [{"ints": [0, 36, 15, 16]}, {"ints": [44, 0, 15, 16]}]},
        {"kind": "mask", "where": [[1, 2, 30, 36], [5, 44, 0, 1]]},
        {"kind": "block", "sel": [1, {"slice": [1, 3, None]}]},
    ],
    "zstd": [
        {"kind": "basic", "sel": [{"slice": [1, 6, 2]}, 4, {"slice": [None, None, -1]}]},
        {"kind": "orthogonal", "sel": [{"ints": [6, 0]}, {"slice": [2, 9, 3]}, {"ints": [10, 4, 5]}]},
        {"kind": "block", "sel": [1, 2, 2]},
    ],
    "sub/zlib": [
        {"kind": "basic", "sel": [{"slice": [10, 40, 3]}, {"slice": [5, 18, None]}]},
        {"kind": "coordinate", "sel": [{"ints": [49, 0, 16, 31]}, {"ints": [19, 0, 8, 7]}]},
    ],
    "sub/big_endian_f8": [
        {"kind": "basic", "sel": [{"slice": [5, 12, None]}]},
        {"kind": "orthogonal", "sel": [{"ints": [24, 7, 8, 9, 0]}]},
    ],
    "big_endian_i4": [
        {"kind": "basic", "sel": [{"slice": [2, 11, 3]}, {"slice": [17, 0, -4]}]},
    ],
    "sparse": [
        {"kind": "basic", "sel": [{"slice": [3, 18, None]}, {"slice": [8, 25, 2]}]},
        {"kind": "block", "sel": [2, 1]},
        {"kind": "coordinate", "sel": [{"ints": [0, 19, 7, 12]}, {"ints": [0, 29, 15, 25]}]},
    ],
    "sparse_nan": [
        {"kind": "basic", "sel": [{"slice": [0, 30, 2]}]},
    ],
    "big": [
        # one chunk: (2, 5)
        {"kind": "basic", "sel": [{"slice": [130, 190, None]}, {"slice": [330, 380, 5]}]},
        {"kind": "coordinate", "sel": [{"ints": [0, 639, 320]}, {"ints": [639, 0, 321]}]},
    ],
}


def item(value):
    if isinstance(value, int):
        return value
    if "slice" in value:
        return slice(*value["slice"])
    return np.array(value["ints"])


def select(z, spec):
    if spec["kind"] == "mask":
        mask = np.zeros(z.shape, dtype=bool)
        mask[tuple(np.array(axis) for axis in spec["where"])] = True
        return z.vindex[mask]
    sel = tuple(item(v) for v in spec["sel"])
    if spec["kind"] == "basic" and any(isinstance(v, slice) and (v.step or 1) < 0 for v in sel):
        # zarr-python 2.13 refuses negative steps (NegativeStepError); z supports them as numpy
        # does, so numpy applies them to the array zarr-python read.
        return z[...][sel]
    if spec["kind"] == "block":
        # zarr-python 2.13 has no z.blocks: the same region in elements, chunk by chunk.
        region = tuple(
            slice(b * c, (b + 1) * c) if isinstance(b, int) else slice(b.start * c, b.stop * c)
            for b, c in zip(sel, z.chunks)
        )
        return z[region]
    return {"basic": lambda: z[sel], "orthogonal": lambda: z.oindex[sel], "coordinate": lambda: z.vindex[sel]}[spec["kind"]]()


def plain(values):
    """JSON numbers; JSON has no NaN or infinities, so those are the strings "NaN", "Infinity" and
    "-Infinity" (JavaScript's names). -0.0 stays -0.0."""
    def one(v):
        if isinstance(v, float) and not np.isfinite(v):
            return "NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")
        return v
    return [one(v) for v in np.asarray(values).ravel().tolist()]


def little_endian(values):
    values = np.ascontiguousarray(values)
    return values.astype(values.dtype.newbyteorder("<")).tobytes()


def describe(root, path, store_keys, blob):
    z = root[path]
    values = z[...]
    entry = {
        "path": path,
        "shape": list(z.shape),
        "dtype": z.dtype.str,
        "chunkKeys": sorted(k[len(path) + 1:] for k in store_keys if k.startswith(path + "/") and not k.rsplit("/", 1)[-1].startswith(".")),
        "selections": [dict(spec, shape=list(np.shape(select(z, spec))), values=plain(select(z, spec))) for spec in SELECTIONS[path]],
    }
    data = little_endian(values)
    if path == "big":
        entry["sha256"] = hashlib.sha256(data).hexdigest()
    else:
        entry["bytes"] = [len(blob), len(data)]
        blob.extend(data)
    return entry


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)

    directory = zarr.DirectoryStore(os.path.join(OUT, "hierarchy.zarr"))
    root = zarr.group(store=directory)
    root.attrs.update({"title": "written by zarr-python", "version": zarr.__version__.split("+")[0]})
    root.create_group("sub").attrs["note"] = "a subgroup"
    for path, kwargs, values, regions in arrays():
        kwargs = dict(kwargs)
        kwargs.setdefault("dtype", values.dtype)
        z = root.create_dataset(path, shape=values.shape, **kwargs)
        z.attrs["case"] = path
        if regions is None:
            z[...] = values
        for region in regions or []:
            if isinstance(region, str):
                z[eval(region.split(":", 1)[1])] = kwargs["fill_value"]
            else:
                z[region] = values[region]
    zarr.consolidate_metadata(directory)

    zip_path = os.path.join(OUT, "hierarchy.zip")
    # ZipStore stamps each entry with time.localtime(time.time()): pin both for identical archives.
    real_time, real_localtime = time.time, time.localtime
    time.time, time.localtime = (lambda: 1_700_000_000.0), time.gmtime
    try:
        with zarr.ZipStore(zip_path, mode="w") as zip_store:
            zarr.copy_store(directory, zip_store)
            zarr.array(big(), chunks=(64, 64), compressor=None, store=zip_store, path="big")
    finally:
        time.time, time.localtime = real_time, real_localtime

    with zarr.ZipStore(zip_path, mode="r") as zip_store:
        zipped = zarr.open_group(zip_store, mode="r")
        zip_keys = sorted(zip_store.keys())
        blob = bytearray()
        entries = [describe(root, path, sorted(directory.keys()), blob) for path, *_ in arrays()]
        entries.append(describe(zipped, "big", zip_keys, blob))
        # The zip holds the hierarchy unchanged, and zarr-python reads the same values from it.
        for entry in entries[:-1]:
            assert np.array_equal(zipped[entry["path"]][...], root[entry["path"]][...], equal_nan=True)
        zip_info = {"size": os.path.getsize(zip_path), "keys": len(zip_keys), "tree": str(zipped.tree())}
    tree = str(zarr.open_consolidated(directory, mode="r").tree())

    with open(os.path.join(OUT, "expected.bin"), "wb") as f:
        f.write(blob)
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        # One line per array and per selection: readable in a diff, without a line per number.
        f.write('{"zarr": %s, "tree": %s,\n"zip": %s, "arrays": [\n' % (json.dumps(zarr.__version__), json.dumps(tree), json.dumps(zip_info)))
        for n, entry in enumerate(entries):
            head = json.dumps({k: v for k, v in entry.items() if k != "selections"})
            lines = ",\n".join("  " + json.dumps(spec) for spec in entry["selections"])
            f.write('%s, "selections": [\n%s\n]}%s\n' % (head[:-1], lines, "," if n < len(entries) - 1 else ""))
        f.write("]}\n")
    total = sum(os.path.getsize(os.path.join(d, n)) for d, _, files in os.walk(OUT) for n in files)
    print(f"wrote {OUT}: {total} bytes, zip of {zip_info['size']} bytes")


main()
