"""`tct run`'s breakdown of a call site's time in a real job (tests/e2e/jobs/shape_cycle_job.py:
one compiled function called over ENTRIES input shapes), beside torch's profiler in a plain
script in a fresh process, and beside the same job run with --no-breakdown.

For each ENTRIES: the parts (median per sampled call, 95% interval) and their sum against the
sampled call's interval, the lookup beside the plain script's median of torch's `TorchDynamo
Cache Lookup` events, what sampling cost the job, and the site's steady median with sampling
on and off (the unsampled calls the job's figures are made of), medians of --runs runs each,
interleaved.

    python bench/run_breakdown_figures.py [--entries 1 8] [--calls 3000] [--runs 3] [--tct build/tct]
        [--python .venv/bin/python]
"""
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

from tool_paths import ROOT, parser

JOB = ROOT / "tests" / "e2e" / "jobs" / "shape_cycle_job.py"


def us(ns):
    return f"{ns / 1e3:.2f} us"


def site_of(args, entries, *flags):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        subprocess.run([args.tct, "run", "--python", args.python, "--threads", "1", "-o", str(out), *flags, "--",
                        args.python, str(JOB), str(entries), str(args.calls)], capture_output=True, check=True)
        (proc,) = json.loads(out.read_text())["run"]["processes"]
        return proc["sites"][0]


def main():
    ap = parser(description=__doc__)
    ap.add_argument("--entries", type=int, nargs="+", default=[1, 8])
    ap.add_argument("--calls", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    for entries in args.entries:
        on, off, plain = [], [], []
        for _ in range(args.runs):
            on.append(site_of(args, entries))
            off.append(site_of(args, entries, "--no-breakdown"))
            plain.append(float(subprocess.run([args.python, str(JOB), str(entries), "200", "--plain"],
                                              capture_output=True, text=True, check=True).stdout.split()[-1]))
        b = on[len(on) // 2]["breakdown"]  # one run's parts, as a report shows them
        call = b["call"]
        print(f"== entries={entries}, {args.calls} calls, {args.runs} runs each way (parts: one run)")
        total = 0
        for name, p in call["parts"].items():
            total += p["median_ns"]
            print(f"   {name:9s} {us(p['median_ns']):>10s} [{us(p['low_ns'])}, {us(p['high_ns'])}]")
        prof = call["profiled"]
        print(f"   sum of parts {us(total)}; sampled call {us(prof['median_ns'])} [{us(prof['low_ns'])}, "
              f"{us(prof['high_ns'])}] ({call['calls']} calls in {b['windows']} windows)")
        for f in call["frames"]:
            print(f"   chain: {len(f['entries'])} entries, the sampled calls hit position {f['hit_position']}, "
                  f"guard counts {[e['guard_count'] for e in f['entries']]}")
        lookups = [s["breakdown"]["call"]["parts"]["lookup"]["median_ns"] for s in on]
        lookup, p = statistics.median(lookups), statistics.median(plain)
        print(f"   lookup: tct run {us(lookup)}, plain script's torch.profiler {us(p)} ({100 * (lookup / p - 1):+.0f}%) "
              f"(medians of {args.runs})")
        cost = statistics.median(s["breakdown"]["cost_ns"] for s in on)
        share = statistics.median(s["breakdown"]["job_share"] for s in on)
        print(f"   sampling cost the job {cost / 1e6:.1f} ms ({100 * share:.2f}% of its wall time) (median of {args.runs})")
        m_on = statistics.median(s["steady_calls"]["median_ns"] for s in on)
        m_off = statistics.median(s["steady_calls"]["median_ns"] for s in off)
        print(f"   steady median per call: {us(m_on)} with sampling ({on[0]['steady_calls']['calls']} unsampled calls), "
              f"{us(m_off)} with --no-breakdown ({off[0]['steady_calls']['calls']} calls): {m_on / m_off:.3f}x")


if __name__ == "__main__":
    main()
