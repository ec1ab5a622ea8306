#!/usr/bin/env bash
# The install paths a user takes, each in a fresh place outside the repository: the wheel
# into a new venv that holds only torch, then, from another directory with no venv active,
# `tct probe` (it must choose that venv's python), a short `tct bench`, the Python API and
# the pytest plugin under plain pytest; then the npm tarball into an empty project, run
# through its bin and require(). Needs scripts/setup.sh done (.venv, Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
source scripts/build_env.sh
T="$(mktemp -d "${TMPDIR:-/tmp}/tct-install.XXXXXX")"
trap 'rm -rf "$T"' EXIT
step() { printf '  [%3ds] %s\n' "$SECONDS" "$*"; }
fail() { printf 'test_install: %s\n' "$*" >&2; exit 1; }

step "building the wheel"
# No build isolation: scikit-build-core comes from .venv (requirements-dev.txt), offline.
# build-wheel/ sits at the depth of build/, so ccache serves the objects setup.sh compiled.
.venv/bin/pip wheel . --no-deps --no-build-isolation -q -w "$T/dist" -C build-dir=build-wheel
WHEEL="$(ls "$T"/dist/*.whl)"
step "$(basename "$WHEEL"): $(du -k "$WHEEL" | cut -f1) KiB"

step "a fresh venv with torch, then the wheel"
VENV="$T/venv"
.venv/bin/python -m venv "$VENV"  # the Python torch==2.13.0 has a wheel for
# torch pinned: an unpinned torch would pull a multi-GB CUDA build. --no-compile: byte-
# compiling all of torch costs minutes on two busy cores, and Python does it lazily anyway.
"$VENV/bin/pip" install -q --no-compile torch==2.13.0 "$(grep '^pytest==' requirements-dev.txt)"
"$VENV/bin/pip" install -q --no-compile --no-deps "$WHEEL"
# Beyond glibc and libstdc++ the binary may only need what the wheel carries (simdjson,
# in lib/tct: Debian has no static build of it), resolved inside the venv.
ldd "$VENV/bin/tct" | grep -v -E 'linux-vdso|ld-linux|lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so' | grep -v -F "$VENV/" \
  && fail "$VENV/bin/tct links a library outside glibc, libstdc++ and the wheel (above)"

# A user's shell elsewhere: no venv active, the venv's bin/ not on PATH, no tct overrides.
mkdir "$T/elsewhere"
cd "$T/elsewhere"
run_clean() { env -u VIRTUAL_ENV -u TCT_PYTHON -u TCT_BIN -u TCT_AGENT_PATH -u PYTHONPATH PATH="${CLEAN_PATH:-/usr/bin:/bin}" "$@"; }

step "tct probe chooses the venv's python"
run_clean "$VENV/bin/tct" probe --json > probe.json
/usr/bin/python3 - "$VENV/bin/python" <<'EOF'
import json, sys
interp = json.load(open("probe.json"))["environment"]["interpreter"]
assert interp == {"path": sys.argv[1], "chosen_by": "tct's environment"}, interp
EOF

step "tct bench builtin:mlp"
run_clean "$VENV/bin/tct" bench builtin:mlp --backend aot_eager --budget 1 --no-compile-time --no-memory --quiet \
  | grep -E 'speedup [0-9.]+x \[' >/dev/null || fail "tct bench printed no speedup"

step "the Python API and the pytest plugin, under plain pytest"
cat > test_speedup.py <<'EOF'
import pytest
import torch_compile_tool as tct
from torch_compile_tool import assert_speedup


def test_probe_runs_in_this_venv():
    doc = tct.probe()
    assert doc["probe"]["verdict"] in ("usable", "usable_with_caveats")
    assert doc["environment"]["torch"]["version"].startswith("2.13.0")


def test_unknown_option_fails_before_running():
    with pytest.raises(TypeError, match="budgett"):
        tct.bench("builtin:mlp", budgett=1)


def test_mlp_gate(tct_bench, request):
    assert request.node.get_closest_marker("tct"), "tct_bench tests are marked tct"
    doc = tct_bench("builtin:mlp", backend="aot_eager", budget=1, no_compile_time=True, no_memory=True)
    assert_speedup(doc, at_least=0.01)
    with pytest.raises(AssertionError, match="lower end"):
        assert_speedup(doc, at_least=1000)
EOF
run_clean "$VENV/bin/pytest" -q -p no:cacheprovider test_speedup.py

step "the npm tarball in an empty project"
(cd "$ROOT/node" && npm pack --silent --pack-destination "$T" >/dev/null)
TARBALL="$(ls "$T"/torch-compile-tool-*.tgz)"
# Not grep -q: it exits at the first match, and under pipefail the writer's SIGPIPE fails the check.
tar -tzf "$TARBALL" | grep -x 'package/LICENSE' >/dev/null || fail "the npm tarball has no LICENSE"
mkdir "$T/npm-project"
cd "$T/npm-project"
npm init -y >/dev/null
npm install --silent --offline --no-audit --no-fund "$TARBALL"
# tct from the pip install, found on PATH as a user with the venv's bin/ on PATH has it.
export CLEAN_PATH="$VENV/bin:/usr/bin:/bin"
run_clean npx --no-install torch-compile-tool probe --json \
  | python3 -c 'import json, sys; assert json.load(sys.stdin)["command"] == "probe"'
run_clean node -e "
require('torch-compile-tool').probe().then((d) => {
  if (d.environment.interpreter.path !== process.argv[1]) throw new Error('interpreter ' + d.environment.interpreter.path);
})" "$VENV/bin/python"
step "done"
