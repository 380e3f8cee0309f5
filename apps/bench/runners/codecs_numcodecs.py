"""The codec rows with numcodecs (C): encode and decode one chunk of the bench data with each codec.

usage: codecs_numcodecs.py --data DIR --codecs JSON [--check DIR]

JSON is src/codec-rows.mjs's CODEC_ROWS. Blosc runs on one thread (numcodecs.blosc.set_nthreads(1)),
as z's codecs do, so the rows compare codec against codec. With --check DIR, numcodecs also decodes
z's encodings of each codec (written there by runners/codecs.mjs) and says whether they give the
chunk back. Prints one JSON line.
"""
import json
import os
import re
import sys
import time
import traceback

import numcodecs
import numpy as np
from numcodecs import get_codec

CHUNK = 1024
REPS_MIN, REPS_SECONDS = 3, 0.4  # as CODEC_REPS in src/codec-rows.mjs


def measure(fn):
    times = []
    cpu = time.process_time()
    start = time.perf_counter()
    while len(times) < REPS_MIN or time.perf_counter() - start < REPS_SECONDS:
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    cpu = (time.process_time() - cpu) / len(times)
    times.sort()
    return times[len(times) // 2], cpu, len(times)


def main():
    args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
    data_dir = args["--data"]
    rows_in = json.loads(args["--codecs"])
    check = args.get("--check")
    with open(os.path.join(data_dir, "manifest.json")) as f:
        n = json.load(f)["n"]
    source = np.fromfile(os.path.join(data_dir, "r1.f32"), dtype="<f4").reshape(n, n)
    chunk = np.ascontiguousarray(source[:CHUNK, :CHUNK])
    raw = chunk.tobytes()
    numcodecs.blosc.set_nthreads(1)
    rows = []
    for row in rows_in:
        name = row["name"]
        try:
            codec = get_codec(dict(row["config"]))
            encoded = codec.encode(chunk)
            if bytes(codec.decode(encoded)) != raw:
                raise ValueError("decoding the encoding did not give the chunk back")
            mb = len(raw) / 1e6
            enc, enc_cpu, enc_reps = measure(lambda: codec.encode(chunk))
            dec, dec_cpu, dec_reps = measure(lambda: codec.decode(encoded))
            out = {
                "name": name, "implementation": "numcodecs " + numcodecs.__version__,
                "encodedBytes": len(encoded), "ratio": len(raw) / len(encoded),
                "encodeMBps": mb / enc, "decodeMBps": mb / dec,
                "encodeCpuMBps": mb / enc_cpu if enc_cpu > 0 else None,
                "decodeCpuMBps": mb / dec_cpu if dec_cpu > 0 else None,
                "encodeReps": enc_reps, "decodeReps": dec_reps,
            }
            if check:
                path = os.path.join(check, re.sub(r"\W+", "-", name) + ".bin")
                if os.path.exists(path):
                    with open(path, "rb") as f:
                        ours = f.read()
                    out["decodesZ"] = bytes(codec.decode(ours)) == raw
                    if not out["decodesZ"]:
                        out["error"] = "numcodecs decoded z's encoding to different bytes"
            rows.append(out)
        except Exception as error:  # reported in the table, with the message
            rows.append({"name": name, "error": "".join(traceback.format_exception_only(type(error), error)).strip()})
    print(json.dumps({"impl": "numcodecs", "status": "ok", "chunkBytes": len(raw), "rows": rows}))


if __name__ == "__main__":
    main()
