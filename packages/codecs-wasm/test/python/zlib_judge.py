"""Says what CPython's zlib and numcodecs 0.11 make of zlib and gzip streams, for ../inflate-corrupt-live.test.ts.

Reads JSON from stdin: [{"format": "zlib"|"gzip", "encoded": "<base64>"}, ...]; writes
[{"size", "sha256"} or {"error": "<message>"}, ...] to stdout: `zlib.decompress` for zlib (what
numcodecs' Zlib calls), numcodecs' GZip (CPython's GzipFile) for gzip. Run with /usr/bin/python3.
"""
import base64
import hashlib
import json
import sys
import zlib

from numcodecs import GZip

gzip_codec = GZip()
results = []
for case in json.load(sys.stdin):
    raw = base64.b64decode(case["encoded"])
    try:
        decoded = bytes(zlib.decompress(raw) if case["format"] == "zlib" else gzip_codec.decode(raw))
        results.append({"size": len(decoded), "sha256": hashlib.sha256(decoded).hexdigest()})
    except Exception as error:  # noqa: BLE001 - reported back to the test
        results.append({"error": f"{type(error).__name__}: {error}"})
json.dump(results, sys.stdout)
