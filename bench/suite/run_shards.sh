#!/usr/bin/env bash
# The example suite in N shards on this machine, one after another (each shard is what one
# machine of a scheduler would run; see docs/scaling-out.md), then merged. Prints each
# shard's wall time and the merged summary in Markdown.
# Usage: bench/suite/run_shards.sh [N] [OUTDIR]   (from anywhere; needs `transformers`)
set -euo pipefail
cd "$(dirname "$0")/../.."
N="${1:-2}"
OUT="${2:-suite-out}"
TCT="${TCT:-build/tct}"
PY="${TCT_PYTHON:-.venv/bin/python}"
mkdir -p "$OUT"
"$PY" -c 'import transformers' || { echo "this example needs transformers: $PY -m pip install transformers" >&2; exit 2; }
shards=()
for i in $(seq 1 "$N"); do
  start=$SECONDS
  "$TCT" suite bench/suite/zoo.toml --shard "$i/$N" -o "$OUT/shard$i.json" --python "$PY" --quiet >/dev/null || true
  echo "shard $i/$N: $((SECONDS - start)) s wall (load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
  shards+=("$OUT/shard$i.json")
done
"$TCT" merge "${shards[@]}" -o "$OUT/zoo.json" -o "$OUT/zoo.html" -o "$OUT/zoo.md" --markdown
