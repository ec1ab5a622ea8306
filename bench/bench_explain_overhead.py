"""Wall time of `tct explain TARGET` over a direct `torch._dynamo.explain` call in a fresh
interpreter (tests/e2e/direct_explain.py), median of N runs each, as a ratio. The issue
aims at 1.2 or less. Both run the same target; tct also runs the second (logged) view
unless --no-logged is given, so the default ratio is the honest one for the full audit.

    python bench/bench_explain_overhead.py [--runs 3] [--target builtin:graph_breaks]
        [--tct build/tct] [--python .venv/bin/python] [--extra=--no-logged]
"""
import statistics
import subprocess
import time

from tool_paths import ROOT, parser


def wall(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(map(str, cmd))}\n{proc.stderr[-2000:]}")
    return elapsed


def main():
    ap = parser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--target", default="builtin:graph_breaks")
    ap.add_argument("--extra", action="append", default=[], help="extra tct flags, e.g. --extra=--no-logged")
    a = ap.parse_args()
    direct_cmd = [a.python, str(ROOT / "tests" / "e2e" / "direct_explain.py"), a.target]
    tct_cmd = [a.tct, "explain", a.target, "--python", a.python, "--json", "-q", *a.extra]
    direct, tct = [], []
    for _ in range(a.runs):  # interleaved, so load on a shared machine hits both alike
        direct.append(wall(direct_cmd))
        tct.append(wall(tct_cmd))
    d, t = statistics.median(direct), statistics.median(tct)
    print(f"target {a.target}, {a.runs} runs each, flags: {' '.join(a.extra) or '(default: both views)'}")
    print(f"direct torch._dynamo.explain (fresh interpreter): median {d:.2f} s  runs {[round(x, 2) for x in direct]}")
    print(f"tct explain:                                      median {t:.2f} s  runs {[round(x, 2) for x in tct]}")
    print(f"ratio tct / direct: {t / d:.2f} (aim: <= 1.2)")


if __name__ == "__main__":
    main()
