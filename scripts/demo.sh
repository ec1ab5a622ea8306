#!/usr/bin/env bash
# The main job on a built-in example, after set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
# The demo needs only the project's own torch; the second venv (torch 2.14.1) is for the tests.
TCT_SKIP_TORCH2_14="${TCT_SKIP_TORCH2_14:-1}" scripts/setup.sh
export TCT_PYTHON="$PWD/.venv/bin/python"
# A small sweep over the batch size, so that the report shows every chart (speedup against batch).
exec build/tct audit builtin:transformer_block --sweep batch=1,4 -o report.html -o report.md "$@"
