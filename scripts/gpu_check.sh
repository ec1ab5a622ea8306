#!/usr/bin/env bash
# tct on a GPU, each figure checked against a direct torch measurement, and a summary to quote:
# probe (GPUs seen, a smoke compile on each device), bench (default and --mode reduce-overhead,
# timed with CUDA events; cuda:1 when a second GPU is visible) against a plain CUDA-event loop,
# peak memory against torch.cuda.max_memory_allocated, explain against torch._dynamo.explain, a
# TORCH_TRACE log read by `tct trace` against dynamo's own counters, expect's GPU ceilings.
# Without a GPU (or with --cpu-only) it runs the CPU half, names every GPU check it skipped, and
# still checks the CPU figures (bench's speedup within 5% of a plain loop or inside its interval).
#
#   scripts/gpu_check.sh [--python PY] [--cpu-only] [--budget S] [--backend B]
#
# PY (default: $TCT_PYTHON, then .venv/bin/python, then python3) is the interpreter with torch.
# It builds build/tct first when it is missing (CMake and the packages scripts/setup.sh installs).
# Exit 0 when every check that ran passed, 1 when one failed, 2 when it cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${TCT_PYTHON:-}"
args=()
while (($#)); do
  case "$1" in
    --python) python="$2"; shift 2 ;;
    --cpu-only|--budget|--backend) args+=("$1"); [ "$1" = --cpu-only ] || { args+=("$2"); shift; }; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu_check: error: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$python" ]; then
  if [ -x .venv/bin/python ]; then python=.venv/bin/python; else python="$(command -v python3)"; fi
fi
# An absolute path, not resolved through links: a venv's python is a link to the system's.
case "$python" in
  */*) python="$(cd "$(dirname "$python")" && pwd)/$(basename "$python")" ;;
  *) python="$(command -v "$python" || echo "$python")" ;;
esac
if ! "$python" -c 'import torch' 2>/dev/null; then
  echo "gpu_check: error: $python cannot import torch (choose one with --python)" >&2
  exit 2
fi
tct="${TCT_BIN:-build/tct}"
if [ ! -x "$tct" ]; then
  echo "gpu_check: building $tct" >&2
  command -v cmake >/dev/null || { echo "gpu_check: error: no build/tct and no cmake to build it" >&2; exit 2; }
  source scripts/build_env.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$(nproc)" --target tct >/dev/null
fi
exec "$python" scripts/gpu_check.py --tct "$tct" --python "$python" "${args[@]}"
