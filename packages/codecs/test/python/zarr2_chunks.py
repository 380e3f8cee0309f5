#!/usr/bin/env python3
"""Zarr v2 arrays zarr-python 2.13 writes, for v3-from-v2.test.ts (run with /usr/bin/python3).

  python3 zarr2_chunks.py

Prints a JSON object: for each case, `zarray` (the .zarray zarr-python wrote) and `chunks`, for each
stored chunk its key, the stored bytes (`stored`, base64) and the chunk as z holds a v3 chunk in
memory, as zarr-python reads it back (`decoded`: C order, little-endian, base64; object arrays:
`values`, the strings). The test
reads each chunk through the v3 chain `codecsV3FromV2` makes of the .zarray, as an array migrated by
zarr-python 3's `zarr.metadata.migrate_v3` (which writes zarr.json beside the v2 chunks) is read.
"""
import base64
import json
import os
import sys
import tempfile

import numcodecs
import numpy as np
import zarr


def ramp(dtype, n):
    return (np.arange(n) * 3 - 7).astype(dtype)


CASES = {
    "f-order-i4-zlib": dict(shape=(3, 4), chunks=(2, 3), dtype="<i4", order="F", compressor=numcodecs.Zlib(1)),
    "f-order-3d-big-u2": dict(shape=(2, 3, 4), chunks=(2, 2, 3), dtype=">u2", order="F", compressor=None),
    "big-endian-f8-gzip": dict(shape=(10,), chunks=(4,), dtype=">f8", compressor=numcodecs.GZip(5)),
    "big-endian-c16-F": dict(shape=(2, 3), chunks=(2, 3), dtype=">c16", order="F", compressor=None),
    "delta-astype-zlib": dict(
        shape=(12,), chunks=(5,), dtype="<i4", filters=[numcodecs.Delta("<i4", astype="<i2")], compressor=numcodecs.Zlib(1)
    ),
    "fixedscaleoffset-bz2": dict(
        shape=(8,),
        chunks=(8,),
        dtype="<f8",
        filters=[numcodecs.FixedScaleOffset(offset=1, scale=10, dtype="<f8", astype="<i2")],
        compressor=numcodecs.BZ2(1),
    ),
    "shuffle-filter-gzip": dict(
        shape=(6,), chunks=(6,), dtype="<f8", filters=[numcodecs.Shuffle(8)], compressor=numcodecs.GZip(1)
    ),
    "quantize-crc32-lzma": dict(
        shape=(6,),
        chunks=(3,),
        dtype="<f4",
        filters=[numcodecs.Quantize(2, dtype="<f4"), numcodecs.CRC32()],
        compressor=numcodecs.LZMA(preset=1),
    ),
    "u1-adler32": dict(shape=(7,), chunks=(7,), dtype="|u1", compressor=numcodecs.Adler32()),
    "bool-packbits": dict(shape=(11,), chunks=(11,), dtype="|b1", filters=[numcodecs.PackBits()], compressor=None),
    "vlen-utf8-zlib": dict(shape=(2, 2), chunks=(2, 2), dtype=object, object_codec=numcodecs.VLenUTF8(), compressor=numcodecs.Zlib(1)),
}


def main():
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in CASES.items():
            path = os.path.join(tmp, name)
            kwargs = {k: v for k, v in args.items() if k not in ("shape", "chunks", "dtype")}
            array = zarr.open(path, mode="w", shape=args["shape"], chunks=args["chunks"], dtype=args["dtype"], **kwargs)
            n = int(np.prod(args["shape"]))
            if args["dtype"] is object:
                values = np.array([f"s{i}" * (i % 3) for i in range(n)], dtype=object).reshape(args["shape"])
            elif args["dtype"] == "|b1":
                values = (np.arange(n) % 3 == 0).reshape(args["shape"])
            elif args["dtype"].lstrip("<>|")[0] == "c":
                values = (ramp("<f8", n) + 1j * ramp("<f8", n)[::-1]).astype(args["dtype"]).reshape(args["shape"])
            elif args["dtype"].lstrip("<>|")[0] == "f":
                values = (ramp("<f8", n) * 0.25).astype(args["dtype"]).reshape(args["shape"])
            else:
                values = ramp(args["dtype"], n).reshape(args["shape"])
            array[...] = values
            # What zarr-python reads back (fixedscaleoffset and quantize lose precision).
            values = array[...]
            with open(os.path.join(path, ".zarray"), encoding="utf-8") as f:
                zarray = json.load(f)
            chunks = {}
            for key in sorted(os.listdir(path)):
                if key.startswith("."):
                    continue
                coords = [int(c) for c in key.split(".")]
                region = tuple(slice(c * s, (c + 1) * s) for c, s in zip(coords, args["chunks"]))
                # The chunk as zarr-python holds it, padded with the fill value past the edge.
                chunk = np.full(args["chunks"], array.fill_value if args["dtype"] is not object else "", dtype=values.dtype)
                part = values[region]
                chunk[tuple(slice(0, n) for n in part.shape)] = part
                with open(os.path.join(path, key), "rb") as f:
                    stored = base64.b64encode(f.read()).decode("ascii")
                if args["dtype"] is object:
                    chunks[key] = {"stored": stored, "values": [str(v) for v in chunk.ravel()]}
                else:
                    little = chunk.astype(chunk.dtype.newbyteorder("<"))
                    chunks[key] = {"stored": stored, "decoded": base64.b64encode(np.ascontiguousarray(little).tobytes()).decode("ascii")}
            out[name] = {"zarray": zarray, "chunks": chunks}
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main()
