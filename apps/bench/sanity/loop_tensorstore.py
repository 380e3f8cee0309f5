"""A plain TensorStore loop, as a user writes it, outside the bench's runner: the runner must not be
slower (sanity/compare.mjs runs both on the same data). Each read is
`ts.open(spec).result().read().result()` with its default context, the previous result dropped first.

usage: loop_tensorstore.py ARRAY_DIR N [zarr2|zarr3]
Prints one JSON line: every read's wall, user and system seconds.
"""
import json
import resource
import sys
import time

import tensorstore as ts

path, n = sys.argv[1], int(sys.argv[2])
driver = sys.argv[3] if len(sys.argv) > 3 else "zarr2"
spec = {"driver": driver, "kvstore": {"driver": "file", "path": path.rstrip("/") + "/"}}
wall, user, system = [], [], []
a = None
for _ in range(n):
    a = None
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    a = ts.open(spec).result().read().result()
    wall.append(time.perf_counter() - t0)
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    user.append(r1.ru_utime - r0.ru_utime)
    system.append(r1.ru_stime - r0.ru_stime)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"wall": wall, "user": user, "system": system, "peakRssBytes": peak}))
