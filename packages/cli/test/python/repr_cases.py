"""numpy's repr of many small arrays, as the golden values of `zarr get`'s output.
Run: /usr/bin/python3 test/python/repr_cases.py test/fixtures/repr-cases.json"""
import base64, json, sys
import numpy as np

def dtype_json(dt):
    return dt.descr if dt.names is not None else dt.str

cases = [
    np.arange(6, dtype="<i4").reshape(2, 3),
    np.array([1, -20, 300], dtype=">i2"),
    np.array([-(2**63), 2**63 - 1], dtype="<i8"),
    np.array([0, 2**64 - 1], dtype="<u8"),
    np.arange(24, dtype="u1").reshape(2, 3, 4),
    np.array(5, dtype="<i4"),
    np.array(2.5),
    np.array(1.0, dtype="<f4"),
    np.array(True),
    np.array([True, False]),
    np.array([], dtype="<f4"),
    np.zeros((0, 3)),
    np.zeros((2, 0), dtype="<i4"),
    np.array([0.001953125, 1]),
    np.array([1 / 3, 2 / 3]),
    np.array([1e8, 1]),
    np.array([123456789.0]),
    np.array([1e-5, 1]),
    np.array([-1.5, 2.25, np.nan]),
    np.array([-np.inf, 1]),
    np.array([0.1], dtype="<f4"),
    np.array([1 / 3], dtype="<f4"),
    np.array([0.1, 1 / 3, 1e-3], dtype=">f4"),
    np.array([0.0, -0.0]),
    np.array([1e300, 1e-300]),
    np.array([1e100, 1e8]),
    np.array([np.nan]),
    np.array([np.nan, np.inf, -np.inf]),
    np.array([1.5, np.nan, -np.inf]),
    np.array([3.14159265358979]),
    np.array([100000.5]),
    np.array([0.999999999, 0.5]),
    np.array([12345.678901234]),
    np.array([5e-324, 1.0]),
    np.array([1.7976931348623157e308]),
    np.arange(30.0).reshape(3, 10) * 1.1,
    np.arange(2000).reshape(40, 50),
    np.arange(1001, dtype="<f8") / 7,
    np.arange(3000, dtype="<i2").reshape(10, 10, 30),
    np.arange(100, dtype="<i8") * 123456789,
    np.array([0.1, 0.2, 0.3], dtype="<f2"),
    np.array([np.nan, 1, np.inf], dtype="<f2"),
    np.array([65504, -0.000061035156], dtype="<f2"),
    np.array([1 + 2j, 3 - 1.5j], dtype="<c8"),
    np.array([1 + 0j, np.nan + 1j, 2 - np.inf * 1j]),
    np.array([1e-10 + 1e10j, -1j], dtype=">c16"),
    np.array([b"ab", b"c\x00d", b""], dtype="S3"),
    np.array([b"it's", b"\xff\x7f", b'"q"'], dtype="S4"),
    np.array(["ab", "é\n", ""], dtype="<U2"),
    np.array(["it's", 'say "hi"', "both ' \"", "tab\t", "\x00a", "a\x00", "\u2028", "😀"], dtype="<U8"),
    np.array(["big", "endian"], dtype=">U6"),
    np.array([b"\x01\x02", b"ab"], dtype="V2"),
    np.array([(1, 2.5), (3, 4)], dtype=[("a", "<i4"), ("b", "<f8")]),
    np.array([(1, [2, 3])], dtype=[("a", "u1"), ("b", ">i2", (2,))]),
    np.array([(True, [[1.5, 2], [3, 4]], b"x")], dtype=[("t", "?"), ("m", "<f4", (2, 2)), ("s", "S2")]),
    np.array([((1, 2), 3)], dtype=[("inner", [("x", "<i2"), ("y", "<i2")]), ("z", "<u4")]),
    np.array((7,), dtype=[("only", "<i4")]),
    np.array([(7,), (8,)], dtype=[("only", "<i4")]),
    np.array((True, 1.5), dtype=[("t", "?"), ("f", "<f8")]),
    np.array(["2020-01-01", "NaT"], dtype="<M8[D]"),
    np.array([0, 1, -1], dtype="<M8[W]"),
    np.array([0, -1, 30000], dtype="<M8[Y]"),
    np.array([0, -1, -13], dtype="<M8[M]"),
    np.array([-1, 10**18], dtype="<M8[ns]"),
    np.array([-719529, -719528 - 366, 3000000], dtype="<M8[D]"),
    np.array([1, 2], dtype="<M8[2h]"),
    np.array([1, 2], dtype="<M8[10s]"),
    np.array(["2020-01-01T12:30"], dtype="<M8[m]"),
    np.array([-1], dtype="<M8[as]"),
    np.array([1], dtype="<M8[us]"),
    np.array([123456789], dtype=">M8[ms]"),
    np.array(["NaT"], dtype="<M8[s]"),
    np.array([1, -2], dtype="<m8[10s]"),
    np.array([1, "NaT"], dtype="<m8[s]"),
    np.array(["NaT"], dtype="<m8[s]"),
    np.array(np.datetime64("2021-03-04", "D")),
    np.arange(12, dtype="<f8").reshape(3, 4) / 3,
    np.linspace(0, 1, 25, dtype="<f4").reshape(5, 5),
    np.array([[1e-3, 1e3], [-5, 7]]),
]

out = []
for a in cases:
    a = np.ascontiguousarray(a)
    out.append({"dtype": dtype_json(a.dtype), "shape": list(a.shape), "data": base64.b64encode(a.tobytes()).decode(), "repr": repr(a)})
with open(sys.argv[1], "w") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(len(out), "cases")
