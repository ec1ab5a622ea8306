"""tct job --shape-fixes on a job of its own (tests/e2e/jobs/varying_batch_mlp.py: an MLP whose
batch size is drawn from a seeded list), on torch 2.13.0 (.venv) and 2.15.0 (.venv-torch2.15),
each fact held to a record made without tct: the sizes the job sends (its seeded list, drawn
here), the recompiles in torch's own compilation_metrics of each run's trace, the job's stdout
files, torch.compile's signature in a fresh process of each interpreter, and the code tct
prints, taken from its text and run in a plain script in a fresh process on both torches (the
recompiles that script's own trace shows are those tct reported). aot_eager: compile cost, not
codegen, is what is tested; speed figures come from bench/job_shape_fixes.py."""
import json
import math
import os
import random
import re
import subprocess

import pytest

from tct_run import PYTHON, ROOT, run_tct
from test_run_jobs import trace_metrics
from test_schema import validate

JOBS = ROOT / "tests" / "e2e" / "jobs"
JOB = JOBS / "varying_batch_mlp.py"
REQUESTS = 24
PY215 = ROOT / ".venv-torch2.15" / "bin" / "python"
FIXES = ["static", "dynamic", "mark_dynamic", "mark_unbacked", "spec"]


def sent_sizes():
    """The batch sizes the job sends, drawn here as the job draws them (random.Random(7))."""
    pick = random.Random(7)
    return [pick.choice((3, 5, 7, 9, 11)) for _ in range(REQUESTS)]


def run_job(tmp, python, rounds, modes):
    out, html, md = tmp / "job.json", tmp / "job.html", tmp / "job.md"
    r = run_tct("job", "--modes", modes, "--threads", "default", "--rounds", rounds, "--shape-fixes", "all",
                "--dir", tmp / "runs", "-o", out, "-o", html, "-o", md, "--", python, JOB, REQUESTS,
                env={"MLP_BACKEND": "aot_eager"}, timeout=1800)
    assert r.rc == 0, r
    return r, json.loads(out.read_text()), html.read_text(), md.read_text()


@pytest.fixture(scope="module")
def on213(tmp_path_factory):
    return run_job(tmp_path_factory.mktemp("shapefix213"), PYTHON, 2, "eager,cold")


@pytest.fixture(scope="module")
def on215(tmp_path_factory):
    if not PY215.exists():
        pytest.skip(".venv-torch2.15 is not set up")
    return run_job(tmp_path_factory.mktemp("shapefix215"), PY215, 1, "cold")


def fixes_of(doc):
    return {x["fix"]: x for x in doc["job"]["shape_fixes"]["fixes"]}


def mode(doc, label):
    (m,) = [m for m in doc["job"]["modes"] if m["mode"] == label]
    return m


def trace_recompiles(run):
    """Recompiles in the run's own trace: compiles with a recompile reason that did not fail."""
    metrics = trace_metrics(os.path.join(run["dir"], "trace"))
    return sum(1 for m in metrics.values() if m.get("recompile_reason") and not m.get("fail_type"))


def printed_code(text):
    """fix -> the code tct's text says to write (`code` after "FIX: write")."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^\s*(\w+): write `([^`]+)`", text, re.M)}


def test_document_validates_and_reads_the_shapes_the_job_sent(on213):
    r, doc, html, md = on213
    validate(doc)
    s = doc["job"]["shape_fixes"]
    sizes = sent_sizes()
    (v,) = s["varied"]
    assert (v["input"], v["dim"], v["position"], v["rank"]) == ("feats", 0, 0, 2)
    assert (v["min"], v["max"], v["sizes"]) == (min(sizes), max(sizes), len(set(sizes)))
    assert [x["fix"] for x in s["fixes"]] == FIXES
    assert all(x["not_run"] is None for x in s["fixes"]), s["fixes"]
    assert "Shape fixes" in html and "Shape fixes" in md


@pytest.mark.parametrize("which", ["213", "215"])
def test_the_api_is_the_installed_torchs_own(which, on213, on215):
    doc = (on213 if which == "213" else on215)[1]
    python = PYTHON if which == "213" else PY215
    probe = subprocess.run([str(python), "-c", (
        "import inspect, json, torch; ps = inspect.signature(torch.compile).parameters; "
        "print(json.dumps({'torch': torch.__version__, 'kw': [k for k in ('dynamic_shapes', 'shapes_spec') if k in ps]}))")],
        capture_output=True, text=True, check=True, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    seen = json.loads(probe.stdout)
    api = doc["job"]["shape_fixes"]["api"]
    assert api["torch"] == seen["torch"]
    assert [api["spec_keyword"]] == seen["kw"]  # 2.13: shapes_spec; 2.15: dynamic_shapes
    assert api["mark_dynamic"] == "torch._dynamo.mark_dynamic"


def test_recompiles_are_the_traces_own(on213):
    doc = on213[1]
    sizes = len(set(sent_sizes()))
    counts = {}
    for x in doc["job"]["shape_fixes"]["fixes"] + [{"fix": "default", "mode": "cold", "recompiles": None}]:
        m = mode(doc, x["mode"])
        per_run = [trace_recompiles(run) for run in m["runs"]]
        tct = max(s["recompiles"] for s in m["sites"])
        assert tct == max(per_run), (x["mode"], per_run)
        if x["recompiles"] is not None:
            assert x["recompiles"] == tct
        counts[x["fix"]] = tct
    # What each fix is for: one graph per size when static, none after the first when the dim is
    # marked or spec'd, one (automatic dynamic) by default.
    assert counts["static"] == sizes - 1
    assert counts["default"] == 1
    assert counts["mark_dynamic"] == counts["mark_unbacked"] == counts["spec"] == counts["dynamic"] == 0


def test_the_jobs_output_is_the_same_every_way(on213):
    doc = on213[1]
    outputs = {}
    for m in doc["job"]["modes"]:
        assert m["output"]["compared"] and m["output"]["same"], m["mode"]
        for run in m["runs"]:
            with open(os.path.join(run["dir"], "stdout.txt")) as f:
                outputs[(m["mode"], run["round"])] = f.read().splitlines()
    eager = outputs[("eager", 1)]
    assert eager[-1].startswith(f"scored {REQUESTS} requests")
    for key, lines in outputs.items():
        assert len(lines) == len(eager), key
        for a, b in zip(lines, eager):
            na, nb = float(a.split()[-1]), float(b.split()[-1])
            assert math.isclose(na, nb, rel_tol=1e-3, abs_tol=1e-3), (key, a, b)


def test_each_verdict_follows_the_rule_on_its_paired_rounds(on213):
    doc = on213[1]
    cold = {r["round"]: r["wall_ns"] for r in mode(doc, "cold")["runs"] if r["ok"]}
    for x in doc["job"]["shape_fixes"]["fixes"]:
        runs = {r["round"]: r["wall_ns"] for r in mode(doc, x["mode"])["runs"] if r["ok"]}
        logs = [math.log(cold[k] / runs[k]) for k in sorted(set(cold) & set(runs))]
        assert len(logs) == 2
        assert x["speedup"]["estimate"] == pytest.approx(math.exp(sum(logs) / len(logs)), rel=1e-6)
        lo, hi = x["speedup"]["low"], x["speedup"]["high"]
        assert lo <= x["speedup"]["estimate"] <= hi
        expected = {True: "faster"}.get(lo > 1) or {True: "slower"}.get(hi < 1)
        if expected:
            assert x["verdict"] == expected
        else:
            assert x["verdict"] in ("no_clear_difference", "inconclusive")


PLAIN = """
import sys, torch
sys.path.insert(0, {jobs!r})
from varying_batch_mlp import make_model, batches
# The job's backend: the printed torch.compile line keeps the user's other arguments.
torch.compiler.set_default_backend("aot_eager")
{imports}
model = make_model()
code = {code!r}
compiled = eval(code) if code.startswith("torch.compile(") else torch.compile(model)
with torch.no_grad():
    for feats in batches({requests}):
        if not code.startswith("torch.compile("):
            exec(code)
        compiled(feats)
print("ran")
"""


@pytest.mark.parametrize("which", ["213", "215"])
def test_the_printed_code_runs_and_recompiles_as_reported(which, on213, on215, tmp_path):
    r, doc, _, _ = on213 if which == "213" else on215
    python = PYTHON if which == "213" else PY215
    text = r.out + r.err
    printed = printed_code(text)
    fixes = fixes_of(doc)
    assert set(printed) == set(FIXES), text
    if which == "213":
        assert "shapes_spec=ParamsSpec(" in printed["spec"]
        lo, hi = min(sent_sizes()), max(sent_sizes())
        assert printed["mark_dynamic"] == f"torch._dynamo.mark_dynamic(feats, 0, min={lo}, max={hi})"
    else:
        assert "dynamic_shapes=ParamsSpec(" in printed["spec"]
    for fix, code in printed.items():
        (c,) = fixes[fix]["code"]
        assert c["code"] == code
        script = tmp_path / f"plain_{fix}.py"
        script.write_text(PLAIN.format(jobs=str(JOBS), imports="\n".join(c["imports"]), code=code,
                                       requests=REQUESTS))
        trace = tmp_path / f"trace_{fix}"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["TORCH_TRACE"] = str(trace)
        p = subprocess.run([str(python), str(script)], capture_output=True, text=True, env=env, timeout=600)
        assert p.returncode == 0 and p.stdout.strip() == "ran", (fix, code, p.stderr[-3000:])
        recompiles = sum(1 for m in trace_metrics(str(trace)).values()
                         if m.get("recompile_reason") and not m.get("fail_type"))
        assert recompiles == fixes[fix]["recompiles"], (fix, code)
