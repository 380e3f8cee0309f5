"""`.npy` files numpy wrote, for every dtype zarr supports, with a manifest of what they hold.
Run: /usr/bin/python3 test/python/npy_fixtures.py test/fixtures/npy"""
import base64, io, json, os, shutil, sys
import numpy as np
from numpy.lib import format as npf

out = sys.argv[1]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)

def dtype_json(dt):
    return dt.descr if dt.names is not None else dt.str

cases = {
    "b1": np.array([True, False, True]),
    "i1": np.array([-128, 0, 127], dtype="i1"),
    "u1-2d": np.arange(6, dtype="u1").reshape(2, 3),
    "i2-be": np.array([1, -2, 300], dtype=">i2"),
    "u2": np.array([0, 65535], dtype="<u2"),
    "i4-3d": np.arange(24, dtype="<i4").reshape(2, 3, 4),
    "u4-be": np.array([1, 2**32 - 1], dtype=">u4"),
    "i8": np.array([-(2**63), 2**63 - 1, 0], dtype="<i8"),
    "u8-be": np.array([2**64 - 1, 1], dtype=">u8"),
    "f2": np.array([0.5, -np.inf, np.nan], dtype="<f2"),
    "f4-be": np.array([1.5, -0.0, 3.25], dtype=">f4"),
    "f8": np.array([np.pi, np.nan, 1e-300], dtype="<f8"),
    "c8": np.array([1 + 2j, -3.5j], dtype="<c8"),
    "c16-be": np.array([1e100 - 1j], dtype=">c16"),
    "S5": np.array([b"hello", b"a\x00b", b""], dtype="S5"),
    "U3": np.array(["abc", "é", "😀x"], dtype="<U3"),
    "U2-be": np.array(["xy", "z"], dtype=">U2"),
    "V4": np.array([b"\x00\x01\x02\x03", b"abcd"], dtype="V4"),
    "M8-ns": np.array(["2020-01-01T00:00:00.123456789", "NaT"], dtype="<M8[ns]"),
    "M8-D-be": np.array(["1970-01-02", "1969-12-31"], dtype=">M8[D]"),
    "m8-10s": np.array([1, -5], dtype="<m8[10s]"),
    "struct": np.array([(1, 2.5, b"ab"), (-1, np.nan, b"")], dtype=[("a", "<i4"), ("b", ">f8"), ("c", "S2")]),
    "struct-subarray": np.array([(1, [[1, 2], [3, 4]])], dtype=[("x", "u1"), ("m", "<i2", (2, 2))]),
    "struct-nested": np.array([((1, 2), True)], dtype=[("p", [("x", "<f4"), ("y", "<f4")]), ("ok", "?")]),
    "struct-aligned": np.zeros(2, dtype=np.dtype([("a", "u1"), ("b", "<i4")], align=True)),
    "0d": np.array(42, dtype="<i2"),
    "empty": np.zeros((0, 3), dtype="<f4"),
    "F-2d": np.asfortranarray(np.arange(12, dtype="<i4").reshape(3, 4)),
    "F-3d-be": np.asfortranarray(np.arange(24, dtype=">f8").reshape(2, 3, 4)),
    "F-1d-is-C": np.asfortranarray(np.arange(3, dtype="<i4")),
    "wide": np.arange(5, dtype="<i4").reshape(1, 5),
}
cases["struct-aligned"]["b"] = [7, -7]

manifest = {}
def record(name, a, version=None):
    path = os.path.join(out, name + ".npy")
    if version is None:
        np.save(path, a)
    else:
        with open(path, "wb") as f:
            npf.write_array(f, a, version=version)
    with open(path, "rb") as f:
        v = f.read(8)[6:8]
    manifest[name] = {
        "dtype": dtype_json(a.dtype),
        "shape": list(a.shape),
        "fortran_order": bool(a.flags.f_contiguous and not a.flags.c_contiguous),
        "version": [v[0], v[1]],
        # the elements in C order, in the dtype's byte order
        "data": base64.b64encode(np.ascontiguousarray(a).tobytes()).decode(),
        "repr": repr(a),
    }

for name, a in cases.items():
    record(name, a)
record("v2", np.arange(4, dtype="<u2"), version=(2, 0))
record("v3-utf8-field", np.array([(1,)], dtype=[("ünï😀", "<i4")]), version=(3, 0))
# numpy picks 3.0 by itself when the header needs more than latin-1
record("auto-v3", np.array([(2.5,)], dtype=[("α", "<f8")]))

with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(len(manifest), "files")
