#!/usr/bin/env bash
# The unity build (CMakeLists.txt: build/unity/batch_N.cpp, 16 sources a batch) compiles many
# .cpp files as one, so two file-local names in one namespace clash there, however the files
# are batched today. This fails on each such name (file:line of each): a function, variable or
# type that two .cpp files of src/ declare, in the same enclosing namespace, in an anonymous
# namespace, `static` at namespace scope, or as a const or constexpr variable at namespace
# scope (internal linkage too, unless `inline`). Overloads count: in one batch a call could
# resolve to the other file's overload and compile. The fix is a name that says whose it is
# (core/user_code.cpp's trim_code), or a header both include.
# Read line by line, not parsed: comments, strings and raw strings are blanked, braces give
# the scopes, and a declaration is a statement that starts at namespace scope. `using` lines
# are left out: declaring the same alias or using-declaration again is legal C++.
set -euo pipefail
cd "$(dirname "$0")/../src"

# "namespace name file:line" for every file-local declaration.
file_locals() {
  find . -name '*.cpp' -print0 | sort -z | xargs -0 awk '
    FNR == 1 { depth = 0; raw = ""; in_block = 0; fresh = 1 }
    {
      line = $0; out = ""
      # Blank what is not code: raw strings (may span lines), block and line comments, strings, chars.
      while (line != "") {
        if (raw != "") {
          i = index(line, raw)
          if (!i) { line = ""; break }
          line = substr(line, i + length(raw)); raw = ""; out = out "\"\""; continue
        }
        if (in_block) {
          i = index(line, "*/")
          if (!i) { line = ""; break }
          line = substr(line, i + 2); in_block = 0; continue
        }
        if (!match(line, /R"[^(" ]*\(|\/\*|\/\/|"|'\''/)) { out = out line; break }
        out = out substr(line, 1, RSTART - 1); tok = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
        if (tok == "//") break
        if (tok == "/*") { in_block = 1; continue }
        if (tok ~ /^R"/) { raw = ")" substr(tok, 3, length(tok) - 3) "\""; continue }
        if (tok == "\"") {
          if (match(line, /^([^"\\]|\\.)*"/)) { line = substr(line, RLENGTH + 1); out = out "\"\"" } else line = ""
          continue
        }
        if (match(line, /^([^'\''\\]|\\.)*'\''/)) { line = substr(line, RLENGTH + 1); out = out "0" } else line = ""
      }
      if (out ~ /^[ \t]*#/) { next }
      # At a statement start at namespace scope: a file-local declaration?
      at_ns = 1; anon = 0; name_path = ""
      for (d = 1; d <= depth; d++) {
        if (kind[d] == "other") at_ns = 0
        else if (kind[d] == "anon") anon = 1
        else name_path = name_path (name_path == "" ? "" : "::") kind[d]
      }
      stmt = out; sub(/^[ \t]+/, "", stmt)
      if (at_ns && fresh && stmt != "" && stmt !~ /^(namespace|template|}|extern|using)[ \t{]/ &&
          (anon || stmt ~ /^static[ \t]/ || (stmt ~ /^(const|constexpr)[ \t]/ && stmt ~ /^[^(]*[={[;]/))) {
        decl = stmt
        while (gsub(/<[^<>]*>/, "", decl)) {}
        name = ""
        if (match(decl, /^(static[ \t]+)?(inline[ \t]+)?(struct|class|union|enum([ \t]+class)?)[ \t]+[A-Za-z_][A-Za-z_0-9]*/)) {
          name = substr(decl, RSTART, RLENGTH); sub(/.*[ \t]/, "", name)
        } else if (decl !~ /operator/) {
          head = decl; sub(/[(={;[].*/, "", head); sub(/[ \t]+$/, "", head)
          if (match(head, /[A-Za-z_][A-Za-z_0-9]*$/) && head ~ /[ \t*&]/) name = substr(head, RSTART)
        }
        if (name != "") print (name_path == "" ? "(global)" : name_path) " " name " " FILENAME ":" FNR
      }
      # Scopes: each { is a namespace (named or anonymous) or something else.
      s = out
      while (match(s, /[{}]/)) {
        c = substr(s, RSTART, 1); before = substr(s, 1, RSTART - 1); s = substr(s, RSTART + 1)
        if (c == "}") { if (depth > 0) depth--; continue }
        k = "other"
        if (match(before, /namespace[ \t]*$/)) k = "anon"
        else if (match(before, /namespace[ \t]+[A-Za-z_][A-Za-z_0-9:]*[ \t]*$/)) {
          k = substr(before, RSTART, RLENGTH); sub(/namespace[ \t]+/, "", k); sub(/[ \t]+$/, "", k)
        }
        kind[++depth] = k
      }
      # The next line starts a statement when this one ended one (or opened or closed a scope).
      t = out; sub(/[ \t]+$/, "", t)
      if (t != "") fresh = (t ~ /[;{}]$/ || t ~ /^[ \t]*template[ \t]*<.*>$/)
    }'
}

status=0
while read -r ns name files; do
  echo "src/${files// /, src/}: file-local \"$name\" in namespace $ns: they clash when the unity build puts them in one batch" >&2
  status=1
done < <(file_locals | sed 's#\./##' |
           awk '{ key = $1 " " $2; split($3, f, ":"); if (!((key, f[1]) in seen)) { seen[key, f[1]] = 1; n[key]++; where[key] = where[key] " " $3 } }
                END { for (k in n) if (n[k] > 1) print k where[k] }' | sort)
[ "$status" = 0 ] && echo "unity names: no file-local name in two .cpp files of one namespace"
exit "$status"
