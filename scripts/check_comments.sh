#!/usr/bin/env bash
# Every file a comment or a doc names exists, and this fails on each one that does not
# (file:line). Comments are read in src/, python/, scripts/ and tests/unit/: C++'s `//`, Python's
# and the shell's `#`, and Python's docstrings; docs/*.md is read whole, and in its layout blocks
# (a line that starts with a folder, `src/bench/   tct bench ...`, and the indented lines under
# it) a bare file name is that folder's file; a block tagged with a language (```bash) is an
# example to run, not a reference, and is skipped. A path is a word with a `/` in it (`bench/run.cpp`,
# `src/bench/json.hpp`, `tct_agent/ops/bench.py`, `tests/e2e/golden/`); it exists when it names a file
# or folder relative to the commenting file's folder or a folder above it up to the
# repository's root, relative to src/ or python/ (where the namespaces start), or among
# torch's installed sources (`torch/_dynamo/utils.py`, `_dynamo/utils.py`: read from .venv
# where one is set up). A bare C++ or shell file name (`summary.cpp`) exists when a tracked file
# has that name (`torch._inductor.config.cpp`, a Python name, is not a file). Not checked: a folder of one part (`bin/`), globs (`*`), URLs, `...`-shortened
# paths, paths after `$VAR/` or `<dir>/`, text in double quotes (an example of input, not a
# reference), capitalised placeholders (`FILE.py`) and build/ (the build writes it).
set -euo pipefail
cd "$(dirname "$0")/.."
site=""
for d in .venv/lib/python3*/site-packages; do [ -d "$d" ] && site="$d"; done

# Every candidate as file:line:path, read from the comments in one pass per language.
candidates() {
  local pick='
    function pick(text, folder,   exts, re, p) {
      gsub(/[a-z]+:\/\/[^ )>"]*/, "", text)   # URLs
      gsub(/"[^"]*"/, "", text)                # quoted examples
      exts = "(cpp|hpp|h|py|sh|md|json|toml|txt|js|mjs|cjs|ts|html|css|yml|yaml|cmake|cfg)"
      re = "(^|[^A-Za-z0-9_./$~<>*{}-])(\\.\\./)*[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)*(\\." exts "|/)([^A-Za-z0-9_/*{}-]|$)"
      while (match(text, re)) {
        p = substr(text, RSTART, RLENGTH)
        text = substr(text, RSTART + RLENGTH - 1)
        sub(/^[^A-Za-z0-9_.]/, "", p); sub(/[^A-Za-z0-9_\/]$/, "", p)
        if (p ~ /\.\.\.|^\.+$/ || p ~ /^[A-Z]/) continue
        if (p ~ /\// && p !~ /^[^\/]+\/$/) print FILENAME ":" FNR ":" p
        else if (folder != "" && p ~ /^[A-Za-z0-9_-]+\.(cpp|hpp|h|sh|py)$/) print FILENAME ":" FNR ":" folder p
        else if (p ~ /^[A-Za-z0-9_-]+\.(cpp|hpp|h|sh)$/) print FILENAME ":" FNR ":" p
      }
    }'
  find src tests/unit -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -print0 |
    xargs -0 awk "$pick"'
      { s = $0
        # the first // that does not follow a ":" (a URL)
        while ((i = index(s, "//")) > 0 && i > 1 && substr(s, i - 1, 1) == ":") s = substr(s, i + 2)
        if (i > 0) pick(substr(s, i + 2)) }'
  find python -type f -name '*.py' -print0 |
    xargs -0 awk "$pick"'
      FNR == 1 { doc = 0 }
      { line = $0; n = gsub(/"""/, "\"\"\"", line)
        if (doc || n) pick(line)
        else if (match(line, /(^|[ \t])#/)) pick(substr(line, RSTART))
        if (n % 2) doc = !doc }'
  find scripts -type f \( -name '*.sh' -o -name '*.py' \) -print0 |
    xargs -0 awk "$pick"'
      { if (match($0, /(^|[ \t])#/)) pick(substr($0, RSTART)) }'
  find docs -type f -name '*.md' -print0 |
    xargs -0 awk "$pick"'
      FNR == 1 { code = 0; folder = "" }
      /^```/ { example = !code && length($0) > 3; code = !code; folder = ""; next }
      code && example { next }
      { if (!code || $0 !~ /^[ \t]/) folder = ""
        if (code && match($0, /^[a-z_]+(\/[A-Za-z0-9_.-]+)*\/ /)) folder = substr($0, 1, RLENGTH - 1)
        pick($0, folder) }'
}

# Does path $1, named in a comment of file $2, exist?
exists() {
  local p="$1" dir
  case "$p" in build/* | */build/*) return 0 ;; esac
  if [[ "$p" != */* ]]; then
    grep -qxF "$p" <<<"$tracked_names"
    return
  fi
  dir="$(dirname "$2")"
  while :; do
    [ -e "$dir/$p" ] && return 0
    [ "$dir" = . ] && break
    dir="$(dirname "$dir")"
  done
  [ -e "src/$p" ] || [ -e "python/$p" ] ||
    { [ -n "$site" ] && { [ -e "$site/$p" ] || [ -e "$site/torch/$p" ]; }; }
}

tracked_names="$(git ls-files | sed 's#.*/##' | sort -u)"
count=0
while IFS=: read -r file line path; do
  if ! exists "$path" "$file"; then
    echo "$file:$line: names \"$path\", which does not exist" >&2
    count=$((count + 1))
  fi
done < <(candidates)
if [ "$count" = 0 ]; then
  echo "comments: every file a comment names exists"
  exit 0
fi
echo "comments: $count names of files that do not exist" >&2
exit 1
