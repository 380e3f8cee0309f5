"""Reference sets made as kerchunk makes them, and what fsspec + zarr-python read through them.

    python make_refs.py OUT_DIR

writes into OUT_DIR:
- data.nc (netCDF4: time, lat, lon; `temp` int16 with scale_factor/add_offset/_FillValue and a
  `coordinates` attribute naming `area` (lat, lon, contiguous), `precip` float32 with a NaN fill and
  chunks never written; zlib + shuffle) and data.h5 (h5py: a group with
  a chunked int32 dataset with holes, a contiguous float64 one, a tiny one kept inline);
- the references to them, made the way kerchunk's HDF5 scanner (kerchunk/hdf.py, not installable
  here) makes them: h5py's chunk index (`dataset.id.get_chunk_info`), .zarray with compressor None and
  filters [shuffle, zlib], `_ARRAY_DIMENSIONS` from the dimension scales, attributes as
  `_transfer_attrs` copies them, chunks under 500 bytes inlined. Target paths are relative
  ("data.nc"): fsspec resolves them against its working directory (this script runs there), z
  against the reference file's own location. Written as
  - refs-v0.json: version 0, `{key: value}`;
  - refs-v1.json: version 1, the file names as templates (`{{nc}}`, `{{h5}}`) and the contiguous
    dataset's rows as a `gen` entry with arithmetic offsets;
  - refs.parq/: Parquet, by fsspec's own LazyReferenceMapper (record_size 3, so several record files,
    and none for records whose chunks were never written);
  - refs-gzip.parq/: the same, its record files rewritten by fastparquet with gzip compression;
- expected.json: every array and group read by fsspec's ReferenceFileSystem + zarr-python 2.13
  through each form (all three must agree): metadata, attributes, and the values' bytes in base64.
"""

import base64
import json
import os
import sys
import types

import h5py
import netCDF4
import numcodecs
import numpy as np
import zarr

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
os.chdir(out)

# --- the files -----------------------------------------------------------------------------------

nc = netCDF4.Dataset("data.nc", "w", format="NETCDF4")
nc.title = "reference test"
nc.history = "made by make_refs.py"
nc.createDimension("time", 10)
nc.createDimension("lat", 30)
nc.createDimension("lon", 40)
time = nc.createVariable("time", "f8", ("time",))
time.units = "days since 2000-01-01 00:00:00"
time.calendar = "standard"
time[:] = np.arange(10) * 0.5
lat = nc.createVariable("lat", "f4", ("lat",))
lat.units = "degrees_north"
lat[:] = np.linspace(-58, 58, 30)
lon = nc.createVariable("lon", "f4", ("lon",))
lon[:] = np.linspace(0, 351, 40)
temp = nc.createVariable(
    "temp", "i2", ("time", "lat", "lon"), zlib=True, shuffle=True, complevel=4, chunksizes=(3, 10, 20), fill_value=-999
)
temp.scale_factor = 0.01
temp.add_offset = 273.15
temp.units = "K"
temp.coordinates = "area"  # an auxiliary coordinate, as CF names them
temp.set_auto_maskandscale(False)
values = np.random.default_rng(0).integers(-1500, 1500, (10, 30, 40)).astype("i2")
values[2, 1, 3] = -999
temp[:] = values
precip = nc.createVariable(
    "precip", "f4", ("time", "lat", "lon"), zlib=True, shuffle=True, chunksizes=(2, 30, 40), fill_value=np.float32("nan")
)
precip.long_name = "precipitation"
precip[4:8] = np.random.default_rng(1).random((4, 30, 40)).astype("f4")  # chunks 0, 1 and 4 never written
area = nc.createVariable("area", "f4", ("lat", "lon"))  # contiguous (no chunks given, no filters)
area.units = "km2"
area[:] = np.outer(np.cos(np.radians(lat[:])), np.full(40, 12.5)).astype("f4")
nc.close()

with h5py.File("data.h5", "w") as f:
    f.attrs["source"] = "h5py"
    f.attrs["version"] = np.int64(3)
    grp = f.create_group("grp")
    grp.attrs["purpose"] = "holes and layouts"
    a = grp.create_dataset("a", (20, 30), dtype="<i4", chunks=(7, 10), compression="gzip", shuffle=True, fillvalue=-1)
    a[0:7, :] = np.random.default_rng(2).integers(0, 1 << 30, (7, 30))
    a[14:20, 10:20] = 5  # the middle row of chunks and two chunks of the last row never written
    a.attrs["scale"] = [1.5, 2.5]
    c = grp.create_dataset("c", data=np.arange(10 * 50, dtype="<f8").reshape(10, 50) / 7)  # contiguous
    grp.create_dataset("tiny", data=np.array([1, 2, 3], dtype="u1"), chunks=(3,))

# --- references, as kerchunk's HDF5 scanner makes them -------------------------------------------

HIDDEN_ATTRS = {"REFERENCE_LIST", "CLASS", "DIMENSION_LIST", "NAME", "_Netcdf4Dimid", "_Netcdf4Coordinates",
                "_nc3_strict", "_NCProperties"}
INLINE = 500


def transfer_attrs(h5obj):
    """kerchunk's `_transfer_attrs`."""
    upd = {}
    for n, v in h5obj.attrs.items():
        if n in HIDDEN_ATTRS:
            continue
        if isinstance(v, bytes):
            v = v.decode("utf-8", errors="replace") or " "
        elif isinstance(v, (np.ndarray, np.number, np.bool_)):
            if v.dtype.kind == "S":
                v = v.astype(str)
            if n == "_FillValue":
                continue
            elif v.size == 1:
                v = v.flatten()[0]
                if isinstance(v, (np.ndarray, np.number, np.bool_)):
                    v = v.tolist()
            else:
                v = v.tolist()
        if v == "DIMENSION_SCALE":
            continue
        if isinstance(v, (str, int, float)):
            upd[n] = v
        elif isinstance(v, (tuple, set, list)) and all(isinstance(_, (str, int, float)) for _ in v):
            upd[n] = list(v)
        else:
            upd[n] = str(v)
    return upd


def array_dims(dset):
    """kerchunk's `_get_array_dims`."""
    dims = []
    for n in range(len(dset.shape)):
        num_scales = len(dset.dims[n])
        if num_scales == 1:
            dims.append(dset.dims[n][0].name[1:])
        elif h5py.h5ds.is_scale(dset.id):
            dims.append(dset.name[1:])
        else:
            dims.append(f"phony_dim_{n}")
    return dims


def chunk_info(dset):
    """kerchunk's `_storage_info_and_adj_filters`, for the layouts made above: {chunk index: (offset, size)}."""
    dsid = dset.id
    if dset.chunks is None:
        return {(0,) * len(dset.shape): (dsid.get_offset(), dsid.get_storage_size())}
    info = {}
    for i in range(dsid.get_num_chunks()):
        blob = dsid.get_chunk_info(i)
        assert blob.filter_mask == 0
        info[tuple(o // c for o, c in zip(blob.chunk_offset, dset.chunks))] = (blob.byte_offset, blob.size)
    return info


def scan(filename, template):
    """{key: value} as kerchunk's SingleHdf5ToZarr(...).translate() gives them (before JSON encoding)."""
    store = {}
    root = zarr.group(store=store)
    with h5py.File(filename, "r") as f:
        root.attrs.update(transfer_attrs(f))
        raw = {}

        def visit(name, obj):
            if isinstance(obj, h5py.Group):
                root.require_group(name).attrs.update(transfer_attrs(obj))
                return
            filters = []
            if obj.shuffle:
                filters.append(numcodecs.Shuffle(elementsize=obj.dtype.itemsize))
            if obj.compression == "gzip":
                filters.append(numcodecs.Zlib(level=obj.compression_opts))
            netcdf = any("_Netcdf4" in k for k in obj.attrs)
            units = obj.attrs.get("units")
            units = units.decode() if isinstance(units, bytes) else units
            fill = None if netcdf or (units and "since" in units) else obj.fillvalue
            if obj.attrs.get("_FillValue") is not None:
                fill = obj.attrs["_FillValue"].item()
                fill = "NaN" if isinstance(fill, float) and np.isnan(fill) else fill
            za = root.create_dataset(name, shape=obj.shape, dtype=obj.dtype, chunks=obj.chunks or obj.shape,
                                     compressor=None, filters=filters or None, fill_value=fill, overwrite=True)
            za.attrs.update({"_ARRAY_DIMENSIONS": array_dims(obj), **transfer_attrs(obj)})
            with open(filename, "rb") as file:
                for index, (offset, size) in chunk_info(obj).items():
                    key = name + "/" + ".".join(map(str, index))
                    if size < INLINE:
                        file.seek(offset)
                        raw[key] = file.read(size)
                    else:
                        raw[key] = [template, offset, size]

        f.visititems(visit)
    refs = {k: v.decode() for k, v in store.items()}  # the JSON documents, as text
    refs.update(raw)
    return refs


def for_json(value):
    """kerchunk's `_encode_for_JSON`: bytes as text when ASCII, else `base64:`."""
    if isinstance(value, bytes):
        try:
            return value.decode("ascii")
        except UnicodeDecodeError:
            return "base64:" + base64.b64encode(value).decode()
    return value


nc_refs = scan("data.nc", "data.nc")
h5_refs = {k: v for k, v in scan("data.h5", "data.h5").items()}
# One hierarchy: the NetCDF at the root, the HDF5 file's group beside it (its root attributes dropped).
refs = {**nc_refs, **{k: v for k, v in h5_refs.items() if k.startswith("grp/")}}

with open("refs-v0.json", "w") as f:
    json.dump({k: for_json(v) for k, v in refs.items()}, f, indent=1)

# Version 1: templates for the file names, and the contiguous dataset's rows as a `gen` entry
# (each row one chunk: a .zarray of its own with chunks (1, 50), uncompressed).
c_offset, _ = refs["grp/c/0.0"][1:]
v1_refs = {}
for k, v in refs.items():
    if k.startswith("grp/c/") and not k.endswith((".zarray", ".zattrs")):
        continue
    if isinstance(v, list):
        v = ["{{nc}}" if v[0] == "data.nc" else "{{h5}}", *v[1:]]
    v1_refs[k] = for_json(v)
c_zarray = json.loads(refs["grp/c/.zarray"])
c_zarray["chunks"] = [1, 50]
v1_refs["grp/c/.zarray"] = json.dumps(c_zarray)
v1 = {
    "version": 1,
    "templates": {"nc": "data.nc", "h5": "data.h5"},
    "gen": [
        {
            "key": "grp/c/{{i}}.0",
            "url": "{{h5}}",
            "offset": "{{ %d + i * 400 }}" % c_offset,
            "length": "400",
            "dimensions": {"i": {"stop": 10}},
        }
    ],
    "refs": v1_refs,
}
with open("refs-v1.json", "w") as f:
    json.dump(v1, f, indent=1)

# --- Parquet, with fsspec's own LazyReferenceMapper ----------------------------------------------
# Its writer imports kerchunk.df for one helper (`_proc_raw`: inline values to bytes); kerchunk is
# not installable here, so a module of that name with kerchunk's helper stands in.
kerchunk = types.ModuleType("kerchunk")
kerchunk_df = types.ModuleType("kerchunk.df")


def _proc_raw(r):  # kerchunk/df.py
    if hasattr(r, "to_bytes"):
        r = r.to_bytes()
    elif not isinstance(r, bytes):
        r = r.encode()
    if r.startswith(b"base64:"):
        return base64.b64decode(r[7:])
    return r


kerchunk_df._proc_raw = _proc_raw
kerchunk.df = kerchunk_df
sys.modules["kerchunk"] = kerchunk
sys.modules["kerchunk.df"] = kerchunk_df

from fsspec.implementations.reference import LazyReferenceMapper, ReferenceFileSystem  # noqa: E402

lazy = LazyReferenceMapper.create("refs.parq", record_size=3)
for k in sorted(refs, key=lambda k: (not k.rsplit("/", 1)[-1].startswith(".z"), k)):  # metadata first
    lazy[k] = refs[k]
lazy.flush()

# The same record files compressed with gzip (fastparquet's `compression="GZIP"`, the other options
# as LazyReferenceMapper.write passes them): what a reference set written with other settings than
# fsspec's default zstd holds.
import shutil  # noqa: E402

import pandas as pd  # noqa: E402

shutil.copytree("refs.parq", "refs-gzip.parq")
for folder, _, names in os.walk("refs-gzip.parq"):
    for name in names:
        if name.endswith(".parq"):
            record = os.path.join(folder, name)
            frame = pd.read_parquet(record, engine="fastparquet")
            frame.to_parquet(record, engine="fastparquet", compression="GZIP", index=False, stats=False,
                             object_encoding={"raw": "bytes", "path": "utf8"}, has_nulls=["path", "raw"])

# --- what fsspec + zarr-python read --------------------------------------------------------------


def dump(opened):
    group = zarr.open_group(opened.get_mapper(""), mode="r")
    nodes = {}

    def visit(path, node):
        entry = {"attrs": dict(node.attrs)}
        if isinstance(node, zarr.Array):
            data = node[...]
            entry.update(shape=list(node.shape), chunks=list(node.chunks), dtype=node.dtype.str,
                         fill_value=None if node.fill_value is None else str(node.fill_value),
                         data=base64.b64encode(np.ascontiguousarray(data).tobytes()).decode())
        nodes[path] = entry

    nodes[""] = {"attrs": dict(group.attrs)}
    group.visititems(visit)
    return nodes


forms = {
    "v0": ReferenceFileSystem("refs-v0.json"),
    "v1": ReferenceFileSystem("refs-v1.json", simple_templates=False),  # `gen` needs Jinja: fsspec skips it otherwise
    # remote_protocol given: otherwise fsspec looks for it by reading every record, and fails on
    # the record files its own writer leaves out (records whose chunks were never written).
    "parquet": ReferenceFileSystem("refs.parq", remote_protocol="file"),
    "parquet-gzip": ReferenceFileSystem("refs-gzip.parq", remote_protocol="file"),
}
dumps = {name: dump(fs) for name, fs in forms.items()}
for name, nodes in dumps.items():
    for path, entry in nodes.items():
        # the v1 set reads the contiguous dataset by rows (its own chunks), the same values
        other = {**entry, "chunks": None} if path == "grp/c" else entry
        first = {**dumps["v0"][path], "chunks": None} if path == "grp/c" else dumps["v0"][path]
        assert other == first, f"fsspec reads {path} of {name} differently from v0"
# Every key's bytes as fsspec reads them (a key it has no reference for: null).
def cat(fs, key):
    try:
        return base64.b64encode(fs.cat(key)).decode()
    except (FileNotFoundError, KeyError):
        return None


keys = sorted({*refs, *v1_refs, *(f"grp/c/{i}.0" for i in range(10)), "precip/0.0.0", "grp/a/1.1", "nothing/0"})
values = {name: {k: cat(fs, k) for k in keys} for name, fs in forms.items()}
with open("expected.json", "w") as f:
    json.dump({"forms": dumps, "keys": sorted(refs), "bytes": values}, f, indent=1)
print(json.dumps({"arrays": sorted(k for k, v in dumps["v0"].items() if "data" in v)}))
