"""What xarray reads from a Zarr store, as JSON: shared by xarray_fixtures.py (the committed
expectations) and xarray_read.py (the live check of what @z/xarray's toZarr wrote).

Values are exact: numbers, times and booleans as base64 of their bytes, strings as strings, bytes as
Latin-1 text, cftime dates as their fields and calendar, NaN in object arrays as null.
"""
import base64
import math

import cftime
import numpy as np

ENCODING_KEYS = ["dtype", "_FillValue", "missing_value", "scale_factor", "add_offset", "units", "calendar",
                 "coordinates", "_Unsigned", "_Encoding", "char_dim_name", "chunks"]


def jsonable(value):
    """A JSON value for an attribute or encoding entry (NaN and infinities as strings)."""
    if isinstance(value, np.dtype):
        return value.str if value.kind in "SUV" or value.byteorder == ">" else value.name
    if isinstance(value, np.ndarray):
        return [jsonable(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bytes):
        return {"bytes": value.decode("latin-1")}
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value


def element(value):
    if value is None:
        return None
    if isinstance(value, cftime.datetime):
        return {"cftime": [value.year, value.month, value.day, value.hour, value.minute, value.second,
                           value.microsecond], "calendar": value.calendar}
    if isinstance(value, (bytes, np.bytes_)):
        return {"bytes": bytes(value).decode("latin-1")}
    if isinstance(value, (float, np.floating)) and math.isnan(value):
        return None
    if isinstance(value, np.generic):
        return value.item()
    return value


def values_json(values):
    if values.dtype.kind in "biufcmM":
        native = values.astype(values.dtype.newbyteorder("="))
        return {"base64": base64.b64encode(np.ascontiguousarray(native).tobytes()).decode()}
    if values.dtype.kind == "U":
        return {"strings": values.ravel().tolist()}
    if values.dtype.kind == "S":
        return {"bytes": [v.decode("latin-1") for v in values.ravel().tolist()]}
    return {"objects": [element(v) for v in values.ravel().tolist()]}


def variable_json(var):
    values = var.values
    return {
        "dims": list(var.dims),
        "shape": list(var.shape),
        "dtype": jsonable(values.dtype),
        "var_dtype": jsonable(var.dtype),
        "attrs": jsonable(dict(var.attrs)),
        "encoding": {k: jsonable(var.encoding[k]) for k in ENCODING_KEYS if k in var.encoding},
        "values": values_json(values),
    }


def dataset_json(ds):
    return {
        "variables": {str(k): variable_json(v) for k, v in ds.variables.items()},
        "variable_order": [str(k) for k in ds.variables],
        "dim_order": [str(k) for k in ds.dims],
        "coords": [str(k) for k in ds.coords],
        "data_vars": [str(k) for k in ds.data_vars],
        "dims": {str(k): int(v) for k, v in ds.dims.items()},
        "attrs": jsonable(dict(ds.attrs)),
    }


def selection_json(ds, selections):
    """Each selection as [method, arguments, options]; slices as {"slice": [start, stop, step]}."""
    results = []
    for method, args, options in selections:
        kwargs = {k: slice(*v["slice"]) if isinstance(v, dict) else v for k, v in args.items()}
        result = getattr(ds, method)(kwargs, **options)
        results.append({"method": method, "args": args, "options": options, "result": dataset_json(result)})
    return results
