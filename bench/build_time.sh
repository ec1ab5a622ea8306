#!/usr/bin/env bash
# Cold build time of tct and its unit tests (Release, ccache off, `nproc` jobs): the unity build
# (CMakeLists.txt's default) against one compiler run per file (-DTCT_UNITY_BUILD=OFF).
# The set-up of a fresh machine, and so CI, pays this once. Each build goes to a fresh temporary
# folder; run it on an otherwise idle machine.
# Usage: bench/build_time.sh [unity|files]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_DISABLE=1
modes=("$@")
((${#modes[@]})) || modes=(unity files)
for mode in "${modes[@]}"; do
  case "$mode" in
    unity) flag=ON ;;
    files) flag=OFF ;;
    *) echo "build_time.sh: unknown mode '$mode' (unity or files)" >&2; exit 2 ;;
  esac
  dir="$(mktemp -d "${TMPDIR:-/tmp}/tct-build-time.XXXXXX")"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DTCT_UNITY_BUILD=$flag >/dev/null
  load="$(cut -d' ' -f1 /proc/loadavg)"
  start=$(date +%s%N)
  cmake --build "$dir" -j "$(nproc)" >/dev/null 2>&1
  end=$(date +%s%N)
  awk -v m="$mode" -v j="$(nproc)" -v ns=$((end - start)) -v l="$load" \
    'BEGIN { printf "%-6s cold build, %s jobs: %6.1f s (load average before: %s)\n", m, j, ns / 1e9, l }'
  rm -rf "$dir"
done
