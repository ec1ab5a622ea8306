#!/usr/bin/env bash
# Every test, after set-up: C++ unit tests, agent tests, end-to-end tests of the real
# binary, an e2e subset on torch 2.14.1 and on 2.15.0, the wheel and npm installs (scripts/test_install.sh),
# the Node.js wrapper's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
scripts/setup.sh
echo "   (set-up: $SECONDS s)"
# One inductor cache for the whole run: compiles on 2 cores are slow.
export TORCHINDUCTOR_CACHE_DIR="${TORCHINDUCTOR_CACHE_DIR:-${TMPDIR:-/tmp}/tct-test-inductor-cache}"
status=0
# Each phase says how long it took (CI's time limit is the sum).
phase() {
  [ -z "${PHASE:-}" ] || echo "   ($PHASE: $((SECONDS - PHASE_START)) s)"
  PHASE="$1" PHASE_START=$SECONDS
  [ -z "$1" ] || echo "== $1"
}
phase "layers: every include points down (scripts/check_layers.sh)"
scripts/check_layers.sh || status=1
phase "comments: every file a comment names exists (scripts/check_comments.sh)"
scripts/check_comments.sh || status=1
phase "unity names: no file-local name in two .cpp files of a namespace (scripts/check_unity_names.sh)"
scripts/check_unity_names.sh || status=1
phase "agent replies: read into their structs where they arrive, no key read past that (scripts/check_agent_reads.sh)"
scripts/check_agent_reads.sh || status=1
phase "format: the C++ as .clang-format says (scripts/check_format.sh)"
scripts/check_format.sh || status=1
phase "C++ unit tests"
build/tct_unit --gtest_brief=1 || status=1
phase "agent and end-to-end tests"
# Two workers: a test mostly waits on one agent process at a time, so two share the two cores
# well (841 s -> 549 s here). TCT_TEST_WORKERS=0 runs them one by one.
WORKERS=()
# loadgroup: tests that share a module-scoped fixture stay on one worker (tests/e2e/conftest.py).
[ "${TCT_TEST_WORKERS:-2}" = 0 ] || WORKERS=(-n "${TCT_TEST_WORKERS:-2}" --dist loadgroup)
.venv/bin/python -m pytest -q "${WORKERS[@]}" --durations=15 tests/agent tests/e2e "$@" || status=1
# The same subset on each other torch (tests/e2e/torch_subset.txt); pytest stays in .venv, the
# target interpreter is the other venv's (tests/e2e/tct_run.py reads TCT_TEST_PYTHON).
mapfile -t subset < <(grep -v -e '^#' -e '^$' tests/e2e/torch_subset.txt)
for version in 2.14.1 2.15.0; do
  minor="${version%.*}"
  venv=".venv-torch$minor"
  if [ -x "$venv/bin/python" ]; then
    phase "end-to-end subset on torch $version (tests/e2e/torch_subset.txt)"
    TCT_TEST_PYTHON="$ROOT/$venv/bin/python" .venv/bin/python -m pytest -q "${WORKERS[@]}" "${subset[@]}" || status=1
  else
    echo "== end-to-end subset on torch $version: SKIPPED ($venv missing; TCT_SKIP_TORCH${minor/./_}=1?)"
  fi
done
# Its GPU half where a GPU is visible; here (no GPU) the CPU half and a list of what it skipped.
phase "scripts/gpu_check.sh"
scripts/gpu_check.sh --python "$ROOT/.venv/bin/python" --budget 2 || status=1
phase "install: the wheel into a fresh venv, the npm tarball into an empty project"
scripts/test_install.sh || status=1
if [ -f node/package.json ]; then
  phase "Node.js wrapper tests"
  (cd node && TCT_BIN="$ROOT/build/tct" TCT_PYTHON="$ROOT/.venv/bin/python" npm test --silent) || status=1
fi
phase ""
echo "== all tests: $SECONDS s"
exit $status
