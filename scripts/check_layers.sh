#!/usr/bin/env bash
# The layers point down, and this fails on any arrow that points up:
#   - core/, agent/, stats/, report/ and trace/ (what every command stands on) include no
#     command folder and no cli/;
#   - a command folder (every other folder of src/) includes no cli/: cli/ and main.cpp sit at
#     the top, with the registry of renderers that knows every command (cli/render.cpp).
# No exceptions: a new one is a design question, not an entry in a list here.
set -euo pipefail
cd "$(dirname "$0")/../src"
lower="core agent stats report trace"
status=0
for dir in */; do
  dir="${dir%/}"
  if [[ " $lower " == *" $dir "* ]]; then
    # Any folder that is not a lower layer is above it.
    allowed="^(${lower// /|})/"
    what="a lower layer includes a command or cli/"
  elif [ "$dir" = cli ]; then
    continue
  else
    allowed="^(?!cli/)"
    what="a command includes cli/"
  fi
  while IFS=: read -r file line target; do
    if ! grep -qP "$allowed" <<<"$target"; then
      echo "src/$file:$line: $what: \"$target\"" >&2
      status=1
    fi
  done < <(grep -rnoP '^#include "\K[a-z_]+/[^"]+' --include='*.hpp' --include='*.cpp' "$dir" || true)
done
[ "$status" = 0 ] && echo "layers: every include points down"
exit "$status"
