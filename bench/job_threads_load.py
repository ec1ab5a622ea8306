"""Does `tct job`'s thread-count mode find the difference a busy machine makes, and none on a
quiet one?

The job (tests/e2e/jobs/bucketed_scorer.py with --prep: an N x N matmul per request outside the
compiled site, where torch's intra-op threads work) runs eager at 1 and at 2 threads, first with
nothing else added, then beside a load this script starts: LOAD busy-looping Python processes,
each ending by itself after --load-seconds (bounded: nothing outlives the script by more than
that). With more runnable threads than cores, an OpenMP team of 2 waits at every barrier for a
thread that is not running; 1 thread does not. Prints each decision with its comparison.

    .venv/bin/python bench/job_threads_load.py --rounds 3 --requests 300 --prep 256
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tool_paths import ROOT, parser

SCORER = ROOT / "tests" / "e2e" / "jobs" / "bucketed_scorer.py"
BUSY = "import time\nend = time.time() + {s}\nwhile time.time() < end:\n    pass\n"


def decision(a, tmp, name):
    out = Path(tmp) / f"{name}.json"
    subprocess.run([a.tct, "job", "--modes", "eager", "--threads", "1,2", "--rounds", str(a.rounds), "--quiet",
                    "--dir", str(Path(tmp) / name), "-o", str(out), "--", a.python, str(SCORER), "--requests",
                    str(a.requests), "--prep", str(a.prep)], check=True, stdout=subprocess.DEVNULL, timeout=7200)
    job = json.loads(out.read_text())["job"]
    d = job["decision"]["as_run"]
    totals = {m["mode"]: m["total"] for m in job["modes"]}
    line = f"{name}: best {d['best']} ({totals[d['best']]['mean_ns'] / 1e9:.2f} s)"
    for o in d["others"]:
        r = o["ratio"]
        line += (f"; {o['mode']} {totals[o['mode']]['mean_ns'] / 1e9:.2f} s, {r['estimate']:.2f}x as long "
                 f"[{r['low']:.2f}, {r['high']:.2f}]: {o['verdict']}")
    return line, d


def main():
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--prep", type=int, default=256)
    ap.add_argument("--load", type=int, default=2, help="busy processes (default: 2, one per core here)")
    ap.add_argument("--load-seconds", type=float, default=900)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="job-threads-") as tmp:
        quiet, _ = decision(a, tmp, "without load")
        print(quiet, flush=True)
        busy = [subprocess.Popen([sys.executable, "-c", BUSY.format(s=a.load_seconds)]) for _ in range(a.load)]
        try:
            loaded, d = decision(a, tmp, f"with {a.load} busy processes")
        finally:
            for p in busy:
                p.terminate()
                p.wait()
        print(loaded)
        print(f"(load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
