"""Decodes bytes our codecs encoded with numcodecs 0.11 and reports what it got.

Reads JSON from stdin: {"cases": [{"config": {...}, "encoded": "<base64>"}, ...]} and writes
{"numcodecs": version, "blosc": version, "results": [{"sha256": "<hex of the decoded bytes>"} or
{"error": "<message>"}, ...]} to stdout. Used by ../numcodecs-live.test.ts (and to record
../fixtures/ours-decoded-by-numcodecs.json). Run with /usr/bin/python3 (numcodecs 0.11).
"""
import base64
import hashlib
import json
import sys

import numcodecs
from numcodecs import blosc

blosc.use_threads = False

request = json.load(sys.stdin)
results = []
for case in request["cases"]:
    try:
        codec = numcodecs.get_codec(dict(case["config"]))
        decoded = codec.decode(base64.b64decode(case["encoded"]))
        results.append({"sha256": hashlib.sha256(bytes(decoded)).hexdigest(), "size": len(bytes(decoded))})
    except Exception as error:  # noqa: BLE001 - reported back to the test
        results.append({"error": f"{type(error).__name__}: {error}"})
json.dump({"numcodecs": numcodecs.__version__, "blosc": blosc.VERSION_STRING, "results": results}, sys.stdout)
