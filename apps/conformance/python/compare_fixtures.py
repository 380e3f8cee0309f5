#!/usr/bin/python3
"""`diff -r` for two fixture trees, blind only to the time stamp inside gzip chunks.

Usage: /usr/bin/python3 compare_fixtures.py COMMITTED FRESH

numcodecs' GZip writes the current time into the MTIME field of every gzip header (bytes 4-7),
so regenerating fixtures never reproduces gzip chunks byte for byte. Every other byte of every
file must be identical, and both trees must hold exactly the same files: any difference means
zarr-python (or numcodecs, numpy, zlib) now writes something else than the committed fixtures.
Exit status 1 on any difference.
"""

import sys
from pathlib import Path

GZIP_MAGIC = b"\x1f\x8b\x08"
GZIP_MTIME = slice(4, 8)


def files_under(root):
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def without_gzip_mtime(data):
    if data[:3] == GZIP_MAGIC and len(data) >= 10:
        data = bytearray(data)
        data[GZIP_MTIME] = bytes(4)
        return bytes(data)
    return data


def same_file(a, b):
    da, db = a.read_bytes(), b.read_bytes()
    return da == db or without_gzip_mtime(da) == without_gzip_mtime(db)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    committed, fresh = Path(argv[0]), Path(argv[1])
    a, b = files_under(committed), files_under(fresh)
    problems = [f"only in {committed}: {f}" for f in sorted(a - b)]
    problems += [f"only in {fresh}: {f}" for f in sorted(b - a)]
    problems += [f"files differ: {f}" for f in sorted(a & b) if not same_file(committed / f, fresh / f)]
    for p in problems:
        print(p)
    print(f"compare_fixtures: {len(a & b)} common files, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
