#!/usr/bin/env python3
"""What the extra processes cost: `tct bench` wall time divided by (cold compile +
sampling time), at default settings, on a 2-layer GPT-2 built from a Hugging Face config
(random weights). Aim: <= 1.3. Also prints the parts (the second process's start-up and
warm compile, correctness, warm-up) so the remainder is accounted for.
Usage: bench/gpt2_walltime.py [--tct build/tct] [--python .venv/bin/python] [extra bench flags]
"""
import json
import os
import subprocess
import sys
import time

from tool_paths import ROOT, parser


def main():
    ap = parser()
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    print(f"load before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    t0 = time.time()
    out = subprocess.run([args.tct, "bench", f"{ROOT}/bench/targets/held_out.py:gpt2", "--python", args.python,
                          "--json", "-q", *args.extra], capture_output=True, text=True).stdout
    wall = time.time() - t0
    row = json.loads(out)["bench"]["rows"][0]
    cold = row["compile"]["cold_ns"] / 1e9
    sampling = row["sampling_s"]
    warm = (row["compile"].get("warm_ns") or 0) / 1e9
    sp = row["speedup"]
    print(f"speedup {sp['estimate']:.2f}x [{sp['low']:.2f}, {sp['high']:.2f}] over {sp['processes']} processes; "
          f"warm compile {warm:.1f} s (cache hit: {row['compile'].get('warm_cache_hit')})")
    print(f"wall {wall:.1f} s, cold compile {cold:.1f} s, sampling {sampling:.1f} s, "
          f"rest {wall - cold - sampling:.1f} s")
    print(f"wall / (cold compile + sampling) = {wall / (cold + sampling):.2f} (aim: <= 1.3); load after: "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    sys.exit(main())
