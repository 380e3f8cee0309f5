#!/usr/bin/env bash
# The browser tests (pnpm test:browser) run in real headless Chromium, which comes only from Debian's
# packages here (`npx playwright install` cannot download browsers). CHROMIUM_PATH overrides the
# binary, as in vitest.browser.config.ts.
set -euo pipefail
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$chromium" ]; then exit 0; fi
if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable" >&2
  exit 1
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing chromium (Debian) for the browser tests" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium is missing: run 'apt-get install -y chromium' as root, or set CHROMIUM_PATH" >&2
  exit 1
fi
