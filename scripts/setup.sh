#!/usr/bin/env bash
# All set-up on a fresh Debian machine, idempotent: Debian packages, the project venv with
# torch==2.13.0 (CPU build), two more venvs with torch==2.14.1 and torch==2.15.0 for an e2e
# subset, the C++ build, the Node.js wrapper's dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*" >&2; }
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

# 1. Debian packages: only the missing ones, so a warm machine skips apt entirely.
# libssl-dev: libcrypto's MD5 for TORCH_TRACE payloads (src/trace/md5.cpp).
# libtcmalloc-minimal4 and libjemalloc2: the allocators `tct bench --allocator` preloads (and
# compares) and its e2e tests use. clang-format: scripts/check_format.sh (.clang-format).
need=()
for pkg in cmake g++ make pkg-config ccache libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev libtomlplusplus-dev libsimdjson-dev zlib1g-dev libssl-dev chromium \
           libtcmalloc-minimal4 libjemalloc2 clang-format; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
command -v python3 >/dev/null || need+=(python3)
python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if ((${#need[@]})); then
  say "installing Debian packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# 2, 2b and 2c run beside the C++ build (3): unpacking wheels leaves the compiler most of the two
# cores, and a fresh machine's set-up is shorter by the installs' time. Each logs to a file,
# shown when it is done.
# 2. The venv. torch is pinned: an unpinned torch would download a multi-GB CUDA build.
install_venv() {
  if [ ! -x .venv/bin/python ]; then
    say "creating .venv"
    python3 -m venv .venv
  fi
  if ! .venv/bin/python -c 'import torch, numpy, pytest, xdist, jsonschema, scikit_build_core, importlib.util as u; assert torch.__version__.startswith("2.13.0") and u.find_spec("transformers"); import importlib.metadata as m; m.version("tlparse")' 2>/dev/null; then
    say "installing Python packages (torch==2.13.0 CPU build)"
    .venv/bin/pip install -q --disable-pip-version-check -r requirements-dev.txt
  fi
}

# 2b. A second venv, for the e2e subset that scripts/test.sh runs on torch 2.14.1 (the CUDA build,
# beside .venv's 2.13.0 CPU build). Only the target interpreter lives here: pytest stays in .venv.
# Every package is pinned (requirements-torch2.14.txt), so pip resolves nothing by itself and never
# pulls an unpinned torch. Byte-compiled at install (pip's default), since CI's environment may set
# PYTHONDONTWRITEBYTECODE: then every process of the tests would compile torch's imports again.
# TCT_SKIP_TORCH2_14=1 skips it (scripts/test.sh then skips the subset).
install_venv_torch2_14() {
  if [ "${TCT_SKIP_TORCH2_14:-0}" != 1 ] &&
     ! .venv-torch2.14/bin/python -c 'import importlib.metadata as m; assert m.version("torch") == "2.14.1"' 2>/dev/null; then
    say "creating .venv-torch2.14 (torch==2.14.1, the CUDA build; every package pinned)"
    [ -x .venv-torch2.14/bin/python ] || python3 -m venv .venv-torch2.14
    .venv-torch2.14/bin/pip install -q --disable-pip-version-check --only-binary=:all: \
      -r requirements-torch2.14.txt
  fi
}

# 2c. A third venv, for the same subset on torch 2.15.0 (the CUDA build; the release pip installs
# today), every package pinned (requirements-torch2.15.txt). A pip constraints file may cap torch
# below 2.15 on a machine (pip's config: `constraint = ...`): PIP_CONSTRAINT=/dev/null replaces
# it for this one install only (pip 23.2's environment variable wins over its config files), and
# the pins keep torch from floating. TCT_SKIP_TORCH2_15=1 skips it (scripts/test.sh then skips
# the subset on it).
install_venv_torch2_15() {
  if [ "${TCT_SKIP_TORCH2_15:-0}" != 1 ] &&
     ! .venv-torch2.15/bin/python -c 'import importlib.metadata as m; assert m.version("torch") == "2.15.0"' 2>/dev/null; then
    say "creating .venv-torch2.15 (torch==2.15.0, the CUDA build; every package pinned)"
    [ -x .venv-torch2.15/bin/python ] || python3 -m venv .venv-torch2.15
    PIP_CONSTRAINT=/dev/null .venv-torch2.15/bin/pip install -q --disable-pip-version-check --only-binary=:all: \
      -r requirements-torch2.15.txt
  fi
}

LOGS="$(mktemp -d "${TMPDIR:-/tmp}/tct-setup.XXXXXX")"
trap 'rm -rf "$LOGS"' EXIT
install_venv > "$LOGS/venv.log" 2>&1 &
venv_pid=$!
install_venv_torch2_14 > "$LOGS/venv-torch2.14.log" 2>&1 &
venv2_pid=$!
install_venv_torch2_15 > "$LOGS/venv-torch2.15.log" 2>&1 &
venv3_pid=$!

# 3. The C++ build.
say "building tct"
source scripts/build_env.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" >/dev/null

for job in "$venv_pid:venv" "$venv2_pid:venv-torch2.14" "$venv3_pid:venv-torch2.15"; do
  failed=0
  wait "${job%%:*}" || failed=1
  cat "$LOGS/${job#*:}.log" >&2
  [ "$failed" = 0 ] || { say "set-up failed while installing .${job#*:} (above)"; exit 1; }
done

# 3b. tct startup's C++ AOTInductor runner (tools/aoti_runner), built against .venv's libtorch
# into $XDG_CACHE_HOME/tct/aoti-runner, once per torch build: a warm machine finds it (the check
# imports torch, ~2 s) and the e2e tests never build it themselves.
build/tct startup builtin:tiny_ops --build-runner-only --python .venv/bin/python --quiet >/dev/null

# 4. The Node.js wrapper (no runtime dependencies; npm ci only if it has a lock file).
if [ -f node/package-lock.json ]; then
  (cd node && npm ci --silent --no-audit --no-fund)
fi
say "set-up done: build/tct"
