"""The call breakdown of `tct bench` on an overhead-bound model (tests/e2e/fixtures/
overhead_targets.py: a Linear, a float and an int attribute, ENTRIES cache entries that the
calls cycle through), beside torch's profiler in a plain script in a fresh process.

For each ENTRIES: tct's parts (median per profiled call, 95% interval), the sum of the parts
against the profiled call's interval, what sampling costs, the entry frame's chain (entries,
hit position, guard checks up to the hit), the lookup beside the plain script's median of
torch's `TorchDynamo Cache Lookup` events, and each fix's A/B.

    python bench/breakdown_figures.py [--entries 1 8] [--budget 2] [--tct build/tct] [--python .venv/bin/python]
"""
import json
import subprocess

from tool_paths import ROOT, parser

TARGET = ROOT / "tests" / "e2e" / "fixtures" / "overhead_targets.py"


def us(ns):
    return "n/a" if ns is None else f"{ns / 1e3:.1f} us"


def main():
    ap = parser(description=__doc__)
    ap.add_argument("--entries", type=int, nargs="+", default=[1, 8])
    ap.add_argument("--budget", default="2")
    args = ap.parse_args()
    for entries in args.entries:
        cmd = [args.tct, "bench", f"{TARGET}:cycling", "--param", f"entries={entries}", "--backend", "aot_eager",
               "--dynamic", "false", "--budget", args.budget, "--no-compile-time", "--no-allocator-compare",
               "--no-check", "--json", "--python", args.python]
        doc = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=False).stdout)
        row = doc["bench"]["rows"][0]
        b = row["breakdown"]
        print(f"== entries={entries}: compiled call {us(row['latency']['compiled']['median'])} (timed blocks)")
        print(f"   window: bare {us(b['bare']['median_ns'])}, profiled {us(b['profiled']['median_ns'])} "
              f"[{us(b['profiled']['low_ns'])}, {us(b['profiled']['high_ns'])}], sampling costs {us(b['sampling_cost_ns'])}")
        total = 0
        for name, p in b["parts"].items():
            total += p["median_ns"]
            print(f"   {name:9s} {us(p['median_ns']):>10s} [{us(p['low_ns'])}, {us(p['high_ns'])}]")
        print(f"   sum of parts {us(total)}")
        for f in b["frames"]:
            if f["entry_frame"]:
                print(f"   chain: {len(f['entries'])} entries, hit at {f['hit_position']}, "
                      f"guard checks to the hit {us(f['lookup_guards_ns'])}, guard counts "
                      f"{[e['guard_count'] for e in f['entries']]}")
        plain = float(subprocess.run([args.python, str(TARGET), str(entries)],
                                     capture_output=True, text=True, check=True).stdout.split()[-1])
        lookup = b["parts"]["lookup"]["median_ns"]
        print(f"   lookup: tct {us(lookup)}, plain script's profiler {us(plain)} ({100 * (lookup / plain - 1):+.0f}%)")
        for fx in b["fixes"]:
            if "not_tried" in fx:
                print(f"   fix {fx['fix']}: not tried: {fx['not_tried']}")
            else:
                s = fx["speedup"]
                print(f"   fix {fx['fix']}: {s['estimate']:.3f}x [{s['low']:.3f}, {s['high']:.3f}] {fx['verdict']}, "
                      f"saves {us(fx['saves']['median_ns'])} ({fx['pairs']} pairs)")


if __name__ == "__main__":
    main()
