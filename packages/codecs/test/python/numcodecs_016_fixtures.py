"""Byte-exact checksum fixtures from numcodecs 0.16 (crc32c, and the `location` of crc32/adler32).

numcodecs 0.11 (the system Python) has no crc32c and no `location`; 0.16 has both. Run with a
virtual environment holding numcodecs 0.16 and google-crc32c (numcodecs' crc32c needs it):

    python3 -m venv /work/venv-ts
    /work/venv-ts/bin/pip install numcodecs numpy google-crc32c
    /work/venv-ts/bin/python packages/codecs/test/python/numcodecs_016_fixtures.py

It writes test/fixtures/numcodecs-0.16-checksums.json in the layout of numcodecs-checksums.json:
"inputs" (base64) and "cases", each the config get_config() writes, the input's name, and the 4
checksum bytes numcodecs wrote (hex) with where it put them ("start" or "end").
"""
import base64
import json
import os

import numcodecs
import numpy as np
from numcodecs import CRC32, CRC32C, Adler32

assert numcodecs.__version__.startswith("0.16"), numcodecs.__version__

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "fixtures")

rng = np.random.RandomState(16)
inputs = {
    "empty": b"",
    "one byte": b"\x2a",
    "check string": b"123456789",  # CRC-32C's check value is 0xe3069283
    "seven bytes": b"abcdefg",
    "eight bytes": b"abcdefgh",
    "nine bytes": b"abcdefghi",
    "sixty-three bytes": bytes(range(63)),
    "sixty-four bytes": bytes(range(64)),
    "sixty-five bytes": bytes(range(65)),
    "32 zeros": bytes(32),
    "32 0xff": b"\xff" * 32,
    "hello": b"hello world",
    "arange i4": np.arange(1000, dtype="<i4").tobytes(),
    "random 5001": rng.randint(0, 256, 5001).astype("u1").tobytes(),
}

cases = []
for name, data in inputs.items():
    for codec in [CRC32C(), CRC32C(location="start"), CRC32C(location="end"), CRC32(location="end"), Adler32(location="end")]:
        enc = bytes(codec.encode(np.frombuffer(data, dtype="u1")))
        assert bytes(codec.decode(enc)) == data
        assert len(enc) == len(data) + 4
        at = codec.location
        checksum = enc[:4] if at == "start" else enc[-4:]
        assert (enc[4:] if at == "start" else enc[:-4]) == data
        config = codec.get_config()
        cases.append({"name": f"{config['id']} {json.dumps(config.get('location', 'default'))} {name}",
                      "config": config, "input": name, "checksum": checksum.hex(), "at": at})

assert CRC32C().encode(b"123456789")[-4:].tobytes() == bytes.fromhex("839206e3")

path = os.path.join(OUT, "numcodecs-0.16-checksums.json")
with open(path, "w") as f:
    json.dump({"numcodecs": numcodecs.__version__,
               "inputs": {k: base64.b64encode(v).decode("ascii") for k, v in inputs.items()},
               "cases": cases}, f, indent=0, ensure_ascii=True)
    f.write("\n")
print(f"{path}: {os.path.getsize(path)} bytes")
