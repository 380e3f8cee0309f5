#!/usr/bin/env bash
# The live cross-check needs zarr-python, which comes only from Debian's packages here.
set -euo pipefail
if /usr/bin/python3 -c "import zarr" 2>/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing python3-zarr (Debian) for the conformance cross-check" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-zarr >/dev/null
else
  echo "zarr-python is missing: run 'apt-get install -y python3-zarr' as root" >&2
  exit 1
fi
