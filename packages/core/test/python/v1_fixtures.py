"""Writes zarr v1 arrays (spec v1: `meta` and `attrs` keys) with zarr-python's own v1 encoder,
then a copy migrated by zarr-python's migrate_1to2, the expected result of ours.
Run: /usr/bin/python3 python/v1_fixtures.py fixtures/v1"""
import json, os, shutil, sys
import numpy as np
import numcodecs
import zarr
from zarr import meta_v1

out = sys.argv[1]
cases = {
    "zlib-i4": dict(shape=(5, 7), chunks=(2, 3), dtype=np.dtype("<i4"), compression="zlib", compression_opts=1, fill_value=-1, order="C"),
    "none-f8-F": dict(shape=(6,), chunks=(4,), dtype=np.dtype(">f8"), compression="none", compression_opts=None, fill_value=float("nan"), order="F"),
    "gzip-u2": dict(shape=(3, 3), chunks=(3, 3), dtype=np.dtype("<u2"), compression="gzip", compression_opts={"level": 5}, fill_value=0, order="C"),
}
for name, meta in cases.items():
    d = os.path.join(out, name, "array")
    shutil.rmtree(os.path.join(out, name), ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "meta"), "wb") as f:
        f.write(meta_v1.encode_metadata(dict(meta, zarr_format=1)))
    with open(os.path.join(d, "attrs"), "w") as f:
        json.dump({"case": name}, f)
    values = np.arange(np.prod(meta["shape"]), dtype=meta["dtype"]).reshape(meta["shape"])
    if meta["compression"] == "none":
        codec = None
    else:
        opts = meta["compression_opts"]
        cls = numcodecs.get_codec({"id": meta["compression"]}).__class__
        codec = cls(**opts) if isinstance(opts, dict) else cls(opts)
    grid = [(s + c - 1) // c for s, c in zip(meta["shape"], meta["chunks"])]
    # every chunk but the last is written, so one reads as the fill value
    for idx in list(np.ndindex(*grid))[:-1]:
        chunk = np.full(meta["chunks"], meta["fill_value"], dtype=meta["dtype"], order=meta["order"])
        region = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, meta["chunks"], meta["shape"]))
        chunk[tuple(slice(0, r.stop - r.start) for r in region)] = values[region]
        raw = chunk.tobytes(order=meta["order"])
        with open(os.path.join(d, ".".join(map(str, idx))), "wb") as f:
            f.write(codec.encode(raw) if codec else raw)
    migrated = os.path.join(out, name, "migrated")
    shutil.copytree(d, migrated)
    store = zarr.DirectoryStore(migrated)
    zarr.storage.migrate_1to2(store)
    z = zarr.open_array(store, mode="r")
    with open(os.path.join(out, name, "expected.json"), "w") as f:
        json.dump({"values": [None if v != v else v for v in z[...].ravel().tolist()], "shape": list(z.shape)}, f)
    print(name, sorted(os.listdir(migrated)))
