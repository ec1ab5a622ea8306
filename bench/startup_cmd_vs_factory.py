"""`tct startup -- CMD` against `tct startup FILE:FACTORY` on the same model: the tiny conv
service of tests/e2e/jobs/conv_service.py as a command, and its model as
tests/e2e/jobs/service_model.py:make_model. Each mode's median first output and its
order-statistic interval, side by side, and their ratio.

    .venv/bin/python bench/startup_cmd_vs_factory.py --repeats 6
    .venv/bin/python bench/startup_cmd_vs_factory.py --modes eager,cold,warm,shipped --repeats 4

Both are timed from launch. The command form adds tct run's bootstrap (sitecustomize, the
recorder, a TORCH_TRACE in every mode) and, forced eager, still calls torch.compile, which
imports Dynamo: its eager row is also compared with the factory's eager plus the factory's
torch.compile set-up phase (its warm start's). The two forms run one after the other.
"""
import json
import subprocess

from tool_paths import ROOT, parser

JOBS = ROOT / "tests" / "e2e" / "jobs"


def startup(args, form):
    r = subprocess.run([args.tct, "startup", "--modes", args.modes, "--repeats", str(args.repeats), "--quiet",
                        "--json", *form], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"tct startup {' '.join(form)} failed ({r.returncode}): {r.stderr.strip()}")
    return {m["mode"]: m for m in json.loads(r.stdout)["startup"]["modes"]}


def cell(m):
    if m["first_output_ns"] is None:
        return "failed"
    s = f"{m['first_output_ns'] / 1e9:.2f} s"
    if m["low_ns"] is not None:
        s += f" [{m['low_ns'] / 1e9:.2f} .. {m['high_ns'] / 1e9:.2f}]"
    return s


def main():
    ap = parser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=6)
    ap.add_argument("--modes", default="eager,cold,warm")
    ap.add_argument("--requests", type=int, default=3)
    args = ap.parse_args()
    cmd = startup(args, ["--", args.python, str(JOBS / "conv_service.py"), str(args.requests)])
    fac = startup(args, [f"{JOBS / 'service_model.py'}:make_model", "--python", args.python])
    print(f"{args.repeats} fresh processes per mode; median first output [order-statistic interval]; "
          f"coverage {cmd[next(iter(cmd))]['coverage']:.0%}")
    print(f"{'mode':8} {'tct startup -- CMD':28} {'tct startup FILE:FACTORY':28} {'ratio':>6}")
    setup = (fac.get("warm") or fac.get("cold") or {}).get("phases", {}).get("compile_setup_ns")
    for mode in cmd:
        c, f = cmd[mode], fac[mode]
        ratio = c["first_output_ns"] / f["first_output_ns"] if c["first_output_ns"] and f["first_output_ns"] else None
        print(f"{mode:8} {cell(c):28} {cell(f):28} {ratio:6.2f}" if ratio else f"{mode:8} {cell(c):28} {cell(f):28}")
    if "eager" in cmd and setup and fac["eager"]["first_output_ns"]:
        with_setup = fac["eager"]["first_output_ns"] + setup
        print(f"eager, the factory's plus its torch.compile set-up ({setup / 1e9:.2f} s): {with_setup / 1e9:.2f} s, "
              f"ratio {cmd['eager']['first_output_ns'] / with_setup:.2f}")


if __name__ == "__main__":
    main()
