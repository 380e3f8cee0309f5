#!/usr/bin/env bash
# The bench's TensorStore column: TensorStore 0.1.85 and numpy in a venv of their own (pip's
# configured index serves the wheel here; see ../shared/toolchain.md). Prints the venv's python.
set -euo pipefail
venv="${Z_BENCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/z-bench/venv-tensorstore}"
python="$venv/bin/python"
# Several test files run this at once (vitest workers): one creates the venv, the others wait.
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if ! "$python" -c "import tensorstore, numpy" 2>/dev/null; then
  echo "installing TensorStore 0.1.85 into $venv" >&2
  python3 -m venv "$venv" >&2
  # pip's configured indexes first, as the index: otherwise pip waits on the default one, which is
  # unreachable here, before it looks at them.
  read -r -a indexes <<<"$(python3 -m pip config get global.extra-index-url 2>/dev/null || true)"
  args=()
  if [ "${#indexes[@]}" -gt 0 ]; then
    args+=(--index-url "${indexes[0]}")
    for extra in "${indexes[@]:1}"; do args+=(--extra-index-url "$extra"); done
  fi
  "$python" -m pip install -q "${args[@]}" "tensorstore==0.1.85" numpy >&2
fi
echo "$python"
