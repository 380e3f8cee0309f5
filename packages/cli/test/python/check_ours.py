"""Reads what the TypeScript CLI wrote, with numpy and zarr-python, and reports what differs.
Run by test/live-python.test.ts: /usr/bin/python3 test/python/check_ours.py DIR"""
import json, os, sys
import numpy as np
import zarr

d = sys.argv[1]
problems = []

def same(a, b):
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    return np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()

# 1. .npy files: ours (written from what we read) against numpy's originals
spec = json.load(open(os.path.join(d, "npy.json")))
for name, original in spec["pairs"].items():
    try:
        ours = np.load(os.path.join(d, "npy", name + ".npy"), max_header_size=10**6)
        theirs = np.load(original, max_header_size=10**6)
        if not same(ours, theirs):
            problems.append(f"{name}.npy: numpy reads {ours.dtype} {ours.shape}, expected {theirs.dtype} {theirs.shape}")
        if ours.flags.f_contiguous != theirs.flags.f_contiguous or ours.flags.c_contiguous != theirs.flags.c_contiguous:
            problems.append(f"{name}.npy: order differs")
    except Exception as e:  # noqa: BLE001
        problems.append(f"{name}.npy: {e!r}")
big = np.load(os.path.join(d, "npy", "many-fields.npy"), max_header_size=10**6)
if len(big.dtype.names) != 3000 or big["field_number_2999"][0] != 2999:
    problems.append("many-fields.npy: wrong fields")

# 2. a store the CLI built: create, import, attrs, resize, consolidate
store = os.path.join(d, "store.zarr")
try:
    g = zarr.open_consolidated(store, mode="r")
    a = g["x/imported"]
    if not np.array_equal(a[...], np.arange(12, dtype="<i4").reshape(3, 4)[:, :3]):
        problems.append(f"x/imported: {a[...]!r}")
    if a.order != "F" or a.chunks != (2, 3) or a.fill_value != -1:
        problems.append(f"x/imported metadata: {a.order} {a.chunks} {a.fill_value}")
    if dict(a.attrs) != {"units": "m", "scale": 2.0}:
        problems.append(f"x/imported attrs: {dict(a.attrs)}")
    c = g["created"]
    if c.dtype != np.dtype("<M8[s]") or not np.isnat(c[...]).all():
        problems.append(f"created: {c.dtype} {c[...]!r}")
    s = g["structured"]
    if s[1]["b"].tolist() != [1.5, 2.5] or s.dtype.names != ("a", "b"):
        problems.append(f"structured: {s[...]!r}")
    j = g["fromjson"]
    if j.dtype != np.dtype("<f8") or not np.isnan(j[2]) or j[1] != 2.5:
        problems.append(f"fromjson: {j[...]!r}")
    if dict(g.attrs) != {"made_by": "zarr cli"}:
        problems.append(f"root attrs: {dict(g.attrs)}")
    if g.tree() is None:
        problems.append("tree")
except Exception as e:  # noqa: BLE001
    problems.append(f"store: {e!r}")

print(json.dumps(problems))
