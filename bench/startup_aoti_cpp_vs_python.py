"""The same AOTInductor package loaded and run from C++ (tct-aoti, the runner `tct startup`
builds) and from Python (torch._inductor.aoti_load_package), each in fresh processes: the
load time and the per-call time of each, and their ratios.

    .venv/bin/python bench/startup_aoti_cpp_vs_python.py --repeats 3
    .venv/bin/python bench/startup_aoti_cpp_vs_python.py --target builtin:mlp --param width=64

The runner is the one tct built for this interpreter's torch, as `tct startup TARGET
--build-runner-only` names it (and builds it when it is not there yet). The package is made here, once.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tool_paths import ROOT, add_params, params_of, parser

# A fresh interpreter loads the package and times it: import torch, aoti_load_package, the
# first call, then steady calls (as tct-aoti does after its first call).
PYTHON_LOAD = r"""
import sys, time, json
t0 = time.monotonic_ns()
import torch
sys.path.insert(0, sys.argv[3])
from tct_agent.aoti_inputs import read_inputs
args, kwargs = read_inputs(sys.argv[2])
t1 = time.monotonic_ns()
m = torch._inductor.aoti_load_package(sys.argv[1])
t2 = time.monotonic_ns()
with torch.no_grad():
    m(*args, **kwargs)
    t3 = time.monotonic_ns()
    steady = []
    for _ in range(30):
        s = time.perf_counter_ns(); m(*args, **kwargs); steady.append(time.perf_counter_ns() - s)
print(json.dumps({"import_ns": t1 - t0, "load_ns": t2 - t1, "first_call_ns": t3 - t2, "steady_ns": steady}))
"""


def make_package(python, target, params, folder):
    code = (f"import sys; sys.path.insert(0, {str(ROOT / 'python')!r})\n"
            "from tct_agent.ops import startup\n"
            f"print(startup.op_package({{'target': {target!r}, 'params': {params!r}, "
            f"'package': {str(folder / 'model.pt2')!r}, 'inputs': {str(folder / 'inputs')!r}}}, None))")
    subprocess.run([python, "-c", code], check=True, capture_output=True, env=dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(folder / "c")))


def find_runner(tct, python):
    """The runner tct built for this torch, as tct names it (built now if it is not yet)."""
    out = subprocess.run([tct, "startup", "builtin:tiny_ops", "--build-runner-only", "--python", python],
                         capture_output=True, text=True).stdout
    match = re.search(r"the runner is (\S+)", out)
    if not match:
        sys.exit(f"tct built no runner here:\n{out}")
    return match.group(1)


def main():
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="builtin:tiny_ops")
    add_params(ap)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    params = params_of(a)
    runner = find_runner(a.tct, a.python)
    with tempfile.TemporaryDirectory() as d:
        d = Path(d)
        make_package(a.python, a.target, params, d)
        cpp, py = [], []
        for i in range(a.repeats):
            out = d / f"out{i}"
            out.mkdir()
            launch = time.monotonic_ns()
            r = json.loads(subprocess.run([runner, str(d / "model.pt2"), str(d / "inputs"), str(out)],
                                          check=True, capture_output=True, text=True).stdout)
            marks = r["marks_ns"]
            cpp.append({"start_ns": marks["first_output"] - launch, "load_ns": marks["package_loaded"] - marks["inputs_loaded"],
                        "per_call_ns": statistics.median(r["steady_ns"][2:])})
            launch = time.monotonic_ns()
            p = json.loads(subprocess.run([a.python, "-c", PYTHON_LOAD, str(d / "model.pt2"), str(d / "inputs"),
                                           str(ROOT / "python")], check=True, capture_output=True, text=True).stdout)
            py.append({"start_ns": time.monotonic_ns() - launch, "load_ns": p["load_ns"],
                       "per_call_ns": statistics.median(p["steady_ns"][2:])})
    print(f"{'':22} {'C++ (tct-aoti)':>15} {'Python':>12} {'Python/C++':>11}")
    for key, label in (("load_ns", "aoti load"), ("per_call_ns", "per call"), ("start_ns", "launch to output*")):
        c = statistics.median(x[key] for x in cpp)
        p = statistics.median(x[key] for x in py)
        print(f"{label:22} {c / 1e6:13.3f}ms {p / 1e6:10.3f}ms {p / c:10.1f}x")
    print("* Python's: launch to the end of its timed calls (an upper bound); C++'s: to its first output")
    return 0


if __name__ == "__main__":
    sys.exit(main())
