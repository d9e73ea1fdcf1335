#!/usr/bin/env bash
# Make espeak-ng available for the voice tests and `smh bench run --voice`, without root.
#
# Why unpacked .debs and not `apt-get install`: the tests must set up what they need on a fresh
# machine that reaches only the package registries, and `make test` should not need root. So
# Debian's espeak-ng and the libraries it needs that the base system lacks are fetched with
# `apt-get download` and unpacked with `dpkg-deb -x` into $CACHE/espeak-ng/root;
# smh_core/voice/espeak.py runs that binary with LD_LIBRARY_PATH and ESPEAK_DATA_PATH set.
# Idempotent: does nothing when espeak-ng is on PATH or already unpacked (or SMH_SKIP_VOICE=1).
set -euo pipefail

CACHE="${SMH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/smh}"
DEST="$CACHE/espeak-ng"
ROOT_DIR="$DEST/root"
LIBDIR="$ROOT_DIR/usr/lib/x86_64-linux-gnu"
PACKAGES=(espeak-ng libespeak-ng1 espeak-ng-data libpcaudio0 libsonic0)
LOG_TAG=ensure_espeak
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # say, die

works() { LD_LIBRARY_PATH="$LIBDIR" ESPEAK_DATA_PATH="$LIBDIR" "$ROOT_DIR/usr/bin/espeak-ng" --version >/dev/null 2>&1; }

if command -v espeak-ng >/dev/null 2>&1; then
  exit 0
fi
if [ -x "$ROOT_DIR/usr/bin/espeak-ng" ] && works; then
  exit 0
fi
if [ "${SMH_SKIP_VOICE:-}" = 1 ]; then
  say "SMH_SKIP_VOICE=1: not fetching espeak-ng; the voice tests will skip"
  exit 0
fi
command -v apt-get >/dev/null 2>&1 || die "espeak-ng is missing and apt-get is not available; install espeak-ng by hand (or set SMH_SKIP_VOICE=1)"
command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb is missing; install espeak-ng by hand (or set SMH_SKIP_VOICE=1)"
say "fetching Debian's espeak-ng into $DEST (first time: a few seconds)"
rm -rf "$DEST" && mkdir -p "$DEST/debs"
log=$(mktemp)
# a missing library of the base system (libasound2, libpulse0) is fetched too, once ldd names it
if ! (cd "$DEST/debs" && apt-get download "${PACKAGES[@]}") >"$log" 2>&1; then
  tail -n 20 "$log" >&2; rm -f "$log"
  die "apt-get download failed (see above); set SMH_SKIP_VOICE=1 to skip the voice tests"
fi
rm -f "$log"
for deb in "$DEST"/debs/*.deb; do dpkg-deb -x "$deb" "$ROOT_DIR"; done
missing=$(LD_LIBRARY_PATH="$LIBDIR" ldd "$ROOT_DIR/usr/bin/espeak-ng" "$LIBDIR"/libpcaudio.so.0 2>/dev/null \
          | awk '/not found/ {print $1}' | sort -u)
for lib in $missing; do
  case "$lib" in
    libasound.so.2) pkg=libasound2 ;;
    libpulse.so.0) pkg=libpulse0 ;;
    *) die "espeak-ng needs $lib, which this script does not know how to fetch" ;;
  esac
  (cd "$DEST/debs" && apt-get download "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
  dpkg-deb -x "$DEST"/debs/"$pkg"_*.deb "$ROOT_DIR"
done
works || die "espeak-ng was unpacked into $ROOT_DIR but does not run (try: LD_LIBRARY_PATH=$LIBDIR $ROOT_DIR/usr/bin/espeak-ng --version)"
say "espeak-ng ready: $ROOT_DIR/usr/bin/espeak-ng"
