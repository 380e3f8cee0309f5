#!/usr/bin/env bash
# The reference-store cross-checks (@z/store-reference): h5py, netCDF4, fsspec, pandas and fastparquet
# from pip's configured index in a venv of their own, made with --system-site-packages over Debian's
# /usr/bin/python3 so that the same interpreter also has Debian's zarr-python 2.13 and numcodecs
# (scripts/ensure-python-zarr.sh installs them). Prints the venv's python.
set -euo pipefail
bash "$(dirname "$0")/ensure-python-zarr.sh" >&2
venv="${Z_REFS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/z-refs/venv}"
python="$venv/bin/python"
# Several test files may run this at once (vitest workers): one creates the venv, the others wait.
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if ! "$python" -c "import h5py, netCDF4, pandas, fastparquet, zarr; from fsspec.implementations.reference import LazyReferenceMapper" 2>/dev/null; then
  echo "installing h5py, netCDF4, fsspec, pandas and fastparquet into $venv" >&2
  /usr/bin/python3 -m venv --system-site-packages "$venv" >&2
  # pip's configured indexes first, as the index: otherwise pip waits on the default one, which is
  # unreachable here, before it looks at them.
  read -r -a indexes <<<"$(/usr/bin/python3 -m pip config get global.extra-index-url 2>/dev/null || python3 -m pip config get global.extra-index-url 2>/dev/null || true)"
  args=()
  if [ "${#indexes[@]}" -gt 0 ]; then
    args+=(--index-url "${indexes[0]}")
    for extra in "${indexes[@]:1}"; do args+=(--extra-index-url "$extra"); done
  fi
  # numpy stays Debian's (the one zarr-python 2.13 and numcodecs 0.11 were built with): pinned, so
  # pip picks releases built for it rather than a numpy 2 that would shadow it. fsspec must be newer
  # than Debian's 2022.11, which has no LazyReferenceMapper (Parquet references).
  constraints="$venv.constraints.txt"
  echo "numpy==$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')" >"$constraints"
  "$python" -m pip install -q "${args[@]}" -c "$constraints" h5py netCDF4 "fsspec>=2024.1" pandas fastparquet 2>&1 |
    grep -v "is neither a file nor a directory" >&2 || true
  "$python" -c "import h5py, netCDF4, fsspec, pandas, fastparquet, zarr" >&2
fi
echo "$python"
