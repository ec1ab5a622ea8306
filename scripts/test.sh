#!/usr/bin/env bash
# Every test, after set-up: C++ unit tests, agent tests, end-to-end tests of the real
# binary, the wheel and npm installs (scripts/test_install.sh), the Node.js wrapper's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
scripts/setup.sh
# One inductor cache for the whole run: compiles on 2 cores are slow.
export TORCHINDUCTOR_CACHE_DIR="${TORCHINDUCTOR_CACHE_DIR:-${TMPDIR:-/tmp}/tct-test-inductor-cache}"
status=0
echo "== C++ unit tests"
build/tct_unit --gtest_brief=1 || status=1
echo "== agent and end-to-end tests"
.venv/bin/python -m pytest -q tests/agent tests/e2e "$@" || status=1
echo "== install: the wheel into a fresh venv, the npm tarball into an empty project"
scripts/test_install.sh || status=1
if [ -f node/package.json ]; then
  echo "== Node.js wrapper tests"
  (cd node && TCT_BIN="$ROOT/build/tct" TCT_PYTHON="$ROOT/.venv/bin/python" npm test --silent) || status=1
fi
exit $status
