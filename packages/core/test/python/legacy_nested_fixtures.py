"""Arrays zarr-python's NestedDirectoryStore wrote before `.zarray` had `dimension_separator`
(zarr-python < 2.8): chunks at `0/0`, and nothing in `.zarray` to say so. Written with zarr-python
2.13's NestedDirectoryStore, whose `dimension_separator: "/"` is then deleted from each `.zarray`, as
the older versions wrote it. A flat array without the field (chunks at `0.0`) is the control.
Also what zarr-python reads from each through a NestedDirectoryStore (a DirectoryStore, which older
code would have used too, reads the nested ones as fill values only).
Run: /usr/bin/python3 python/legacy_nested_fixtures.py fixtures/legacy-nested"""
import json, os, shutil, sys
import numcodecs
import numpy as np
import zarr

out = sys.argv[1]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)

def strip_separator(path):
    key = os.path.join(path, ".zarray")
    meta = json.load(open(key))
    meta.pop("dimension_separator", None)
    with open(key, "w") as f:  # as zarr-python < 2.8 wrote .zarray: sorted keys, indent 4
        json.dump(meta, f, indent=4, sort_keys=True, ensure_ascii=True, separators=(",", ": "))

expected = {}
# nested: a 2-d int32 array with its last chunk never written, and a 3-d float64 one in F order
store = zarr.NestedDirectoryStore(os.path.join(out, "nested.zarr"))
g = zarr.group(store=store)
a = g.create_dataset("a", shape=(5, 7), chunks=(2, 3), dtype="<i4", fill_value=-1, compressor=numcodecs.Zlib(1))
a[:4, :] = np.arange(28).reshape(4, 7)
a[4, :6] = 100 + np.arange(6)
b = g.create_dataset("b", shape=(3, 4, 2), chunks=(2, 2, 1), dtype="<f8", fill_value=float("nan"), compressor=None, order="F")
b[:] = np.arange(24).reshape(3, 4, 2) / 4
b[2, 3, 1] = np.nan
s = g.create_dataset("s", shape=(3, 3), chunks=(2, 2), dtype=str, compressor=None)  # an object array
s[:2, :] = [["a", "bé", ""], ["x", "yy", "zzz"]]
# a group's array written flat by a plain DirectoryStore beside them, without the field too
flat = zarr.open_array(os.path.join(out, "nested.zarr", "flat"), mode="w", shape=(4, 4), chunks=(2, 2), dtype="<u2", fill_value=7, compressor=None)
flat[:2, :] = np.arange(8).reshape(2, 4)
for name in ["a", "b", "s", "flat"]:
    strip_separator(os.path.join(out, "nested.zarr", name))
    reader = zarr.NestedDirectoryStore if name != "flat" else zarr.DirectoryStore
    z = zarr.open_array(reader(os.path.join(out, "nested.zarr", name)), mode="r")
    v = z[...]
    expected[name] = {"shape": list(v.shape), "dtype": v.dtype.str,
                      "values": [x if isinstance(x, (str, int)) else None if x != x else x.item() for x in v.reshape(-1)],
                      "info": dict(z.info_items()), "hexdigest": z.hexdigest(),
                      "keys": sorted(os.path.relpath(os.path.join(d, f), os.path.join(out, "nested.zarr", name)) for d, _, fs in os.walk(os.path.join(out, "nested.zarr", name)) for f in fs)}
    print(name, expected[name]["keys"])
with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
