#!/usr/bin/env bash
# Everything `pnpm test:all` checks against, installed when missing, before any test runs, so the
# README's test command runs every test on a fresh machine (as root; otherwise it names what to
# install and fails). Each step is a no-op when its tool is there.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
# TensorStore 0.1.85 in a venv of its own (the spec, zarr3 and S3 checks, and the bench), from
# pip's index: needs nothing from Debian, so it installs while apt-get works.
bash apps/bench/python/ensure-tensorstore.sh >/dev/null &
tensorstore=$!
# zarr-python 2.13 + boto3, xarray + cftime (Debian's, on the same zarr-python), Chromium: what is
# missing in one apt-get (one index update, not one per script); each script then checks its own.
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  missing=()
  /usr/bin/python3 -c "import zarr, boto3" 2>/dev/null || missing+=(python3-zarr python3-boto3)
  /usr/bin/python3 -c "import xarray, cftime" 2>/dev/null || missing+=(python3-xarray python3-cftime)
  [ -n "${CHROMIUM_PATH:-}" ] || [ -x /usr/bin/chromium ] || missing+=(chromium)
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing ${missing[*]} (Debian) for the cross-checks and browser tests" >&2
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi
bash scripts/ensure-python-zarr.sh
bash scripts/ensure-python-xarray.sh
bash scripts/ensure-chromium.sh
# h5py, netCDF4, fsspec, pandas, fastparquet in a venv on Debian's numpy (the reference-set
# checks), which needs python3-zarr first.
bash scripts/ensure-python-refs.sh >/dev/null
wait "$tensorstore"
# @z/huge-pages' addon is built on install by the system's C compiler; its tests check it is there.
if ! command -v cc >/dev/null && ! command -v gcc >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing gcc (Debian) for @z/huge-pages' addon" >&2
    apt-get update -qq
    apt-get install -y -qq gcc >/dev/null
  else
    echo "a C compiler is missing: run 'apt-get install -y gcc' as root" >&2
    exit 1
  fi
fi
# The addon may have been skipped at install time for want of a compiler: build it now.
if [ "$(uname)" = Linux ]; then (cd packages/huge-pages && Z_REQUIRE_HUGE_PAGES=1 node scripts/build-addon.mjs); fi
