#!/usr/bin/env bash
# `make test-ha-current`: the Home Assistant tests on the newest HA, on Python 3.14.
#
# Why a second lane: `make test` runs on HA 2026.2.3, the newest HA for Python 3.13 and the oldest
# SMH supports; HA 2026.3+ needs Python >= 3.14.2, and what users install today is the newest
# release. Two venvs, each installed under that HA's own package_constraints.txt:
#   plugin  homeassistant $HA_PLUGIN + pytest-homeassistant-custom-component $PLUGIN (the newest
#           plugin; it pins $HA_PLUGIN): tests/ha and tests/matter (the `hass` fixture)
#   newest  homeassistant $HA_NEWEST alone (the plugin lags it: its helpers import names this HA
#           no longer has): real `hass` processes on loopback, tests/e2e (Assist, the voice
#           pipeline, HA's own Matter integration against the bridge, the web UI)
# Both also run the HA-version checks that need no `hass` fixture: tests/test_ha_compat.py and
# tests/test_ha_deprecations.py (what HA reports about SMH at import: a deprecation fails).
#
# Python 3.14: a `python3.14` >= 3.14.2 on PATH is used as it is. Otherwise (this project's
# machines ship Debian 12, whose glibc is too old for any packaged 3.14) the lane runs in a
# Debian sid root made with debootstrap from the Debian registry the machine's apt already uses
# (needs root, as CI runs), cached with the venvs under $CACHE/ha-current: cold ~6-9 min, then
# seconds. The checkout is bind-mounted at its own path, so paths are the same inside and out.
#
# Usage: scripts/ha_current.sh [--setup-only] [--lane plugin|newest] [PYTEST ARGS ...]
#        scripts/ha_current.sh --demo [HA_INSTANCE ARGS ...]   (`make demo HA=newest`: the newest HA
#        with SMH's demo home, scripts/ha_instance.py in the 'newest' venv; Ctrl-C stops it)
#        scripts/ha_current.sh [--lane plugin] --python [PYTHON ARGS ...]   (the 'newest' (or named) venv's Python with this
#        checkout on PYTHONPATH, e.g. `-m homeassistant -c DIR`: how a script running on HA 2026.2.3
#        starts a hass of the newest HA, scripts/ha_instance.py `hass_python("newest")`; a TERM stops
#        it, and the root's mounts go once it has exited)
set -euo pipefail

HA_NEWEST="2026.11.0"
HA_PLUGIN="2026.10.4"
PLUGIN="0.13.375"
TEST_TOOLS=(pytest pytest-asyncio pytest-xdist pytest-socket pytest-timeout)  # the newest venv's, HA-constrained
# HA components the tests load: their requirements are taken from that HA's own manifests
# (hassio: HA 2026.11's matter config flow imports its client, aiohasupervisor, even without a Supervisor)
HA_COMPONENTS=(conversation frontend assist_pipeline ffmpeg tts camera wyoming matter hassio recorder)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SMH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/smh}"
LANE="$CACHE/ha-current"
SETUP_ONLY=0
DEMO=0
RUN=0
ONLY=""
PYTEST_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --setup-only) SETUP_ONLY=1 ;;
    --demo) DEMO=1; RUN=1; ONLY=newest ;;
    --python) RUN=1; ONLY="${ONLY:-newest}"; shift; PYTEST_ARGS+=("$@"); break ;;  # the rest is Python's (--lane before it picks the venv)
    --lane) ONLY="$2"; shift ;;
    *) PYTEST_ARGS+=("$1") ;;
  esac
  shift
done

LOG_TAG=ha-current
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # say, die

py314_ok() {
  "$1" - <<'PY' >/dev/null 2>&1
import sys, ssl, sqlite3, venv, ctypes, lzma, bz2
assert (3, 14, 2) <= sys.version_info[:3] < (3, 15, 0)
PY
}

debian_mirror() {
  local uri
  uri=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1)
  [ -n "$uri" ] || uri=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
                         | awk '{print $2}' | grep -v security | head -n1)
  [ -n "$uri" ] || return 1
  echo "${uri%/}"
}

# --- where Python 3.14 runs: on this machine, or in the sid root ------------------------------
MODE=chroot
HOST_PY=""
for cand in "${SMH_PYTHON314:-}" "$(command -v python3.14 2>/dev/null || true)"; do
  if [ -n "$cand" ] && [ -x "$cand" ] && py314_ok "$cand"; then MODE=host; HOST_PY="$cand"; break; fi
done

SID="$LANE/sid"
# what the root holds: Python 3.14 and what the components' sdists need to build (pymicro-vad,
# pyspeex-noise, pocketsphinx), libturbojpeg for HA's camera helpers, espeak-ng for the voice
# test; then chromium for the UI tests, installed with apt inside the root once /proc and /dev
# are there (its GTK dependencies do not configure inside debootstrap)
SID_PACKAGES="python3.14,python3.14-venv,python3.14-dev,ca-certificates,build-essential,cmake,libturbojpeg0,espeak-ng"
SID_EXTRA="chromium"
MOUNTS=()

cleanup() {
  local m
  for ((i=${#MOUNTS[@]}-1; i>=0; i--)); do
    m="${MOUNTS[$i]}"
    umount -l "$m" 2>/dev/null || true
  done
}
trap cleanup EXIT

# Nothing may stay mounted under a root we delete: a bind mount of the checkout (left by a run
# that was killed) would let `rm -rf` reach the checkout itself.
unmount_under() {
  local dir="$1" m left
  for m in $(awk -v d="$dir/" 'index($2, d) == 1 {print $2}' /proc/mounts | sort -r); do
    umount -l "$m" 2>/dev/null || true
  done
  left=$(awk -v d="$dir/" 'index($2, d) == 1 {print $2}' /proc/mounts | head -n1)
  [ -z "$left" ] || die "$left is still mounted; unmount it before the lane can rebuild $dir"
}

ensure_root() {
  if [ -f "$SID/.smh-packages" ] && [ "$(cat "$SID/.smh-packages")" = "$SID_PACKAGES $SID_EXTRA" ]; then
    return 0
  fi
  [ "$(id -u)" = 0 ] || die "no python3.14 >= 3.14.2 on PATH, and building the Debian sid root needs root
(install Python 3.14, or set SMH_PYTHON314=/path/to/python3.14)"
  if ! command -v debootstrap >/dev/null; then
    say "installing debootstrap (Debian package)"
    apt-get install -y -q debootstrap >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q debootstrap >/dev/null; } \
      || die "cannot install debootstrap"
  fi
  local mirror
  mirror=$(debian_mirror) || die "no Debian mirror in the apt sources; set SMH_PYTHON314 to a Python >= 3.14.2"
  say "making a Debian sid root with Python 3.14 in $SID (once, ~2-3 min; log: $LANE/debootstrap.log)"
  unmount_under "$SID.part"
  unmount_under "$SID"
  rm -rf "$SID.part" && mkdir -p "$LANE"
  debootstrap --variant=minbase --include="$SID_PACKAGES" sid "$SID.part" "$mirror" >"$LANE/debootstrap.log" 2>&1 \
    || { tail -n 20 "$LANE/debootstrap.log" >&2; die "debootstrap failed (log: $LANE/debootstrap.log)"; }
  rm -rf "$SID" && mv "$SID.part" "$SID"
  NEED_EXTRA=1
}

ensure_extra() {
  # (the registry may serve a snapshot whose Release file is past its Valid-Until date, which
  # debootstrap ignores and apt does not)
  [ "${NEED_EXTRA:-0}" = 1 ] || return 0
  say "installing $SID_EXTRA in the root (once; log: $LANE/apt-extra.log)"
  chroot "$SID" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c "apt-get -o Acquire::Check-Valid-Until=false update -q && apt-get install -y -q --no-install-recommends $SID_EXTRA" >"$LANE/apt-extra.log" 2>&1 \
    || { tail -n 20 "$LANE/apt-extra.log" >&2; die "apt-get install $SID_EXTRA failed in the root (log: $LANE/apt-extra.log)"; }
  echo "$SID_PACKAGES $SID_EXTRA" >"$SID/.smh-packages"
}

mount_root() {
  # the machine's resolver and certificate store (its registries may sit behind a proxy with its
  # own CA), then /proc, /dev, /sys and the checkout at its own path
  unmount_under "$SID"  # what a killed run left
  cp /etc/resolv.conf "$SID/etc/resolv.conf"
  local cert="${PIP_CERT:-${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}}"
  [ -f "$cert" ] && cp "$cert" "$SID/etc/ssl/certs/ca-certificates.crt"
  local m
  for m in /proc /dev /dev/pts /sys "$ROOT"; do
    mkdir -p "$SID$m"
    mount --bind "$m" "$SID$m"
    MOUNTS+=("$SID$m")
  done
}

# in_lane CMD...: run a command with Python 3.14 (in the root, with a clean environment)
in_lane() {
  if [ "$MODE" = host ]; then
    (cd "$ROOT" && "$@")
  else
    chroot "$SID" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180 \
      SMH_CACHE=/root/.cache/smh SMH_SKIP_BROWSER="${SMH_SKIP_BROWSER:-}" \
      /bin/sh -c 'cd "$0" && exec "$@"' "$ROOT" "$@"
  fi
}

# One run at a time: a second run would unmount the first one's checkout from under its tests.
mkdir -p "$LANE"
exec 9>"$LANE/.lock"
if ! flock -n 9; then
  say "another make test-ha-current is running; waiting for it"
  flock 9
fi

if [ "$MODE" = host ]; then
  VENVS="$LANE/venvs"
  PY="$HOST_PY"
  HOST_TMP="$LANE/tmp"; LANE_TMP="$HOST_TMP"
  say "using $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"
else
  ensure_root
  mount_root
  ensure_extra
  VENVS="/opt/smh"  # inside the root
  PY="python3.14"
  HOST_TMP="$SID/tmp"; LANE_TMP="/tmp"
fi

manifest_requirements() {
  python3 -c "import json,sys; print('\n'.join(json.load(open(sys.argv[1]))['requirements']))" \
    "$ROOT/custom_components/smh/manifest.json"
}

# make_venv NAME FIRST...: a venv with FIRST installed, then requirements-ha-current.txt and the
# manifest's requirements under the installed HA's own constraints. Rebuilt when what it is made
# from changes.
make_venv() {
  local name="$1"; shift
  local dir="$VENVS/$name" want stamp
  want=$(printf '%s\n' "$*" "${TEST_TOOLS[*]}" "${HA_COMPONENTS[*]}" "$SID_PACKAGES" | cat - "$ROOT/requirements-ha-current.txt" \
         "$ROOT/custom_components/smh/manifest.json" | sha256sum | cut -d' ' -f1)
  stamp="$dir/.smh-stamp"
  if in_lane test -f "$stamp" && [ "$(in_lane cat "$stamp")" = "$want" ]; then
    return 0
  fi
  say "installing the '$name' venv ($*; ~2-4 min once; log: $LANE/pip-$name.log)"
  local reqs="$LANE_TMP/smh-manifest-requirements.txt"  # the same file inside and outside the root
  manifest_requirements >"$HOST_TMP/smh-manifest-requirements.txt"
  {
    in_lane rm -rf "$dir"
    in_lane "$PY" -m venv "$dir"
    in_lane "$dir/bin/python" -m pip install -q --upgrade pip
    in_lane "$dir/bin/python" -m pip install -q "$@"
    local constraints
    constraints=$(in_lane "$dir/bin/python" -c "import homeassistant, os; print(os.path.join(os.path.dirname(homeassistant.__file__), 'package_constraints.txt'))")
    in_lane "$dir/bin/python" - "${HA_COMPONENTS[@]}" >"$HOST_TMP/smh-component-requirements.txt" <<'PY'
import json, sys
from pathlib import Path
import homeassistant
base = Path(homeassistant.__file__).parent / "components"
for component in sys.argv[1:]:
    print("\n".join(json.loads((base / component / "manifest.json").read_text()).get("requirements", [])))
PY
    in_lane "$dir/bin/python" -m pip install -q -c "$constraints" -r requirements-ha-current.txt \
      -r "$reqs" -r "$LANE_TMP/smh-component-requirements.txt" "${TEST_TOOLS[@]}"
  } >"$LANE/pip-$name.log" 2>&1 || { tail -n 30 "$LANE/pip-$name.log" >&2
                                      die "pip failed for the '$name' venv (log: $LANE/pip-$name.log)"; }
  in_lane sh -c "echo $want > $stamp"
}

mkdir -p "$LANE" "$HOST_TMP"
[ -z "$ONLY" ] || [ "$ONLY" = plugin ] && make_venv plugin "pytest-homeassistant-custom-component==$PLUGIN"
[ -z "$ONLY" ] || [ "$ONLY" = newest ] && make_venv newest "homeassistant==$HA_NEWEST"
[ "$SETUP_ONLY" = 1 ] && { say "set up"; exit 0; }

versions() {
  in_lane "$VENVS/$1/bin/python" -c "import sys, homeassistant.const as c; print(f'HA {c.__version__}, Python {sys.version.split()[0]}')"
}

if [ "$RUN" = 1 ]; then
  # the same root and venv as CI's newest lane; hass binds 127.0.0.1 in the machine's own network
  # (a chroot shares it), so the browser on this machine reaches it as with `make demo`
  if [ "$DEMO" = 1 ]; then
    say "demo on $(versions newest)"
    set -- scripts/ha_instance.py "${PYTEST_ARGS[@]}"
  else
    say "python on $(versions "$ONLY"): ${PYTEST_ARGS[*]}"
    set -- "${PYTEST_ARGS[@]}"
  fi
  # in its own process group, so Ctrl-C or a TERM reaches it through this script, which then
  # waits for it (and any hass it started) to stop before the root's mounts are undone (the
  # EXIT trap)
  set -m
  in_lane env PYTHONPATH="$ROOT" "$VENVS/$ONLY/bin/python" "$@" &
  child=$!
  set +m
  trap 'kill -TERM -- "-$child" 2>/dev/null || true' INT TERM
  rc=0
  while :; do
    if wait "$child"; then rc=0; else rc=$?; fi
    kill -0 "$child" 2>/dev/null || break
  done
  # the group's first process may end before hass has saved its state: wait for all of it
  while kill -0 -- "-$child" 2>/dev/null; do sleep 0.5; done
  exit "$rc"
fi

status=0
summary=()
run_lane() {
  local name="$1"; shift
  local log="$LANE/pytest-$name.log" rc=0
  say "$name: $(versions "$name"): pytest $*"
  in_lane "$VENVS/$name/bin/python" -m pytest "$@" 2>&1 | tee "$log" || rc=$?
  [ "$rc" = 0 ] || status=1
  summary+=("$name ($(versions "$name")): $(grep -E '^(=+ )?[0-9]+ (passed|failed)|(passed|failed|error).* in [0-9.]+s' "$log" | tail -n1 | tr -d '=' | sed 's/^ *//')")
}

if [ "${#PYTEST_ARGS[@]}" -gt 0 ]; then
  run_lane "${ONLY:-plugin}" "${PYTEST_ARGS[@]}"
else
  if [ -z "$ONLY" ] || [ "$ONLY" = plugin ]; then
    run_lane plugin -q -n 2 -p no:cacheprovider tests/ha tests/matter tests/test_ha_compat.py tests/test_ha_deprecations.py tests/homeenv/test_plain_form.py
  fi
  if [ -z "$ONLY" ] || [ "$ONLY" = newest ]; then
    run_lane newest -q -n 2 -p no:cacheprovider tests/e2e tests/test_ha_compat.py tests/test_ha_deprecations.py tests/homeenv/test_plain_form.py
  fi
fi
printf '[ha-current] %s\n' "${summary[@]}" >&2
exit "$status"
