#!/usr/bin/env bash
# The live cross-checks need zarr-python, and boto3 for those on S3 (a second S3 client), which
# come only from Debian's packages here.
set -euo pipefail
if /usr/bin/python3 -c "import zarr, boto3" 2>/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing python3-zarr and python3-boto3 (Debian) for the cross-checks" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-zarr python3-boto3 >/dev/null
else
  echo "zarr-python or boto3 is missing: run 'apt-get install -y python3-zarr python3-boto3' as root" >&2
  exit 1
fi
