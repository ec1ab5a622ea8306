"""tct's suite, compare and trace verdicts against independent references, on real runs.

  suite:   the geometric-mean speedup of a real `tct suite` document, recomputed from its
           entries with statistics.geometric_mean, and its interval with numpy (each
           entry's 95% interval on the log scale, independent errors added in quadrature,
           as the suite schema documents);
  compare: `tct compare` of two real suite runs, and of the first against a copy with one
           entry 30% slower, against a hand computation of each entry's ratio, interval,
           change (regression / improvement / unchanged) and gate;
  trace:   per-rank counts of `tct trace` (graphs, graph breaks, recompiles, restarts,
           compiled frames) against what tlparse 0.4.3 writes for the same TORCH_TRACE logs
           of real compiles (its compile_directory.json per rank).

Prints one line per check and exits 1 when any disagrees.

    python bench/check_verdicts.py [--tct build/tct] [--python .venv/bin/python]
        [--tlparse .venv/bin/tlparse] [--work /tmp/tct-check-verdicts]
"""
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from bench_trace_reader import MODEL
from tool_paths import ROOT, parser

SUITE = """
[defaults]
backend = ["eager", "aot_eager"]
budget = 1
no-compile-time = true
no-memory = true

[[target]]
spec = "builtin:mlp"
params = { batch = 8, width = 64 }

[[target]]
spec = "builtin:tiny_ops"
"""
MAX_REGRESSION = 0.05
FAILURES = []


def check(name, ok, detail):
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}", flush=True)
    if not ok:
        FAILURES.append(name)


def close(a, b, rel=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=rel)


def tct_json(args, *cmd, ok=(0, 1, 3)):
    p = subprocess.run([args.tct, *map(str, cmd), "--json", "-q"], capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit(f"tct {cmd[0]} failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)


# ---------------------------------------------------------------- suite

def check_geomean(doc, name):
    passing = [e["result"]["speedup"] for e in doc["suite"]["entries"]
               if e["status"] == "ok" and isinstance(e["result"].get("speedup"), dict)]
    g = doc["suite"]["summary"]["geomean_speedup"]
    est = statistics.geometric_mean([s["estimate"] for s in passing])
    logs = np.log([s["estimate"] for s in passing])
    below = np.log([s["estimate"] / s["low"] for s in passing])
    above = np.log([s["high"] / s["estimate"] for s in passing])
    n = len(passing)
    low = float(np.exp(logs.mean() - np.sqrt(np.sum(below ** 2)) / n))
    high = float(np.exp(logs.mean() + np.sqrt(np.sum(above ** 2)) / n))
    check(f"suite geomean ({name})", g["n"] == n and close(g["estimate"], est) and close(g["low"], low)
          and close(g["high"], high),
          f"tct {g['estimate']:.6f} [{g['low']:.6f}, {g['high']:.6f}] over {g['n']}; "
          f"reference {est:.6f} [{low:.6f}, {high:.6f}] over {n}")


# ---------------------------------------------------------------- compare

def hand_compare(base, cur):
    """The change and gate of one entry from the two speedups, by hand."""
    b, c = base["result"]["speedup"], cur["result"]["speedup"]
    l = math.log(c["estimate"] / b["estimate"])
    down = math.hypot(math.log(c["estimate"] / c["low"]), math.log(b["high"] / b["estimate"]))
    up = math.hypot(math.log(c["high"] / c["estimate"]), math.log(b["estimate"] / b["low"]))
    ratio = (math.exp(l), math.exp(l - down), math.exp(l + up))
    change = "regression" if ratio[2] < 1 else "improvement" if ratio[1] > 1 else "unchanged"
    return ratio, change, change == "regression" and ratio[2] < 1 - MAX_REGRESSION


def check_compare(args, work, base_path, cur_path, name):
    base, cur = (json.loads(Path(p).read_text()) for p in (base_path, cur_path))
    cmp = tct_json(args, "compare", base_path, cur_path, "--max-regression", f"{MAX_REGRESSION:.0%}")["compare"]
    items = {i["id"]: i for i in cmp["items"]}
    cur_by_id = {e["id"]: e for e in cur["suite"]["entries"]}
    gate = False
    for b in base["suite"]["entries"]:
        c = cur_by_id[b["id"]]
        if b["status"] != "ok" or c["status"] != "ok":
            continue
        (est, lo, hi), change, failed = hand_compare(b, c)
        gate = gate or failed
        item = items[b["id"]]
        r = item["ratio"]
        check(f"compare {name} {b['id']}", item["change"] == change and item["gate_failed"] == failed
              and close(r["estimate"], est) and close(r["low"], lo) and close(r["high"], hi),
              f"tct {item['change']}{' (gate)' if item['gate_failed'] else ''} {r['estimate']:.4f} "
              f"[{r['low']:.4f}, {r['high']:.4f}]; hand {change}{' (gate)' if failed else ''} "
              f"{est:.4f} [{lo:.4f}, {hi:.4f}]")
    check(f"compare {name} passed", cmp["passed"] == (not gate), f"tct passed={cmp['passed']}, hand {not gate}")


def slower_copy(path, out, factor=0.7):
    """The document with its passing entry of the narrowest interval `factor` times as fast
    (interval and all): a drop the intervals can see, so that the regression and the gate
    are called."""
    doc = json.loads(Path(path).read_text())
    passing = [e for e in doc["suite"]["entries"] if e["status"] == "ok"]
    e = min(passing, key=lambda e: e["result"]["speedup"]["high"] / e["result"]["speedup"]["low"])
    e["result"]["speedup"] = {k: (v * factor if k in ("estimate", "low", "high") else v)
                              for k, v in e["result"]["speedup"].items()}
    Path(out).write_text(json.dumps(doc))
    return out


# ---------------------------------------------------------------- trace

def real_trace(args, work, name, script_text, *script_args):
    raw = work / f"raw_{name}"
    shutil.rmtree(raw, ignore_errors=True)
    script = work / f"{name}.py"
    script.write_text(script_text)
    env = dict(os.environ, TORCH_TRACE=str(raw), TORCHINDUCTOR_CACHE_DIR=str(work / "inductor-cache"))
    subprocess.run([args.python, str(script), *script_args], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    (log,) = raw.iterdir()
    return log


def tlparse_counts(compile_directory):
    """Per rank, from tlparse's compile_directory.json: compile ids are "[frame/attempt]"
    or "[frame/attempt_restart]"; a restart is an id with a restart number; each artifact
    names what the compile produced."""
    d = json.loads(Path(compile_directory).read_text())
    ids = [k for k in d if k != "[-/-]"]
    arts = {k: [a["name"] if isinstance(a, dict) else a for a in d[k]["artifacts"]] for k in ids}
    has = lambda k, prefix: any(a.startswith(prefix) for a in arts[k])  # noqa: E731
    return {"graph_count": sum(has(k, "dynamo_output_graph") for k in ids),
            "graph_break_count": sum(has(k, "dynamo_graph_break_reason") for k in ids),
            "recompiles": sum(has(k, "recompile_reasons") for k in ids),
            "restarts": sum("_" in k.strip("[]").split("/")[1] for k in ids),
            "compile_count": len({k.strip("[]").split("_")[0] for k in ids})}


def check_trace(args, work):
    job = work / "job"
    shutil.rmtree(job, ignore_errors=True)
    job.mkdir()
    make_trace = (ROOT / "tests" / "e2e" / "fixtures" / "make_trace.py").read_text()
    logs = [real_trace(args, work, "same", make_trace, "same"), real_trace(args, work, "differs", make_trace, "differs"),
            real_trace(args, work, "inductor_model", MODEL)]
    for rank, log in enumerate(logs):
        shutil.copy(log, job / f"dedicated_log_torch_trace_rank_{rank}_x.log")
    out = work / "tl_out"
    subprocess.run([args.tlparse, job, "-o", out, "--overwrite", "--no-browser", "--all-ranks-html"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ranks = tct_json(args, "trace", job, ok=(0,))["trace"]["ranks"]
    for r in ranks:
        ref = tlparse_counts(out / f"rank_{r['rank']}" / "compile_directory.json")
        got = {"graph_count": r["graph_count"], "graph_break_count": r["graph_break_count"],
               "recompiles": len(r["recompiles"]), "restarts": len(r["restarts"]), "compile_count": r["compile_count"]}
        check(f"trace rank {r['rank']} ({logs[r['rank']].parent.name[4:]})", got == ref, f"tct {got}; tlparse {ref}")


def main():
    ap = parser()
    ap.add_argument("--tlparse", default=str(ROOT / ".venv" / "bin" / "tlparse"))
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "tct-check-verdicts"))
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", flush=True)

    (work / "suite.toml").write_text(SUITE)
    runs = []
    for i in (1, 2):
        path = work / f"run{i}.json"
        tct_json(args, "suite", work / "suite.toml", "--python", args.python, "-o", path)
        check_geomean(json.loads(path.read_text()), f"run {i}")
        runs.append(path)
    check_compare(args, work, runs[0], runs[1], "run 1 -> run 2")
    check_compare(args, work, runs[0], slower_copy(runs[0], work / "slower.json"), "run 1 -> 30% slower copy")
    check_trace(args, work)
    print(f"{len(FAILURES)} disagreement(s)" if FAILURES else "all agree")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
