"""Writes the zip fixtures of @z/store-zip's tests with zarr-python 2.13 and Python's zipfile.

Run from anywhere with /usr/bin/python3 (Debian's python3-zarr):

    /usr/bin/python3 packages/store-zip/test/python/generate.py [NAME ...]

Each archive goes to test/fixtures/<name>.zip; test/fixtures/manifest.json records, for every
archive, each key zipfile reads from it (the last entry of a name, as zipfile's NameToInfo) with
its bytes in base64, its compression method and its CRC, so the tests can compare without Python.
"""
import base64
import io
import json
import os
import sys
import zipfile

import numpy as np
import zarr
from numcodecs import Zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures")


def zarr_group(path, compression):
    """A group with attributes, a subgroup holding an int32 array with "/" chunk keys, and a
    zlib-compressed float64 array, written through zarr.ZipStore."""
    with zarr.ZipStore(path, mode="w", compression=compression) as store:
        root = zarr.group(store=store)
        root.attrs["title"] = "zip fixture"
        foo = root.create_group("foo")
        bar = foo.create_dataset("bar", shape=(4, 6), chunks=(2, 3), dtype="<i4", compressor=None, dimension_separator="/")
        bar[...] = np.arange(24, dtype="<i4").reshape(4, 6)
        baz = root.create_dataset("baz", shape=(5,), chunks=(2,), dtype="<f8", compressor=Zlib(level=1))
        baz[...] = np.linspace(0, 1, 5)


def zarr_remote(path):
    """What the tests read over HTTP: zarr.ZipStore (stored entries, its default) with zipfile's
    zip64 limits lowered to 0, so every size, offset and the count are in zip64 records. About
    1 MiB: a (1024, 1024) uint8 array "big" in 64 uncompressed chunks of 16 KiB, whose value at
    (i, j) is (i + 3 * j) % 251, and a small zlib-compressed float64 array "small"."""
    saved = zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT
    zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = 0, 0
    try:
        with zarr.ZipStore(path, mode="w") as store:
            root = zarr.group(store=store)
            root.attrs["title"] = "read over http"
            big = root.create_dataset("big", shape=(1024, 1024), chunks=(128, 128), dtype="u1", compressor=None)
            i, j = np.indices((1024, 1024))
            big[...] = ((i + 3 * j) % 251).astype("u1")
            small = root.create_dataset("small", shape=(10,), chunks=(4,), dtype="<f8", compressor=Zlib(level=1))
            small[...] = np.arange(10) / 4
    finally:
        zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = saved


def zip64_forced(path):
    """Small, but with every zip64 field zipfile can write: its limits are lowered to 0 for the
    duration, so sizes, offsets (after the first entry) and the entry count all go to zip64
    records, and the 32-bit fields hold 0xFFFFFFFF."""
    saved = zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT
    zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = 0, 0
    try:
        with zipfile.ZipFile(path, "w") as zf:
            for name, data, method in [
                (".zgroup", b'{\n    "zarr_format": 2\n}', zipfile.ZIP_STORED),
                ("a/0.0", bytes(range(256)) * 4, zipfile.ZIP_DEFLATED),
                ("a/0.1", b"stored chunk", zipfile.ZIP_STORED),
                ("empty", b"", zipfile.ZIP_DEFLATED),
            ]:
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 2, 3, 4, 6))
                info.compress_type = method
                with zf.open(info, "w", force_zip64=True) as f:
                    f.write(data)
    finally:
        zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = saved


class Unseekable(io.RawIOBase):
    """A write-only stream without seek, so zipfile must put sizes in data descriptors."""

    def __init__(self, sink):
        self.sink = sink

    def writable(self):
        return True

    def write(self, b):
        self.sink.write(b)
        return len(b)


def odd(path):
    """Directory entries, names out of order, a UTF-8 name, data descriptors (flag bit 3, as
    zipfile writes to an unseekable stream), names that are not keys, and an archive comment."""
    sink = io.BytesIO()
    with zipfile.ZipFile(Unseekable(sink), "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("z/1", b"one" * 100)
        zf.writestr(zipfile.ZipInfo("empty-dir/"), b"")
        zf.writestr(zipfile.ZipInfo("a/"), b"")
        zf.writestr("a/.zarray", b"{}")
        zf.writestr("a/b/0.0", b"deep")
        zf.writestr("\u00e9t\u00e9/\u65e5\u672c", "unicode".encode())
        zf.writestr(zipfile.ZipInfo("../evil"), b"not a key")
        zf.writestr("stored", b"stored with a descriptor", compress_type=zipfile.ZIP_STORED)
        zf.comment = b"an archive comment"
    with open(path, "wb") as f:
        f.write(sink.getvalue())


def duplicates(path):
    """zarr.ZipStore writing the same key twice: two entries of one name (zipfile warns)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zarr.ZipStore(path, mode="w") as store:
            store["k"] = b"first"
            store["other"] = b"x"
            store["k"] = b"second"


def prefixed(path):
    """Bytes before the archive, as in a self-extractor; zipfile reads it anyway."""
    sink = io.BytesIO()
    with zipfile.ZipFile(sink, "w") as zf:
        zf.writestr(".zgroup", b'{"zarr_format": 2}')
        zf.writestr("x/0", b"after the prefix")
    with open(path, "wb") as f:
        f.write(b"#!/bin/sh\necho this is not part of the zip\nexit 0\n" + sink.getvalue())


def describe(path, data=True):
    with zipfile.ZipFile(path) as zf:
        entries = {}
        for info in zf.infolist():
            entries[info.filename] = {
                "data": base64.b64encode(zf.read(info)).decode() if data else None,
                "size": info.file_size,
                "method": info.compress_type,
                "crc": info.CRC,
                "flags": info.flag_bits,
            }
        return {"entries": entries, "count": len(zf.infolist()), "comment": zf.comment.decode()}


def main():
    os.makedirs(OUT, exist_ok=True)
    makers = {
        "zarr-stored": lambda p: zarr_group(p, zipfile.ZIP_STORED),
        "zarr-deflated": lambda p: zarr_group(p, zipfile.ZIP_DEFLATED),
        "zip64-forced": zip64_forced,
        "odd": odd,
        "duplicates": duplicates,
        "prefixed": prefixed,
        "zarr-remote": zarr_remote,
    }
    # With names as arguments, only those archives are written again; the manifest keeps the rest.
    names = sys.argv[1:] or list(makers)
    manifest_path = os.path.join(OUT, "manifest.json")
    manifest = {}
    if sys.argv[1:] and os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    for name in names:
        path = os.path.join(OUT, name + ".zip")
        makers[name](path)
        # The big archive's values follow from a formula; its bytes would only bloat the manifest.
        manifest[name] = describe(path, data=name != "zarr-remote")
    with open(manifest_path, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
