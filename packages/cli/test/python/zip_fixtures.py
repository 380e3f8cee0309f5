"""test/fixtures/store.zip: zarr-python 2.13's ZipStore holding a copy of test/fixtures/store (made by
store_fixtures.py), so the zip tests compare against store-expected.json.
Run: /usr/bin/python3 test/python/zip_fixtures.py test/fixtures"""
import os, sys
import zarr

out = sys.argv[1]
path = os.path.join(out, "store.zip")
if os.path.exists(path):
    os.remove(path)
source = zarr.DirectoryStore(os.path.join(out, "store"))
with zarr.ZipStore(path, mode="w") as store:
    n_copied, _, n_bytes = zarr.copy_store(source, store)
print(n_copied, "keys,", n_bytes, "bytes")
