#!/usr/bin/env bash
# The live two-way cross-check against xarray (pnpm --filter @z/xarray run live; CI: pnpm test:xarray):
#   1. xarray_fixtures.py writes fresh fixtures with xarray, which must equal the committed ones
#      (diff -r), so a change in what xarray, pandas, cftime or zarr-python do is noticed;
#   2. the fixture tests read the fresh fixtures with @z/xarray (xarray-fixtures, to-zarr, repr), when
#      they differ from the committed ones (equal ones are what `pnpm test` reads already);
#   3. live-write.test.ts writes every fixture dataset and every built one with toZarr;
#   4. xarray_read.py reads each of those with xr.open_zarr;
#   5. live-check.test.ts compares what xarray read with what was written and with openDataset.
# Every step runs even if an earlier one failed (except those that need an earlier one's output).
# The temporary directory is kept when something fails, for inspection.
set -u -o pipefail

PKG="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$PKG/../.." && pwd)"
PY=/usr/bin/python3
export VITE_CONFIG_NATIVE_IGNORE_WARNING=true

if ! "$PY" -c "import xarray, cftime, zarr" 2>/dev/null; then
  echo "live: $PY cannot import xarray, cftime and zarr; the live check needs Debian's python3-xarray," >&2
  echo "live: python3-cftime and python3-zarr: bash scripts/ensure-python-xarray.sh (as root; CI does)" >&2
  exit 2
fi

TMP="$(mktemp -d "${TMPDIR:-/tmp}/z-xarray.XXXXXX")"
FRESH="$TMP/fixtures"
OUT="$TMP/out"
passed=0
failed=0
failures=()

step() {
  local description="$1"
  shift
  echo
  echo "=== live: $description"
  if "$@"; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    failures+=("$description")
  fi
}

vitest_files() {
  local env="$1"
  shift
  (cd "$ROOT" && env $env pnpm exec vitest run --project xarray "$@")
}

step "xarray writes fresh fixtures" "$PY" "$PKG/test/python/xarray_fixtures.py" "$FRESH"
step "fresh fixtures equal the committed ones" diff -r "$PKG/test/fixtures" "$FRESH"
# Equal fixtures are the very bytes `pnpm test` reads already: read the fresh ones only when they
# differ, to see what the difference does.
if ! diff -rq "$PKG/test/fixtures" "$FRESH" >/dev/null 2>&1; then
  step "@z/xarray reads xarray's fresh fixtures as xarray does" vitest_files "Z_XARRAY_FIXTURES=$FRESH" \
    packages/xarray/test/xarray-fixtures.test.ts packages/xarray/test/to-zarr.test.ts packages/xarray/test/repr.test.ts
fi
step "toZarr writes every dataset (live-write.test.ts)" vitest_files "Z_XARRAY_OUT=$OUT" packages/xarray/test/live-write.test.ts
step "xarray reads what toZarr wrote (xarray_read.py)" "$PY" "$PKG/test/python/xarray_read.py" "$OUT"
step "what xarray read is what was written (live-check.test.ts)" vitest_files "Z_XARRAY_OUT=$OUT" \
  packages/xarray/test/live-check.test.ts

echo
for f in "${failures[@]}"; do echo "live: FAILED: $f"; done
if [ "$failed" -eq 0 ]; then rm -rf "$TMP"; else echo "live: kept $TMP for inspection"; fi
echo "live xarray steps: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
