"""Writes the bench data with zarr-python, once per bench run, so every implementation reads the same bytes.

usage: generate.py OUT_DIR N WINDOWS R7_N SEED

OUT_DIR/manifest.json says what was written and the expected checksum of every case: the SHA-256 of
the array's elements as little-endian bytes in C order (for R6, of every window's elements, the
windows in order, concatenated).
"""
import hashlib
import json
import os
import sys
import time

import numcodecs
import numpy as np
import zarr
from numcodecs import Blosc, Zlib, Zstd

CHUNK = 1024
WINDOW = 100
R7_CHUNK = 64


def sha256(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()


def smooth_field(n, rng):
    """A smooth field (a few waves) plus small noise, as float32 (scientific-data-like: compresses, not trivially)."""
    y = np.linspace(0.0, 8.0 * np.pi, n, dtype=np.float64)[:, None]
    x = np.linspace(0.0, 6.0 * np.pi, n, dtype=np.float64)[None, :]
    field = np.sin(y) * np.cos(x) + 0.5 * np.sin(0.37 * x + 0.21 * y)
    field = field.astype(np.float32)
    field += rng.normal(0.0, 0.01, size=(n, n)).astype(np.float32)
    return field


def write(path, data, chunks, compressor):
    z = zarr.open_array(zarr.DirectoryStore(path), mode="w", shape=data.shape, chunks=chunks,
                        dtype=data.dtype, compressor=compressor, fill_value=0)
    z[...] = data
    files = [f for f in os.listdir(path) if not f.startswith(".")]
    return {"chunks": len(files), "storedBytes": sum(os.path.getsize(os.path.join(path, f)) for f in files)}


def main():
    out, n, nwin, r7n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    os.makedirs(out, exist_ok=True)
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    data = smooth_field(n, rng)
    assert data.dtype == np.dtype("<f4") and data.flags.c_contiguous
    data.tofile(os.path.join(out, "r1.f32"))  # raw C-order little-endian: what the write cases write

    arrays = {
        "r1.zarr": Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE),
        "r2.zarr": Blosc(cname="zstd", clevel=3, shuffle=Blosc.BITSHUFFLE),
        "r3.zarr": Zlib(level=1),
        "r4.zarr": Zstd(level=3),
        "r5.zarr": None,
    }
    stored = {}
    for name, compressor in arrays.items():
        stored[name] = write(os.path.join(out, name), data, (CHUNK, CHUNK), compressor)
        stored[name]["compressor"] = None if compressor is None else compressor.get_config()

    windows = rng.integers(0, n - WINDOW + 1, size=(nwin, 2)).tolist()
    h = hashlib.sha256()
    for r, c in windows:
        h.update(np.ascontiguousarray(data[r:r + WINDOW, c:c + WINDOW]).tobytes())
    with open(os.path.join(out, "windows.json"), "w") as f:
        json.dump({"size": WINDOW, "windows": windows}, f)

    ints = (smooth_field(r7n, rng) * 12000.0).astype("<i2")
    stored["r7.zarr"] = write(os.path.join(out, "r7.zarr"), ints, (R7_CHUNK, R7_CHUNK),
                              Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE))
    stored["r7.zarr"]["compressor"] = Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE).get_config()

    full = sha256(data)
    manifest = {
        "n": n, "chunk": CHUNK, "windows": nwin, "windowSize": WINDOW, "r7n": r7n, "r7Chunk": R7_CHUNK,
        "seed": seed,
        "versions": {"python": sys.version.split()[0], "zarr": zarr.__version__,
                     "numcodecs": numcodecs.__version__, "numpy": np.__version__},
        "expected": {"R1": full, "R2": full, "R3": full, "R4": full, "R5": full, "R6": h.hexdigest(),
                     "R7": sha256(ints), "W1": full, "W2": full, "H1": full},
        "stored": stored,
        "generateSeconds": round(time.perf_counter() - t0, 2),
    }
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
