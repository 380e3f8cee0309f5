"""Writes the datasets of packages/xarray/test/fixtures with xarray (and zarr-python where a store
was not written by xarray), and what xarray reads back from each: the tests check @z/xarray's
openDataset against these, bit for bit.

    /usr/bin/python3 xarray_fixtures.py OUT_DIR

Debian's python3-xarray (2023.01) on python3-zarr 2.13, numpy 1.24, pandas 1.5 and python3-cftime
1.6 (for the calendars other than the standard ones). For each case `NAME` it writes the store
`NAME.zarr` and `NAME.json`: for every variable of `xr.open_zarr(NAME.zarr)` its dims, shape, dtype,
attrs, the CF part of its encoding and `.values` (numbers, times and booleans as base64 of their
bytes, strings as strings, bytes as Latin-1 text, cftime dates as their fields, NaN in object
arrays as null); the dataset's coordinates, data variables, sizes and attrs; and the results of a
few `isel`/`sel` calls. The output is deterministic (fixed seeds, no timestamps), so the live check
can compare a fresh run with the committed files.
"""
import base64
import json
import os
import shutil
import sys
import warnings

import cftime
import numpy as np
import pandas as pd
import xarray as xr
import zarr

from xarray_json import dataset_json, element, selection_json, values_json

warnings.simplefilter("ignore")
OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
CASES = []
def rewrite_json(ds):
    """The metadata documents xarray writes for the opened dataset (ds.to_zarr), or its error."""
    tmp = os.path.join(OUT, ".rewrite.zarr")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        ds.to_zarr(tmp, mode="w")
    except Exception as e:  # noqa: BLE001 (recorded: xarray cannot write this dataset back)
        return {"error": type(e).__name__}
    docs = {}
    for root, _, files in os.walk(tmp):
        for f in files:
            if f in (".zarray", ".zattrs", ".zgroup"):
                key = os.path.relpath(os.path.join(root, f), tmp)
                with open(os.path.join(root, f)) as fh:
                    docs[key] = json.load(fh, parse_constant=lambda c: c)
    arrays = {name: values_json(array[...]) for name, array in zarr.open_group(tmp, mode="r").arrays()}
    shutil.rmtree(tmp)
    return {"documents": dict(sorted(docs.items())), "arrays": arrays}


def case(name, write, selections=(), consolidated=True, open_kwargs=None):
    """Writes the store with `write(path)` (which may consolidate) and records what xarray reads."""
    path = os.path.join(OUT, name + ".zarr")
    shutil.rmtree(path, ignore_errors=True)
    write(path)
    ds = xr.open_zarr(path, consolidated=consolidated, **(open_kwargs or {}))
    # What print() shows, with values held in memory only for indexes (no dask), as zarr info --dataset.
    shown = xr.open_dataset(path, engine="zarr", chunks=None, consolidated=consolidated, **(open_kwargs or {}))
    doc = {"case": name, "consolidated": consolidated, "open": open_kwargs or {}, "dataset": dataset_json(ds),
           "selections": selection_json(ds, selections), "rewrite": rewrite_json(ds), "repr": repr(shown)}
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True, allow_nan=False)
        f.write("\n")
    CASES.append(name)


def to_zarr(ds, consolidated=True):
    return lambda path: ds.to_zarr(path, mode="w", consolidated=consolidated)


rng = np.random.RandomState(21)

# 1. The most common real-world shape: time x lat x lon int16 packed with scale_factor/add_offset,
#    _FillValue (as Zarr's fill_value), missing values, standard times; several chunkings,
#    consolidated and not, chunks that do not divide the shape.
time = pd.date_range("1999-12-30", periods=12, freq="6H")
lat = np.linspace(-60, 60, 10)
lon = np.arange(0, 360, 22.5)
temp = 280 + 15 * np.cos(np.deg2rad(lat))[None, :, None] + rng.normal(0, 3, (12, 10, 16))
temp[2, 3, 4] = np.nan
temp[7, :, 0] = np.nan
packed = xr.Dataset(
    {"t2m": (("time", "lat", "lon"), temp.astype("f4"), {"long_name": "2 metre temperature", "units": "K"})},
    coords={"time": time, "lat": ("lat", lat, {"units": "degrees_north", "standard_name": "latitude"}),
            "lon": ("lon", lon, {"units": "degrees_east"})},
    attrs={"title": "packed int16", "Conventions": "CF-1.8", "history": "made by xarray_fixtures.py"})
packed_selections = [
    ("isel", {"time": 0, "lat": {"slice": [2, 7, None]}}, {}),
    ("isel", {"lon": {"slice": [None, None, -3]}, "time": -1}, {}),
    ("sel", {"time": "2000-01-01T06:00:00", "lat": {"slice": [-30, 30, None]}}, {}),
    ("sel", {"lat": 11.0, "lon": 100.0}, {"method": "nearest"}),
    ("sel", {"time": "2000-01-01"}, {}),
]
for label, chunks in [("whole", (12, 10, 16)), ("small", (5, 4, 6)), ("slabs", (1, 10, 16))]:
    for consolidated in [True, False]:
        ds = packed.copy()
        ds.t2m.encoding = {"dtype": "int16", "scale_factor": 0.002, "add_offset": 280.0, "_FillValue": -32767,
                           "chunks": chunks}
        ds.time.encoding = {"units": "hours since 1999-12-30", "dtype": "int32", "chunks": (chunks[0],)}
        name = f"packed-{label}-{'consolidated' if consolidated else 'plain'}"
        case(name, to_zarr(ds, consolidated), packed_selections if label == "small" else (), consolidated)

# Scale without offset (float32 result), offset without fill value (float64), int32 packed
# (float64), uint8 packed with a fill value, float32 and float64 packed, a list scale factor,
# big-endian storage.
n = 40
raw_i2 = rng.randint(-30000, 30000, n).astype("i2")
raw_i2[[3, 17]] = -32768
scale = xr.Dataset(
    {
        "i2_scale": ("n", raw_i2, {"scale_factor": 0.1}),
        "i2_scale_fill": ("n", raw_i2, {"scale_factor": 0.1, "_FillValue": np.int16(-32768)}),
        "i2_offset": ("n", raw_i2, {"add_offset": 3.5}),
        "i2_both": ("n", raw_i2, {"scale_factor": 0.01, "add_offset": 100.25}),
        "i2_both_fill": ("n", raw_i2, {"scale_factor": 0.01, "add_offset": 100.25, "_FillValue": np.int16(-32768)}),
        "i4_both": ("n", rng.randint(-2**30, 2**30, n).astype("i4"), {"scale_factor": 1e-5, "add_offset": -7.0}),
        "u1_fill": ("n", rng.randint(0, 256, n).astype("u1"), {"scale_factor": 0.5, "add_offset": 1.0, "_FillValue": np.uint8(255)}),
        "f4_both": ("n", rng.normal(0, 100, n).astype("f4"), {"scale_factor": 0.3, "add_offset": 0.7}),
        "f8_both": ("n", rng.normal(0, 100, n), {"scale_factor": 0.3, "add_offset": 0.7}),
        "i2_list": ("n", raw_i2, {"scale_factor": [0.25], "add_offset": [2]}),
        "i2_int_scale": ("n", raw_i2, {"scale_factor": 3}),
        "i8_scale": ("n", rng.randint(-2**40, 2**40, n).astype("i8"), {"scale_factor": 1e-3}),
    })
for v in scale.data_vars.values():
    v.encoding["chunks"] = (16,)


def write_scale(path):
    scale.to_zarr(path, mode="w")
    g = zarr.open_group(path, mode="a")
    big = g.create("be_i2", shape=(n,), chunks=(16,), dtype=">i2", fill_value=-32768)
    big[:] = raw_i2
    big.attrs.update({"_ARRAY_DIMENSIONS": ["n"], "scale_factor": 0.5, "add_offset": -1.0})
    bigf = g.create("be_f8", shape=(n,), chunks=(16,), dtype=">f8", fill_value="NaN")
    bigf[:] = np.linspace(-1, 1, n)
    bigf.attrs.update({"_ARRAY_DIMENSIONS": ["n"]})
    zarr.consolidate_metadata(path)


case("scale-offset", write_scale)

# Masking: the Zarr fill value as xarray takes it (zarr-python's own default 0 masks zeros),
# missing_value, both at once (two values masked), NaN fill values, valid_min/valid_max/valid_range
# (xarray does not apply them), _Unsigned, fill values of every integer width.
def write_masking(path):
    g = zarr.open_group(path, mode="w")
    g.attrs["title"] = "masking"

    def arr(name, data, dims, fill_value, attrs=None, chunks=None):
        a = g.create(name, shape=data.shape, chunks=chunks or data.shape, dtype=data.dtype, fill_value=fill_value)
        a[...] = data
        a.attrs.update({"_ARRAY_DIMENSIONS": dims, **(attrs or {})})

    m = np.arange(-3, 21)
    arr("zarr_default_zero", m.astype("i4"), ["m"], 0)
    arr("no_fill", m.astype("i4"), ["m"], None)
    arr("missing_value", m.astype("i2"), ["m"], None, {"missing_value": 5})
    arr("fill_and_missing", m.astype("i2"), ["m"], 7, {"missing_value": 9})
    arr("missing_list", m.astype("i8"), ["m"], None, {"missing_value": [1, 2]})
    arr("f4_fill", (m * 1.5).astype("f4"), ["m"], 4.5)
    arr("f4_big_fill", np.where(m % 5 == 0, np.float32(1e20), m).astype("f4"), ["m"], 1e20)
    arr("f8_missing_nan", np.where(m % 4 == 0, np.nan, m * 0.1), ["m"], "NaN", {"missing_value": 0.5})
    arr("valid_range", (m * 10).astype("i2"), ["m"], None, {"valid_min": 0, "valid_max": 100, "valid_range": [0, 100]})
    arr("u1_fill", (m + 240).astype("u1"), ["m"], 255)
    arr("u2_fill", (m * 3000).astype("u2"), ["m"], 0)
    arr("u8_fill", (m.astype("u8") * np.uint64(2**60)), ["m"], 0)
    arr("i8_fill", m.astype("i8") * 2**55, ["m"], -2**55 * 3)
    arr("unsigned_i1", np.array([1, 0, -1, -128, 127, 5], "i1"), ["u"], None, {"_Unsigned": "true", "_FillValue": -1})
    arr("unsigned_false_u1", np.array([1, 0, 255, 128, 127, 5], "u1"), ["u"], None, {"_Unsigned": "false"})
    arr("u4_fill_attr_only", np.array([1, 0, 7, 3, 7, 5], "u4"), ["u"], None, {"_FillValue": 7})
    arr("f2_fill", np.array([1, 0.5, -2, 3, 7, 5], "f2"), ["u"], 0.5)
    arr("chunked_fill", m.astype("i4"), ["m"], -1, chunks=(5,))
    del g["chunked_fill"]
    c = g.create("chunked_fill", shape=(24,), chunks=(5,), dtype="i4", fill_value=-1)
    c[:10] = m[:10]
    c.attrs["_ARRAY_DIMENSIONS"] = ["m"]
    zarr.consolidate_metadata(path)


case("masking", write_masking)

# Times: every unit and calendar, integer and float counts, fill values (NaT), reference dates
# pandas cannot parse or hold (year 1: cftime, then back to datetime64 when in range), dates past
# 2262 (cftime objects in the standard calendar), the Julian/Gregorian switch of 1582, time zones.
def write_times(path):
    g = zarr.open_group(path, mode="w")

    def arr(name, data, units, calendar=None, fill_value=None, dtype=None):
        data = np.asarray(data, dtype=dtype)
        a = g.create(name, shape=data.shape, chunks=(max(1, (data.shape[0] + 1) // 2),), dtype=data.dtype,
                     fill_value=fill_value)
        a[...] = data
        attrs = {"_ARRAY_DIMENSIONS": [name + "_n"], "units": units}
        if calendar is not None:
            attrs["calendar"] = calendar
        a.attrs.update(attrs)

    arr("days_i4", [0, 1, 2, 365, 366, -1, 10957], "days since 1970-01-01", dtype="i4")
    arr("days_f8", [0.5, 1.25, -0.75, 1e-3, 1 / 3, 12345.678901234], "days since 2000-01-01 00:00:00", "standard")
    arr("hours_fill", [0, 6, -999, 18, 24], "hours since 1999-12-31 12:00", "gregorian", -999, "i4")
    arr("hours_nan", [0.0, np.nan, 3.5, 7.25], "hours since 2000-01-01T00:00:00", "proleptic_gregorian", "NaN")
    arr("minutes", [0, 1, 59, 60, 1441, -5], "minutes since 2001-02-03 04:05:06", dtype="i8")
    arr("seconds", [0.1, 0.2, 0.3, 1e9 + 0.25, -1.5], "seconds since 1970-01-01 00:00:00.5")
    arr("millis", [1, 999, 1001, -1], "milliseconds since 2020-02-29", dtype="i8")
    arr("micros", [1, 999, 1001, -1], "microseconds since 2020-02-29 23:59:59", dtype="i8")
    arr("nanos", [1, 999, 1001, -1], "nanoseconds since 2020-02-29 23:59:59", dtype="i8")
    arr("singular_unit", [1, 2], "day since 2000-01-01", dtype="i2")
    arr("abbrev_unit", [1.5, 2.25], "hrs since 2000-01-01")
    arr("unpadded_year", [0, 1, 2], "days since 2000-1-1", dtype="i4")
    arr("tz_offset", [0, 1, 2], "hours since 2000-01-01 00:00:00 +05:30", dtype="i4")
    arr("tz_z", [0, 1], "hours since 2000-01-01T00:00:00Z", dtype="i4")
    arr("year_one", [730120.0, 730120.5, 738000.25], "days since 0001-01-01", "standard")
    arr("year_one_unpadded", [730120.0, 738000.25], "days since 1-1-1 00:00:00", "standard")
    arr("year_one_proleptic", [730118.0, 738000.25], "days since 0001-01-01", "proleptic_gregorian")
    arr("far_future", [0, 200000, 300000], "days since 2000-01-01", "standard", dtype="i8")
    arr("far_past", [0, -200000, -150000.5], "days since 2000-01-01", "standard")
    arr("switch_1582", [0.0, 3.0, 4.0, 5.0, 10.0, 20.0], "days since 1582-10-01", "standard")
    arr("switch_proleptic", [0.0, 3.0, 4.0, 5.0, 10.0, 20.0], "days since 1582-10-01", "proleptic_gregorian")
    arr("noleap", [0, 31, 59, 364, 365, 424, -1], "days since 2000-01-01", "noleap", dtype="i4")
    arr("days_365", [0.5, 58.25, 59.0], "days since 1999-02-28", "365_day")
    arr("all_leap", [0, 59, 60, 365, 366], "days since 2001-01-01", "all_leap", dtype="i4")
    arr("days_366", [59.5, 60.5], "days since 2001-01-01", "366_day")
    arr("d360", [0, 29, 30, 359, 360, 720.5, -1], "days since 2000-01-01", "360_day")
    arr("d360_months", [0, 1, 13, 2.5], "months since 2000-01-01", "360_day")
    arr("julian", [0, 59, 60, 366, 5000.125, -400], "days since 1900-01-01", "julian")
    arr("julian_hours", [0.0, 1.5, 1e6], "hours since 1600-02-28 12:00:00", "julian")
    arr("noleap_seconds", [0.000001, 0.5, 86399.999999, 1e10 + 0.3], "seconds since 1850-01-01 00:00:00", "noleap")
    arr("noleap_common_years", [0, 1, 2.5], "common_years since 2000-01-01", "noleap")
    arr("upper_calendar", [0, 1], "days since 2000-01-01", "NoLeap", dtype="i4")
    arr("microsecond_rounding", [1 / 3, 2 / 3, 1e-7, 0.1 + 0.2], "seconds since 0001-01-01", "standard")
    arr("td_hours", [0, 1, 2, -3], "hours", dtype="i4")
    arr("td_days_f8", [0.5, 1 / 3, -1.25, 1e-9], "days")
    arr("td_seconds_fill", [1, 2, -1, 4], "seconds", None, -1, "i8")
    arr("td_nanoseconds", [1, 2, 3], "nanoseconds", dtype="i8")
    arr("td_minutes_nan", [1.5, np.nan], "minutes", None, "NaN")
    arr("not_a_time", [1, 2], "metres", dtype="i4")
    zarr.consolidate_metadata(path)


case("times", write_times)
case("times-raw", write_times, open_kwargs={"decode_times": False})

# A noleap daily/monthly climate model run, written by xarray from cftime dates.
nl_time = xr.cftime_range("2001-01-01", periods=14, freq="MS", calendar="noleap")
noleap = xr.Dataset(
    {"tas": (("time", "y"), rng.normal(270, 10, (14, 3)).astype("f4"), {"units": "K"})},
    coords={"time": nl_time, "y": [0, 1, 2]})
noleap.time.encoding = {"units": "days since 2001-01-01", "calendar": "noleap"}
case("noleap", to_zarr(noleap), [("isel", {"time": {"slice": [2, 5, None]}}, {})])

# Strings: a fixed-width unicode coordinate (UTF-32 on disk), vlen UTF-8, fixed-width bytes, bytes
# with _Encoding, character arrays (|S1 with a string dimension), a <U array with Zarr's "" fill
# value (xarray masks it), and booleans.
def write_strings(path):
    stations = np.array(["Zürich", "Genève", "Bern", "", "Ålesund", "東京"])
    ds = xr.Dataset(
        {
            "height": ("station", np.array([408.0, 375.0, 540.0, np.nan, 10.0, 40.0]), {"units": "m"}),
            "vlen": ("station", np.array(["a", "bb", "", "dddd", "ü", "東"], dtype=object)),
            "code": ("station", np.array([b"ZH", b"GE", b"BE", b"", b"AL", b"TK"])),
            "active": ("station", np.array([True, False, True, True, False, True])),
            "chars": (("station", "strlen"), np.array([list("ab  "), list("cd  "), list("e   "), list("    "),
                                                       list("fgh "), list("ijkl")], dtype="S1")),
        },
        coords={"station": stations})
    ds.to_zarr(path, mode="w", consolidated=False)
    g = zarr.open_group(path, mode="a")
    enc = g.create("encoded", shape=(6,), dtype="S8", fill_value=None)
    enc[:] = [s.encode("utf-8") for s in ["Zürich", "a", "", "東", "b", "c"]]
    enc.attrs.update({"_ARRAY_DIMENSIONS": ["station"], "_Encoding": "utf-8"})
    u = g.create("u_fill", shape=(6,), dtype="<U3", fill_value="")
    u[:] = ["", "x", "yz", "", "ü", "abc"]
    u.attrs["_ARRAY_DIMENSIONS"] = ["station"]
    b = g.create("zarr_bool", shape=(6,), dtype=bool, fill_value=False)
    b[:] = [True, False, True, False, True, True]
    b.attrs["_ARRAY_DIMENSIONS"] = ["station"]
    zarr.consolidate_metadata(path)


case("strings", write_strings, [("sel", {"station": "Bern"}, {}), ("isel", {"station": [0, 2]}, {})])

# A curvilinear grid: 2-D lat/lon coordinates named by the data variable's coordinates attribute, a
# global coordinates attribute, a scalar coordinate, and grid_mapping (kept as an attribute).
def write_curvilinear(path):
    y, x = np.mgrid[0:5, 0:7]
    lat2 = 40 + y * 0.5 + x * 0.1
    lon2 = -10 + x * 0.7 - y * 0.05
    ds = xr.Dataset(
        {
            "sst": (("time", "y", "x"), (rng.normal(15, 2, (3, 5, 7))).astype("f8"), {"grid_mapping": "crs", "units": "degC"}),
            "crs": ((), np.int32(0), {"grid_mapping_name": "rotated_latitude_longitude"}),
            "depth": ((), 5.0, {"units": "m"}),
            "mask2d": (("y", "x"), (x + y) % 3 == 0),
        },
        coords={"time": pd.date_range("2020-01-01", periods=3), "lat": (("y", "x"), lat2, {"units": "degrees_north"}),
                "lon": (("y", "x"), lon2, {"units": "degrees_east"}), "y": np.arange(5), "x": np.arange(7)})
    ds = ds.set_coords(["depth"])
    for v in ds.variables.values():
        if v.ndim == 3:
            v.encoding["chunks"] = (1, 3, 4)
    # xarray orders the names it writes by a set (by string hashes): given here, they stay put.
    ds.sst.encoding["coordinates"] = "lat lon depth"
    ds.mask2d.encoding["coordinates"] = "lat lon depth"
    ds.to_zarr(path, mode="w")


case("curvilinear", write_curvilinear, [("isel", {"y": 1, "x": {"slice": [2, 6, 2]}}, {}),
                                        ("sel", {"time": "2020-01-02"}, {})])

# Label selection on every kind of index: decreasing latitudes, float32 longitudes, hourly times
# (partial date strings select periods), int64 levels, strings, and a noleap time axis.
sel_time = pd.date_range("2000-01-01", periods=48, freq="H")
selection = xr.Dataset(
    {"v": (("time", "lat", "lon"), rng.normal(0, 1, (48, 19, 36)).astype("f4")),
     "w": (("level", "station"), np.arange(12.0).reshape(4, 3))},
    coords={"time": sel_time, "lat": np.arange(90.0, -91.0, -10.0), "lon": np.arange(0, 360, 10, dtype="f4"),
            "level": np.array([1000, 850, 500, 250], "i8"), "station": ["a", "b", "c"]})
for v in selection.variables.values():
    v.encoding["chunks"] = tuple(min(n, 7) for n in v.shape)
case("selection", to_zarr(selection), [
    ("sel", {"lat": 45.0}, {"method": "nearest"}),
    ("sel", {"lat": {"slice": [50.0, 20.0, None]}}, {}),
    ("sel", {"lat": [80.0, -80.0]}, {}),
    ("sel", {"lon": 95.0}, {"method": "nearest"}),
    ("sel", {"lon": 101.0, "lat": -33.0}, {"method": "nearest"}),
    ("sel", {"lon": {"slice": [100.0, 200.0, None]}}, {}),
    ("sel", {"time": "2000-01-02"}, {}),
    ("sel", {"time": "2000-01-02T05"}, {}),
    ("sel", {"time": "2000-01-02T05:31"}, {"method": "nearest"}),
    ("sel", {"time": {"slice": ["2000-01-01T20", "2000-01-02T03", None]}}, {}),
    ("sel", {"time": {"slice": ["2000-01-01", "2000-01-01", 5]}}, {}),
    ("sel", {"time": ["2000-01-01T01:00", "2000-01-02T01:00"]}, {}),
    ("sel", {"level": 500}, {}),
    ("sel", {"level": {"slice": [900, 400, None]}}, {}),
    ("sel", {"level": 600}, {"method": "nearest"}),
    ("sel", {"station": "b"}, {}),
    ("sel", {"station": {"slice": ["b", None, None]}}, {}),
    ("isel", {"time": {"slice": [-5, None, 2]}, "lat": [0, -1], "lon": -1}, {}),
    ("isel", {"lat": {"slice": [None, None, -4]}, "station": {"slice": [1, 1, None]}}, {}),
])
cft = xr.Dataset({"x": ("time", np.arange(14.0))}, coords={"time": nl_time})
case("selection-cftime", to_zarr(cft), [
    ("sel", {"time": "2001-03"}, {}),
    ("sel", {"time": "2001-03-01"}, {}),
    ("sel", {"time": {"slice": ["2001-02", "2001-05", None]}}, {}),
    ("sel", {"time": "2001"}, {}),
])

# A dataset-level coordinates attribute names a coordinate no variable points at.
def write_global_coords(path):
    ds = xr.Dataset({"a": ("n", np.arange(4.0)), "note": ((), 1.0)}).set_coords("note")
    ds.to_zarr(path, mode="w")


case("global-coordinates", write_global_coords)

# Decoding switched off step by step, as xarray's open_zarr arguments do.
def copy_of(source):
    return lambda path: shutil.copytree(os.path.join(OUT, source + ".zarr"), path)


case("scale-offset-raw", copy_of("scale-offset"), open_kwargs={"mask_and_scale": False})
case("strings-raw", copy_of("strings"), open_kwargs={"concat_characters": False, "mask_and_scale": False})
case("curvilinear-no-coords", copy_of("curvilinear"), open_kwargs={"decode_coords": False})
case("times-no-timedelta", copy_of("times"), open_kwargs={"decode_timedelta": False})


# Counts decoded straight through xarray's decode_cf_datetime / decode_cf_timedelta (what
# open_zarr calls on each chunk): random floats and integers in every calendar and unit, near
# microsecond boundaries, across 1582 and year 0, with use_cftime unset and True.
def decoded_json(result):
    if result.dtype.kind in "mM":
        return {"dtype": str(result.dtype), "base64": base64.b64encode(result.astype("i8").tobytes()).decode()}
    return {"dtype": "object", "objects": [element(v) for v in result.ravel().tolist()]}


def random_times():
    r = np.random.RandomState(1582)
    specs = [
        ("days since 2000-01-01", "standard", -5e4, 5e4), ("days since 1970-01-01 00:00:00", "gregorian", -3e4, 3e4),
        ("hours since 1900-01-01T06:00:00", "proleptic_gregorian", -1e6, 1e6),
        ("seconds since 1970-01-01", "standard", -3e9, 3e9), ("minutes since 2000-02-29 12:34:56", "standard", -1e8, 1e8),
        ("milliseconds since 1990-01-01", "standard", -1e12, 1e12), ("microseconds since 2010-06-01", "standard", -1e15, 1e15),
        ("days since 0001-01-01", "standard", -8e5, 8e5), ("days since 0001-01-01", "standard", 62e4, 80e4),
        ("hours since 1-1-1", "proleptic_gregorian", 1.5e7, 1.9e7), ("days since 2000-01-01", "standard", 8e4, 9e4),
        ("days since 1582-10-15", "standard", -400, 400), ("days since 1582-10-04", "standard", -400, 400),
        ("days since 1000-01-01", "proleptic_gregorian", -5e5, 5e5), ("days since -0100-03-01", "proleptic_gregorian", -1e5, 1e5),
        ("days since 0001-01-01", "julian", -1e6, 1e6), ("hours since 1850-01-01", "julian", -2e6, 2e6),
        ("days since 1850-01-01", "noleap", -2e5, 2e5), ("hours since 0001-01-01", "365_day", -1e7, 1e7),
        ("days since 2000-02-29", "all_leap", -1e5, 1e5), ("seconds since 1950-01-01", "366_day", -1e10, 1e10),
        ("days since 1850-01-01", "360_day", -2e5, 2e5), ("months since 1850-01-01", "360_day", -5e3, 5e3),
        ("common_years since 1850-01-01", "noleap", -500, 500),
        ("minutes since 1850-01-01 00:00:00 +01:00", "noleap", -1e8, 1e8),
        ("days since 1-1-1", "standard", -8e5, 8e5), ("days since 1900-01-01 00:00:00.5", "standard", -1e5, 1e5),
        ("hours since 2000-01-01 00:00:00 -05:30", "standard", -1e5, 1e5),
    ]
    out = []
    for units, calendar, low, high in specs:
        floats = r.uniform(low, high, 30)
        # Counts a hair off whole microseconds, seconds and days, where rounding decides.
        edges = low + np.array([0.5, 1.5, 1e-7, 1 - 1e-12, 1 / 3, 2 / 3, 86399.9999995 / 86400, 0.1 + 0.2])
        ints = r.randint(int(low), int(high), 10).astype("i8")
        for values in [np.concatenate([floats, edges]), ints]:
            for use_cftime in [None, True]:
                entry = {"units": units, "calendar": calendar, "use_cftime": use_cftime,
                         "dtype": str(values.dtype), "values": values.tolist()}
                try:
                    entry["result"] = decoded_json(xr.coding.times.decode_cf_datetime(values, units, calendar, use_cftime))
                except Exception as e:  # noqa: BLE001 (recorded: the TypeScript must fail too)
                    entry["error"] = type(e).__name__
                out.append(entry)
    for units in ["days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"]:
        for values in [r.uniform(-1e4, 1e4, 30), r.randint(-10**5, 10**5, 10).astype("i8"),
                       np.array([1 / 3, 2 / 3, 0.5, -0.5, 1e-10, 0.1 + 0.2, 123456.7890123]),
                       np.array([2**62, 1], "i8")]:
            entry = {"units": units, "dtype": str(values.dtype), "values": values.tolist()}
            try:
                entry["result"] = decoded_json(xr.coding.times.decode_cf_timedelta(values, units))
            except Exception as e:  # noqa: BLE001
                entry["error"] = type(e).__name__
            out.append(entry)
    with open(os.path.join(OUT, "times-random.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


random_times()

with open(os.path.join(OUT, "cases.json"), "w") as f:
    json.dump({"cases": CASES, "xarray": xr.__version__, "zarr": zarr.__version__, "numpy": np.__version__,
               "pandas": pd.__version__, "cftime": cftime.__version__}, f, indent=1)
    f.write("\n")
print(f"{len(CASES)} cases written to {OUT}")
