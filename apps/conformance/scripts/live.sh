#!/usr/bin/env bash
# The live two-way cross-check against zarr-python (pnpm --filter @z/conformance run live):
#   1. zarr-python generates fresh fixtures, which must equal the committed ones (diff -r), so a
#      change in what zarr-python, numcodecs, numpy or zlib writes is noticed;
#   2. read.test.ts reads the fresh fixtures with our library, when they differ from the committed ones
#      (equal ones are what `pnpm test` reads already);
#   3. write.test.ts writes every case with our library into a temporary directory (object arrays:
#      object-arrays.test.ts, which also reads them);
#   4. verify.py checks what we wrote with zarr-python.
# Every step runs even if an earlier one failed (except those that need the fresh fixtures).
# The temporary directory is kept when something fails, for inspection.
set -u -o pipefail

APP="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$APP/../.." && pwd)"
PY=/usr/bin/python3
# The root vitest.config.ts imports vitest.shared without an extension; Vite only warns about it.
export VITE_CONFIG_NATIVE_IGNORE_WARNING=true

if ! "$PY" -c "import zarr" 2>/dev/null; then
  echo "live: $PY cannot import zarr; the live conformance run needs zarr-python 2.13." >&2
  echo "live: install it with: apt-get install -y python3-zarr   (CI installs it)" >&2
  exit 2
fi

TMP="$(mktemp -d "${TMPDIR:-/tmp}/z-conformance.XXXXXX")"
FRESH="$TMP/fixtures"
OUT="$TMP/out"

passed=0
failed=0
failures=()

# step DESCRIPTION COMMAND...: runs one step and counts it.
step() {
  local description="$1"
  shift
  echo
  echo "=== live: $description"
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$description")
  fi
}

skip() {
  echo
  echo "=== live: $1: skipped (no fresh fixtures)"
  failed=$((failed + 1))
  failures+=("$1 (skipped)")
}

generate_fresh() {
  "$PY" "$APP/python/generate.py" "$FRESH"
}

# fixtures/tensorstore-v3 holds TensorStore's arrays (python/tensorstore_v3.py regenerates and
# compares those): zarr-python's generator writes the rest.
compare_with_committed() {
  diff -r -x tensorstore-v3 "$APP/fixtures" "$FRESH"
}

# vitest_file FILE [VAR=value...]: runs one test file of the conformance project.
vitest_file() {
  local file="$1"
  shift
  (cd "$ROOT" && env "$@" pnpm exec vitest run --project conformance "apps/conformance/test/$file")
}

step "generate fresh fixtures with zarr-python" generate_fresh
if [ -d "$FRESH" ]; then
  step "fresh fixtures equal the committed ones" compare_with_committed
  # Equal fixtures are the very bytes `pnpm test` reads already (read.test.ts on the committed
  # ones): read the fresh ones only when they differ, to see what the difference does.
  if ! diff -rq -x tensorstore-v3 "$APP/fixtures" "$FRESH" >/dev/null; then
    step "our library reads zarr-python's arrays (read.test.ts)" \
      vitest_file read.test.ts Z_CONFORMANCE_FIXTURES="$FRESH"
  fi
  step "our library writes every case (write.test.ts)" \
    vitest_file write.test.ts Z_CONFORMANCE_FIXTURES="$FRESH" Z_CONFORMANCE_OUT="$OUT"
  step "our library reads and writes object arrays (object-arrays.test.ts)" \
    vitest_file object-arrays.test.ts Z_CONFORMANCE_FIXTURES="$FRESH" Z_CONFORMANCE_OUT="$OUT"
  step "zarr-python checks what we wrote (verify.py)" "$PY" "$APP/python/verify.py" "$FRESH" "$OUT"
else
  skip "fresh fixtures equal the committed ones"
  skip "our library reads zarr-python's arrays (read.test.ts)"
  skip "our library writes every case (write.test.ts)"
  skip "our library reads and writes object arrays (object-arrays.test.ts)"
  skip "zarr-python checks what we wrote (verify.py)"
fi

echo
for f in "${failures[@]}"; do echo "live: FAILED: $f"; done
if [ "$failed" -eq 0 ]; then
  rm -rf "$TMP"
else
  echo "live: kept $TMP for inspection"
fi
echo "live conformance steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
