"""Does `tct run --compare-eager` agree with the job's own timing? examples/train_loop.py
prints the median of its own steady calls of the model. Three comparisons:

- each process: the job's own median against tct's median of the same process's calls (from
  the raw per-call records tct keeps under --dir): does tct measure what the job measures?
- the same processes: the lines the job printed inside tct's own runs (compiled and forced
  eager, interleaved, --repeat N each), median of those medians. Only tct's measurement
  differs here, not the process: this is the agreement the issue asks for (within 5%);
- separate processes: the job run N times compiled and N times with its own --eager flag,
  without tct. Process-to-process noise (and each process's malloc state) enter as well.

    python bench/run_compare_eager.py [--runs 3] [--backend inductor] [--steps 60] [--no-separate]
"""
import glob
import json
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

from tool_paths import ROOT, parser

TRAIN = ROOT / "examples" / "train_loop.py"


def own_median_us(python, extra):
    out = subprocess.run([python, str(TRAIN), *extra], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"median steady call ([0-9.]+) us", out).group(1))


def record_median_us(folder, eager):
    """The median steady call of one run's records, by tct's rule (src/run/analysis.cpp:
    eager runs drop their first two calls, compiled runs each compiling call, the call
    after it, and the first)."""
    (path,) = glob.glob(str(folder / "records" / "process-*.json"))
    site = json.loads(Path(path).read_text())["sites"][0]
    times = site["durations_ns"]
    skip = {0, 1} if eager else {0, *site["compile_calls"], *(i + 1 for i in site["compile_calls"])}
    return statistics.median(t for i, t in enumerate(times) if i not in skip) / 1e3


def main():
    ap = parser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--steps", default="60")
    ap.add_argument("--width", default="256")
    ap.add_argument("--no-separate", action="store_true", help="skip the separate-process runs")
    a = ap.parse_args()
    job = ["--backend", a.backend, "--steps", a.steps, "--width", a.width]
    compiled, eager = [], []
    for _ in range(0 if a.no_separate else a.runs):
        compiled.append(own_median_us(a.python, job))
        eager.append(own_median_us(a.python, job + ["--eager"]))
    own = statistics.median(eager) / statistics.median(compiled) if compiled else float("nan")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        proc = subprocess.run([a.tct, "run", "--compare-eager", "--repeat", str(a.runs), "-q", "-o", str(out), "--dir",
                               str(Path(tmp) / "run"), "--", a.python, str(TRAIN), *job],
                              check=True, capture_output=True, text=True)
        site = json.loads(out.read_text())["run"]["processes"][0]["sites"][0]
        # The runs in the order they ran (and printed): compiled, eager-1, compiled-2, eager-2, ...
        folders = [Path(tmp) / "run" / name for i in range(1, a.runs + 1)
                   for name in (("compiled" if i == 1 else f"compiled-{i}"), f"eager-{i}")]
        per_process = [record_median_us(f, eager=f.name.startswith("eager")) for f in folders]
    sp = site["eager"]["speedup"]
    # tct runs the job compiled, then eager, N times in turn: the job's own lines alternate.
    inside = [float(x) for x in re.findall(r"median steady call ([0-9.]+) us", proc.stdout)]
    same = statistics.median(inside[1::2]) / statistics.median(inside[0::2])
    diff_same = (sp["estimate"] - same) / same * 100
    gaps = [(t - j) / j * 100 for t, j in zip(per_process, inside)]
    same_rule = statistics.median(per_process[1::2]) / statistics.median(per_process[0::2])
    diff = (sp["estimate"] - own) / own * 100
    if compiled:
        print(f"job's own timing ({a.runs} runs each, median of medians): eager {statistics.median(eager):.1f} us, "
              f"compiled {statistics.median(compiled):.1f} us, speedup {own:.3f}x")
    print(f"tct run --compare-eager --repeat {a.runs}: speedup {sp['estimate']:.3f}x [{sp['low']:.3f}, {sp['high']:.3f}] "
          f"({site['eager']['verdict']}); eager {site['eager']['eager']['median_ns'] / 1e3:.1f} us, "
          f"compiled {site['eager']['compiled']['median_ns'] / 1e3:.1f} us")
    print(f"the job's own timing inside tct's runs (the same processes): eager {statistics.median(inside[1::2]):.1f} us, "
          f"compiled {statistics.median(inside[0::2]):.1f} us, speedup {same:.3f}x")
    print("each process, the job's own median against tct's records of it (us): " +
          ", ".join(f"{f.name} {j:.1f} vs {t:.1f} ({g:+.1f}%)" for f, j, t, g in zip(folders, inside, per_process, gaps)))
    print(f"tct's records aggregated like the job's lines (median of per-run medians): speedup {same_rule:.3f}x, "
          f"{(same_rule - same) / same * 100:+.1f}% from the job's own; tct's pooled estimate {sp['estimate']:.3f}x")
    print(f"difference, same processes: {diff_same:+.1f}% (aim: within 5%); separate processes: {diff:+.1f}%")


if __name__ == "__main__":
    main()
