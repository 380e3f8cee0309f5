"""Zarr spec-v1 arrays (`meta` and `attrs` keys) written with zarr-python 2.13's own v1 encoder
(test/fixtures/v1/<name>), and what zarr-python says of each once its migrate_1to2 has converted a
copy: numpy's repr of the values and Array.info_items() (test/fixtures/v1-expected.json).
Run: /usr/bin/python3 test/python/v1_fixtures.py test/fixtures"""
import base64, io, json, os, shutil, sys, tempfile
import numpy as np
import numcodecs
import zarr
from zarr import meta_v1

out = sys.argv[1]
cases = {
    "zlib-i4": dict(shape=(5, 7), chunks=(2, 3), dtype=np.dtype("<i4"), compression="zlib", compression_opts=1, fill_value=-1, order="C"),
    "blosc-f8-F": dict(shape=(4, 6), chunks=(3, 4), dtype=np.dtype("<f8"), compression="blosc",
                       compression_opts={"cname": "lz4", "clevel": 5, "shuffle": 1}, fill_value=float("nan"), order="F"),
}
root = os.path.join(out, "v1")
shutil.rmtree(root, ignore_errors=True)
expected = {}
for name, meta in cases.items():
    d = os.path.join(root, name)
    os.makedirs(d)
    with open(os.path.join(d, "meta"), "wb") as f:
        f.write(meta_v1.encode_metadata(dict(meta, zarr_format=1)))
    with open(os.path.join(d, "attrs"), "w") as f:
        json.dump({"case": name}, f)
    values = (np.arange(np.prod(meta["shape"])) * 1.5 if meta["dtype"].kind == "f" else np.arange(np.prod(meta["shape"]))).astype(meta["dtype"]).reshape(meta["shape"])
    opts = meta["compression_opts"]
    cls = numcodecs.get_codec({"id": meta["compression"]}).__class__
    codec = cls(**opts) if isinstance(opts, dict) else cls(opts)
    grid = [(s + c - 1) // c for s, c in zip(meta["shape"], meta["chunks"])]
    # every chunk but the last is written, so one reads as the fill value
    for idx in list(np.ndindex(*grid))[:-1]:
        chunk = np.full(meta["chunks"], meta["fill_value"], dtype=meta["dtype"], order=meta["order"])
        region = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, meta["chunks"], meta["shape"]))
        chunk[tuple(slice(0, r.stop - r.start) for r in region)] = values[region]
        with open(os.path.join(d, ".".join(map(str, idx))), "wb") as f:
            f.write(codec.encode(chunk.tobytes(order=meta["order"])))
    with tempfile.TemporaryDirectory() as tmp:
        migrated = os.path.join(tmp, "m")
        shutil.copytree(d, migrated)
        store = zarr.DirectoryStore(migrated)
        zarr.storage.migrate_1to2(store)
        z = zarr.open_array(store, mode="r")
        npy = io.BytesIO()
        np.save(npy, z[...])
        expected[name] = {"repr": repr(z[...]), "repr_sel": repr(z[1:4, ::2]), "info": dict(z.info_items()),
                          "attrs": dict(z.attrs), "zarray": json.loads(store[".zarray"]), "npy": base64.b64encode(npy.getvalue()).decode()}

with open(os.path.join(out, "v1-expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
print(sorted(expected))
