#!/usr/bin/env bash
# The main job on a built-in example, after set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export TCT_PYTHON="$PWD/.venv/bin/python"
exec build/tct audit builtin:transformer_block -o report.html -o report.md "$@"
