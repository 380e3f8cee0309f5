"""A small hierarchy zarr-python 2.13 wrote (test/fixtures/store), and what zarr-python and numpy
say about it (test/fixtures/store-expected.json, test/fixtures/store-npy/*.npy).
Run: /usr/bin/python3 test/python/store_fixtures.py test/fixtures"""
import base64, json, os, shutil, sys, tempfile
import numcodecs
import numpy as np
import zarr

out = sys.argv[1]
root = os.path.join(out, "store")
shutil.rmtree(root, ignore_errors=True)
g = zarr.open_group(root, mode="w")
g.attrs.update({"title": "fixture", "version": 1.0})

a = g.create_dataset("grp/a", shape=(10, 12), chunks=(4, 5), dtype="<i4", compressor=numcodecs.Zlib(1), fill_value=-1)
a[:7] = np.arange(84).reshape(7, 12)
a.attrs["units"] = "m"
g.create_group("grp/sub")
b = g.create_dataset("b", shape=(5,), chunks=(2,), dtype=">f8", compressor=None, fill_value=float("nan"))
b[1:3] = [1.5, -2.25]
c = g.create_dataset("c", shape=(3, 4), chunks=(2, 2), dtype="<u2", order="F", compressor=numcodecs.GZip(5))
c[:] = np.arange(12).reshape(3, 4)
n = g.create_dataset("nested", shape=(4, 4), chunks=(2, 2), dtype="<f4", compressor=numcodecs.Zlib(1), dimension_separator="/")
n[:] = np.arange(16).reshape(4, 4) / 4
s = g.create_dataset("s", shape=(3,), chunks=(2,), dtype=[("x", "<i2"), ("y", "S3")], compressor=None, fill_value=None)
s[:] = np.array([(1, b"ab"), (-2, b""), (3, b"xyz")], dtype=s.dtype)
t = g.create_dataset("t", shape=(3,), chunks=(3,), dtype="<M8[ns]", compressor=None, fill_value=None)
t[:] = np.array(["2020-01-01", "NaT", "1969-12-31T23:59:59.5"], dtype="<M8[ns]")
z0 = g.create_dataset("z0", shape=(), dtype="<i8", compressor=None, fill_value=0)
z0[...] = 42
u = g.create_dataset("u", shape=(2, 2), chunks=(1, 2), dtype="<U4", compressor=numcodecs.Zlib(1), fill_value="")
u[:] = [["a", "bé"], ["", "wxyz"]]
g.create_dataset("e", shape=(0, 3), chunks=(2, 3), dtype="<f8", compressor=None)
big = g.create_dataset("big", shape=(40, 50), chunks=(10, 10), dtype="<i2", compressor=numcodecs.Zlib(1))
big[:] = np.arange(2000).reshape(40, 50)
cx = g.create_dataset("cx", shape=(2,), chunks=(2,), dtype="<c8", compressor=None)
cx[:] = [1 + 2j, -0.5j]
bo = g.create_dataset("bo", shape=(3,), chunks=(3,), dtype="|b1", compressor=None)
bo[:] = [True, False, True]

def dtype_json(dt):
    return dt.descr if dt.names is not None else dt.str

def value_json(v, dt):
    if dt.names is not None:
        return {name: value_json(v[name], dt.fields[name][0]) for name in dt.names}
    k = dt.kind
    if k == "f":
        x = float(v)
        return "NaN" if x != x else "Infinity" if x == float("inf") else "-Infinity" if x == float("-inf") else x
    if k == "c":
        return [value_json(v.real, np.dtype("f8")), value_json(v.imag, np.dtype("f8"))]
    if k in "Mm":
        i = int(v.view("i8"))
        return "NaT" if i == -(2**63) else i
    if k == "S":
        return base64.b64encode(bytes(v)).decode("ascii")
    if k in "biu":
        return v.item()
    return str(v)

def values_json(arr):
    flat = arr.reshape(-1)
    return json.dumps({"dtype": dtype_json(arr.dtype), "shape": list(arr.shape), "values": [value_json(x, arr.dtype) for x in flat]}, ensure_ascii=False) + "\n"

gets = [
    ("grp/a", ""), ("grp/a", "2:5,::3"), ("grp/a", "5"), ("grp/a", "...,-1"), ("grp/a", ":"), ("grp/a", "-3:,1:11:4"), ("grp/a", "9,11"),
    ("b", ""), ("c", ""), ("c", "1:,1:3"), ("nested", "1:3"), ("s", ""), ("t", ""), ("z0", ""), ("u", ""), ("e", ""), ("big", ""),
    ("big", "::7,::9"), ("cx", ""), ("bo", "1"),
]
expected = {"gets": [], "digests": {}, "npy": {}}
for path, sel in gets:
    arr = g[path]
    index = eval(f"np.s_[{sel}]") if sel else Ellipsis
    v = arr[index]
    v = np.asarray(v)
    expected["gets"].append({"path": path, "selection": sel, "repr": repr(v), "json": values_json(v)})

expected["tree"] = str(g.tree())
expected["tree_grp"] = str(g["grp"].tree())
expected["tree_level1"] = str(g.tree(level=1))
for name, arr in g.arrays(recurse=True):
    pass
def walk(group):
    for name, arr in group.arrays():
        expected["digests"][arr.path] = arr.hexdigest()
    for name, sub in group.groups():
        walk(sub)
walk(g)
expected["digests_md5"] = {"grp/a": g["grp/a"].hexdigest("md5")}
# Array.info_items() (this project names the types ZarrArray and DirectoryStore instead)
expected["info"] = {p: dict(g[p].info_items()) for p in ["grp/a", "b", "c", "u", "s"]}
expected["group_info"] = {p: dict(g[p].info_items()) for p in ["grp"]}

# np.save of whole arrays, and of a selection
npy_dir = os.path.join(out, "store-npy")
shutil.rmtree(npy_dir, ignore_errors=True)
os.makedirs(npy_dir)
for path, sel in [("grp/a", ""), ("b", ""), ("c", ""), ("s", ""), ("t", ""), ("z0", ""), ("u", ""), ("e", ""), ("grp/a", "1:9:2,3"), ("cx", "")]:
    arr = g[path]
    index = eval(f"np.s_[{sel}]") if sel else Ellipsis
    name = path.replace("/", "-") + ("" if not sel else "-sel")
    np.save(os.path.join(npy_dir, name + ".npy"), np.asarray(arr[index]))
    expected["npy"][name] = {"path": path, "selection": sel}

# .zmetadata as consolidate_metadata writes it, on a copy
with tempfile.TemporaryDirectory() as tmp:
    copy = os.path.join(tmp, "c")
    shutil.copytree(root, copy)
    zarr.consolidate_metadata(zarr.DirectoryStore(copy))
    with open(os.path.join(copy, ".zmetadata")) as f:
        expected["zmetadata"] = f.read()

# .zarray as zarr-python writes it for `zarr create` arguments
creates = [
    (["--shape", "100,200", "--dtype", "<f4", "--chunks", "10,20", "--compressor", '{"id": "zlib", "level": 1}', "--fill-value", "1.5", "--order", "F"],
     dict(shape=(100, 200), dtype="<f4", chunks=(10, 20), compressor=numcodecs.Zlib(1), fill_value=1.5, order="F")),
    (["--shape", "5", "--dtype", "|S3", "--fill-value", '"YWI="', "--compressor", "null"],
     dict(shape=5, dtype="S3", fill_value=b"ab", compressor=None)),
    (["--shape", "10,10", "--dtype", "int64", "--compressor", "null", "--fill-value", "null", "--dimension-separator", "/"],
     dict(shape=(10, 10), dtype="i8", compressor=None, fill_value=None, dimension_separator="/")),
    (["--shape", "3", "--dtype", '[["a", "<i4"], ["b", "<f8", [2]]]', "--fill-value", "null", "--compressor", '{"id": "gzip", "level": 9}'],
     dict(shape=3, dtype=[("a", "<i4"), ("b", "<f8", (2,))], fill_value=None, compressor=numcodecs.GZip(9))),
    (["--shape", "4", "--dtype", "<M8[s]", "--fill-value", '"NaT"', "--compressor", "null"],
     dict(shape=4, dtype="<M8[s]", fill_value=np.datetime64("NaT"), compressor=None)),
    (["--shape", "6", "--dtype", "<i4", "--filters", '[{"id": "delta", "dtype": "<i4", "astype": "<i4"}]', "--compressor", '{"id": "zlib", "level": 9}'],
     dict(shape=6, dtype="<i4", filters=[numcodecs.Delta(dtype="<i4")], compressor=numcodecs.Zlib(9))),
    (["--shape", "2", "--dtype", "<c16", "--fill-value", '[1.0, -2.0]', "--compressor", "null"],
     dict(shape=2, dtype="<c16", fill_value=1 - 2j, compressor=None)),
    (["--shape", "2", "--dtype", ">f8", "--fill-value", '"NaN"', "--compressor", "null"],
     dict(shape=2, dtype=">f8", fill_value=float("nan"), compressor=None)),
    (["--shape", "2", "--dtype", "bool", "--fill-value", "true", "--compressor", "null"],
     dict(shape=2, dtype=bool, fill_value=True, compressor=None)),
    (["--shape", "2", "--dtype", "<U3", "--fill-value", '"abc"', "--compressor", "null"],
     dict(shape=2, dtype="<U3", fill_value="abc", compressor=None)),
    (["--shape", "", "--dtype", "<i2", "--compressor", '{"id": "zlib", "level": 1}'],
     dict(shape=(), dtype="<i2", compressor=numcodecs.Zlib(1))),
    (["--shape", "1000,1000", "--compressor", "null"],
     dict(shape=(1000, 1000), compressor=None)),
    (["--shape", "100", "--chunks", "-1", "--dtype", "u1", "--compressor", "null", "--fill-value", "7"],
     dict(shape=100, chunks=(None,), dtype="u1", compressor=None, fill_value=7)),
]
expected["creates"] = []
with tempfile.TemporaryDirectory() as tmp:
    for i, (args, kwargs) in enumerate(creates):
        zarr.create(store=zarr.DirectoryStore(os.path.join(tmp, str(i))), **kwargs)
        with open(os.path.join(tmp, str(i), ".zarray")) as f:
            expected["creates"].append({"args": args, "zarray": f.read()})

with open(os.path.join(out, "store-expected.json"), "w") as f:
    json.dump(expected, f, indent=1, ensure_ascii=False)
    f.write("\n")

# a store with an array whose compressor this build may lack (blosc), for error paths
blosc = os.path.join(out, "store-blosc")
shutil.rmtree(blosc, ignore_errors=True)
z = zarr.open_array(blosc, mode="w", shape=(4,), chunks=(2,), dtype="<i8")
z[:] = [1, 2, 3, 4]
with open(os.path.join(out, "store-blosc-digest.txt"), "w") as f:
    f.write(z.hexdigest() + "\n")
print(len(expected["gets"]), "gets,", len(expected["digests"]), "digests")
