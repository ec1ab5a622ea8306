#!/usr/bin/env bash
# Counts the string-key reads of agent replies outside their decoders, per file, and fails when
# the count grows. An agent reply is read once, into its declared struct, where it arrives
# (src/bench/reply.hpp and the other src/*/reply.hpp, decoded by core/fields.hpp); code past that
# point reads members. MAX is 0: every reply is read so.
#
# What is counted, in every .cpp and .hpp under src/, after `//` comments are blanked, a string
# literal key being one like "times_ns" (a C identifier: a search text such as " (" is no key):
#   x["key"]                     a subscript by a literal key, unless it is assigned to (a request
#                                being built); `x["a"]["b"] = ...` still counts "a"
#   .at("key") .value("key" .contains("key") .find("key") .count("key")
#                                (.find and .count not on a line that compares with npos: those
#                                are std::string searches)
#   f(x, "key")                  any call whose first argument is a plain expression (a name, a
#                                member, an element) and whose second is a literal key: the
#                                readers of core/json_read.hpp (str, num, opt_num, flag, list, ...),
#                                core/json_number.hpp (number_or_nan, ...) and a file's own
#                                (str_or, int_or, num_field, ...), less the text and map helpers
#                                named in NOT_READERS
# Not counted: the files below that are decoders, or read JSON that no agent wrote (a saved
# document, TORCH_TRACE records, a suite's TOML, tct's own cache file). A line in a counted file
# that reads no agent reply says so with `// not a reply: WHY` on it or on the line before.
# Read line by line, not parsed: a key built at run time is not seen.
set -euo pipefail
cd "$(dirname "$0")/.."

MAX=${TCT_AGENT_READS_MAX:-0}

python3 - "$MAX" <<'EOF'
import re
import subprocess
import sys

limit = int(sys.argv[1])
# Decoders: each reply's declaration and reader, the protocol's envelope and handshake
# (agent::Hello) and its error object (tct::Error).
# run/records.cpp decodes the run bootstrap's record files into SiteRecord and ProcessRecord
# (run/records.hpp) where they arrive; run/ reads their members.
DECODERS = re.compile(r"^src/(.*/reply\.(hpp|cpp)|agent/agent\.cpp|agent/agent_error\.cpp|run/records\.cpp)$")
# JSON no agent wrote: a command's section of a saved document (json.cpp, json.hpp and the parts
# they call: bench/breakdown_json.cpp, bench/correctness_json.cpp, ...), the document and its
# renderers' records (cli/, report/, compare/, explain/diff), TORCH_TRACE records (trace/, startup/trace_facts.cpp), suite files (suite/), probe's cache file
# (probe/cache.cpp, written by tct), and text searches named like a reader (core/hint_catalog.cpp,
# core/recompile_guard.cpp, core/graph_breaks.cpp: has(text, "numpy")).
NOT_REPLIES = re.compile(
    r"^src/(.*/json\.(cpp|hpp)|bench/breakdown_json\.cpp|bench/correctness_json\.cpp|core/eager_part\.cpp|core/fix_table\.cpp"
    r"|explain/result\.cpp|cli/.*|report/.*|compare/.*|explain/diff\.(cpp|hpp)|trace/.*|startup/trace_facts\.cpp"
    r"|suite/.*|probe/cache\.cpp|core/hint_catalog\.cpp|core/recompile_guard\.cpp|core/graph_breaks\.(cpp|hpp))$")
KEY = r'"[A-Za-z_][A-Za-z0-9_]*"'
SUBSCRIPT = re.compile(r"\[\s*" + KEY + r"\s*\](?!\s*=[^=])")
METHOD = re.compile(r"\.(?:at|value|contains)\(\s*" + KEY)
SEARCH = re.compile(r"\.(?:find|count)\(\s*" + KEY)
READER = re.compile(r"\b(\w+)(?:<[^<>()]*>)?\(\s*[\w.\->\[\]*]+\s*,\s*" + KEY)
# Calls of that shape that read no JSON: text searches, wording, a typed map of marks, a bench
# row's flags on one aspect (flags_for).
NOT_READERS = {"add", "mentions", "plural", "ends_with", "starts_with", "ends", "within", "brief_list",
               "write_peak", "warn", "row_error", "si", "link", "checked", "mark",
               "flags_for"}

files = subprocess.run(["git", "ls-files", "src"], capture_output=True, text=True, check=True).stdout.split()
counts = {}
for path in files:
    if not path.endswith((".cpp", ".hpp")) or DECODERS.match(path) or NOT_REPLIES.match(path):
        continue
    n = 0
    marked = False  # the line before said `// not a reply: WHY`
    with open(path, encoding="utf-8") as f:
        for line in f:
            if "// not a reply:" in line or marked:
                marked = line.strip().startswith("// not a reply:")
                continue
            code = re.sub(r"//.*", "", line)
            n += len(SUBSCRIPT.findall(code)) + len(METHOD.findall(code))
            n += sum(1 for f in READER.findall(code) if f not in NOT_READERS)
            if "npos" not in code:
                n += len(SEARCH.findall(code))
    if n:
        counts[path] = n

folders = {}
for path, n in counts.items():
    folders[path.split("/")[1]] = folders.get(path.split("/")[1], 0) + n
total = sum(counts.values())
for path in sorted(counts):
    print(f"  {counts[path]:4d}  {path}")
print("  by folder: " + ", ".join(f"{k} {v}" for k, v in sorted(folders.items())))
print(f"string-key reads of agent replies outside their decoders: {total} (at most {limit})")
if total > limit:
    print("check_agent_reads: a reply read by key: decode it where it arrives (src/*/reply.hpp) and read "
          "its members", file=sys.stderr)
    sys.exit(1)
EOF
