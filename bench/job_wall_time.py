"""Does `tct job` end each run's wall time at the command's exit? Each run's wall_ns against the
lifetime of its process as /proc shows it, watched beside tct (tests/e2e/process_lifetimes.py):
its fork's starttime to the first look, every 10 ms, that finds its main thread a zombie. Busy
loops beside it (--load) show how the two part under a shared machine's load; --timeout makes tct
poll the command while it runs, as a timeout or tct run's progress line does.

    .venv/bin/python bench/job_wall_time.py --rounds 3 --load 0
    .venv/bin/python bench/job_wall_time.py --rounds 3 --timeout 600 --load 4

Prints each run's wall time, its lifetime and their difference, and the median difference.
"""
import json
import statistics
import subprocess
import sys
import tempfile

from tool_paths import ROOT, parser

sys.path.insert(0, str(ROOT / "tests" / "e2e"))
from process_lifetimes import ProcessLifetimes  # noqa: E402

SCORER = ROOT / "tests" / "e2e" / "jobs" / "bucketed_scorer.py"


def main():
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=0, help="tct job --timeout (0: none)")
    ap.add_argument("--load", type=int, default=0, help="busy loops running beside it")
    args = ap.parse_args()
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.load)]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            watch = ProcessLifetimes(str(SCORER))
            watch.start()
            cmd = [args.tct, "job", "--modes", "eager,cold", "--threads", "default", "--rounds", str(args.rounds),
                   "--dir", f"{tmp}/runs", "-o", f"{tmp}/job.json"]
            if args.timeout:
                cmd += ["--timeout", str(args.timeout)]
            subprocess.run(cmd + ["--", args.python, str(SCORER), "--requests", "40"], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            watch.done.set()
            watch.join()
            diffs = []
            for mode in json.load(open(f"{tmp}/job.json"))["job"]["modes"]:
                for run in mode["runs"]:
                    seen = watch.run_seconds(run)
                    wall = run["wall_ns"] / 1e9
                    diffs.append(wall - seen)
                    print(f"{mode['mode']:6} wall {wall:7.3f} s  lifetime {seen:7.3f} s  "
                          f"wall - lifetime {1000 * (wall - seen):6.1f} ms")
            print(f"median wall - lifetime: {1000 * statistics.median(diffs):.1f} ms "
                  f"(timeout {args.timeout or 'none'}, {args.load} busy loops)")
    finally:
        for p in busy:
            p.kill()


if __name__ == "__main__":
    main()
