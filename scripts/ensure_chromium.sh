#!/usr/bin/env bash
# Make sure /usr/bin/chromium exists: the end-to-end UI screenshot test drives it headless.
#
# Why Debian's package and not `playwright install`: machines here reach only package
# registries, so a browser tool's own download fails; Debian's `chromium` installs fine.
# Idempotent: does nothing when /usr/bin/chromium is already there (or SMH_SKIP_BROWSER=1).
set -euo pipefail

BIN=/usr/bin/chromium
LOG_TAG=ensure_chromium
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # say, die

if [ -x "$BIN" ]; then
  exit 0
fi
if [ "${SMH_SKIP_BROWSER:-}" = 1 ]; then
  say "SMH_SKIP_BROWSER=1: not installing chromium; the UI screenshot test will skip"
  exit 0
fi
command -v apt-get >/dev/null 2>&1 || die "$BIN is missing and apt-get is not available; install Chromium by hand (or set SMH_SKIP_BROWSER=1 to skip the UI screenshot test)"
if [ "$(id -u)" -ne 0 ]; then
  die "$BIN is missing; run this script as root (sudo bash scripts/ensure_chromium.sh) or set SMH_SKIP_BROWSER=1 to skip the UI screenshot test"
fi
export DEBIAN_FRONTEND=noninteractive
say "installing Debian's chromium (first time: about a minute)"
log=$(mktemp)
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends chromium; } >"$log" 2>&1; then
  tail -n 30 "$log" >&2
  rm -f "$log"
  die "apt-get could not install chromium (see above); set SMH_SKIP_BROWSER=1 to skip the UI screenshot test"
fi
rm -f "$log"
[ -x "$BIN" ] || die "apt-get installed chromium but $BIN is still missing"
say "installed $("$BIN" --version 2>/dev/null || echo chromium)"
