#!/usr/bin/env bash
# The xarray cross-check (pnpm test:xarray) needs xarray, cftime and zarr-python, which come only
# from Debian's packages here (python3-xarray runs on the same python3-zarr).
set -euo pipefail
if /usr/bin/python3 -c "import xarray, cftime, zarr" 2>/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing python3-xarray, python3-cftime and python3-zarr (Debian) for the xarray cross-check" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-xarray python3-cftime python3-zarr >/dev/null
else
  echo "xarray is missing: run 'apt-get install -y python3-xarray python3-cftime python3-zarr' as root" >&2
  exit 1
fi
