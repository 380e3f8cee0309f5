"""What numpy gives for selections with negative steps of the arrays of the fixture store
(test/fixtures/store, read only, with zarr-python 2.13), for `zarr get` and `zarr export`:
test/fixtures/negative-steps.json. zarr-python 2.13 itself refuses negative steps
(NegativeStepError), so each selection is numpy's, of the whole array zarr-python read.
Run: /usr/bin/python3 test/python/negative_steps.py test/fixtures"""
import base64, io, json, os, sys
import numpy as np
import zarr

out = sys.argv[1]
g = zarr.open_group(os.path.join(out, "store"), mode="r")

def value_json(v, dt):
    k = dt.kind
    if k == "f":
        x = float(v)
        return "NaN" if x != x else "Infinity" if x == float("inf") else "-Infinity" if x == float("-inf") else x
    if k in "biu":
        return v.item()
    return str(v)

def values_json(arr):
    return json.dumps({"dtype": arr.dtype.str, "shape": list(arr.shape), "values": [value_json(x, arr.dtype) for x in arr.reshape(-1)]}, ensure_ascii=False) + "\n"

cases = [
    ("grp/a", "::-1"), ("grp/a", "::-1,::-1"), ("grp/a", "8:1:-3,::-2"), ("grp/a", "-1:-11:-4,5"), ("grp/a", "3:7:-1"),
    ("grp/a", "-100::-1,:-100:-1"), ("grp/a", "5::-2,100:0:-5"), ("b", "::-2"), ("c", "::-1,1::-1"), ("nested", "::-3,::-1"),
    ("u", "::-1,::-1"), ("big", "::-1,::-1"), ("big", "::-7,-2::-9"),
]
expected = {"gets": [], "npy": {}}
for path, sel in cases:
    v = g[path][...][eval(f"np.s_[{sel}]")]
    expected["gets"].append({"path": path, "selection": sel, "repr": repr(v), "json": values_json(v)})
# np.save of selections, each in the array's order as zarr-python returns `z[selection]` (c is in F
# order, so its export is a Fortran-order .npy)
for path, sel in [("grp/a", "8:1:-3,::-2"), ("c", "::-1,1::-1"), ("big", "::-7,-2::-9")]:
    buf = io.BytesIO()
    v = g[path][...][eval(f"np.s_[{sel}]")]
    np.save(buf, np.asfortranarray(v) if g[path].order == "F" else np.ascontiguousarray(v))
    expected["npy"][f"{path} {sel}"] = {"path": path, "selection": sel, "npy": base64.b64encode(buf.getvalue()).decode()}

with open(os.path.join(out, "negative-steps.json"), "w") as f:
    json.dump(expected, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(len(expected["gets"]), "gets")
