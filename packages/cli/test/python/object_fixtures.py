"""Object arrays (dtype |O) zarr-python 2.13 wrote with each object codec numcodecs has: vlen-utf8,
vlen-bytes, vlen-array, json2 and msgpack2 (test/fixtures/objects), and what zarr-python and numpy
say of them (test/fixtures/objects-expected.json): numpy's repr of selections, Array.info_items(),
and the values as `zarr get --json` and `zarr export` write them, made here from what zarr-python
reads: strings as text, bytes (vlen-bytes) as base64 (as for |S), vlen-array
items as lists of their values (NaN as "NaN", as for float arrays), json2 and msgpack2 values as
Python's json.dumps writes them (NaN bare), and fill values of missing chunks as they read (0, None).
Run: /usr/bin/python3 test/python/object_fixtures.py test/fixtures"""
import base64, json, math, os, shutil, sys
import numcodecs
import numpy as np
import zarr

out = sys.argv[1]
root = os.path.join(out, "objects")
shutil.rmtree(root, ignore_errors=True)
g = zarr.open_group(root, mode="w")

def objs(values, shape=None):
    a = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        a[i] = v
    return a if shape is None else a.reshape(shape)

zlib = numcodecs.Zlib(1)
u = g.create_dataset("utf8", shape=(2, 3), chunks=(1, 2), dtype=str, compressor=zlib)
u[0] = ["a", "bé \U0001F600", "it's \"q\"\n"]  # row 1 stays missing: it reads as the fill value, 0
n = g.create_dataset("utf8-none", shape=(3,), chunks=(2,), dtype=str, fill_value=None, compressor=None)
n[:2] = ["", "x"]
b = g.create_dataset("bytes", shape=(5,), chunks=(2,), dtype=bytes)  # zarr-python's default compressor, blosc
b[:3] = [b"ab", b"\x00\xff'\"", b""]
r = g.create_dataset("ragged", shape=(4,), chunks=(2,), dtype="array:i4", compressor=zlib)
r[:3] = objs([np.array([1, 2, 3], "i4"), np.array([], "i4"), np.array([-5], "i4")])
r8 = g.create_dataset("ragged-f8", shape=(3,), chunks=(3,), dtype="array:<f8", compressor=None)
r8[:] = objs([np.array([1.5, np.nan, -np.inf]), np.array([1e300]), np.array([], "f8")])
rl = g.create_dataset("ragged-long", shape=(3,), chunks=(2,), dtype="array:u2", compressor=zlib)
rl[:] = objs([np.arange(40, dtype="u2"), np.array([7], "u2"), np.arange(2000, dtype="u2")])
j = g.create_dataset("json", shape=(9,), chunks=(4,), dtype=object, object_codec=numcodecs.JSON(), compressor=zlib)
j[:] = objs([1, 1.0, 1.5e-7, "s", None, True, {"k": [1, "x"], "a": {"b": None}}, float("nan"), 2**70])
j2 = g.create_dataset("json-2d", shape=(2, 2), chunks=(2, 1), dtype=object, object_codec=numcodecs.JSON(), compressor=None)
j2[:] = objs([[1, 2], ["a"], -0.5, "z"], (2, 2))
m = g.create_dataset("msgpack", shape=(6,), chunks=(3,), dtype=object, object_codec=numcodecs.MsgPack(), compressor=zlib)
m[:] = objs([1, 2.5, "s", b"by", None, {"a": [1, 2]}])
mp = g.create_dataset("msgpack-plain", shape=(5,), chunks=(2,), dtype=object, object_codec=numcodecs.MsgPack(), compressor=None, fill_value=None)
mp[:4] = objs([-3, 0.25, "ü", [True, None]])
big = g.create_dataset("big", shape=(40, 50), chunks=(10, 10), dtype=str, compressor=zlib)
big[:] = objs([f"s{i}" for i in range(2000)], (40, 50))
s = g.create_dataset("scalar", shape=(), dtype=str, compressor=None)
s[...] = "only"

def value_json(v, dt):
    if dt.kind == "f":
        x = float(v)
        return "NaN" if x != x else "Infinity" if x == math.inf else "-Infinity" if x == -math.inf else x
    return v.item()

def object_json(v, codec):
    if codec["id"] == "vlen-bytes" and isinstance(v, bytes):
        return base64.b64encode(v).decode("ascii")
    if codec["id"] == "vlen-array" and isinstance(v, np.ndarray):
        return [value_json(x, v.dtype) for x in v]
    return v

def values_json(arr, codec):
    doc = {"dtype": "|O", "object_codec": codec, "shape": list(arr.shape), "values": [object_json(v, codec) for v in arr.reshape(-1)]}
    return json.dumps(doc, ensure_ascii=False) + "\n"

selections = {"utf8": ["", "0", ":,::-1"], "utf8-none": [""], "bytes": ["", "1:"], "ragged": ["", "::2"], "ragged-f8": [""], "ragged-long": [""],
              "json": ["", "6"], "json-2d": ["", ":,0"], "msgpack": [""], "msgpack-plain": [""], "big": ["", "::7,-3:"], "scalar": [""]}
expected = {"gets": [], "info": {}, "zarray": {}}
for path, sels in selections.items():
    z = g[path]
    codec = json.loads(g.store[f"{path}/.zarray"])["filters"][0]
    for sel in sels:
        v = z[...][eval(f"np.s_[{sel}]")] if sel else z[...]  # numpy selects (zarr-python 2.13 takes no negative steps)
        v = np.asarray(v) if isinstance(v, np.ndarray) else np.array(v, dtype=object)
        try:
            js = values_json(v, codec)
        except TypeError:  # bytes inside json/msgpack values: JSON cannot hold them
            js = None
        expected["gets"].append({"path": path, "selection": sel, "repr": repr(v), "json": js})
    expected["info"][path] = dict(z.info_items())

with open(os.path.join(out, "objects-expected.json"), "w") as f:
    json.dump(expected, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(len(expected["gets"]), "selections")
