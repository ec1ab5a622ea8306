"""tct job's AOTInductor mode on a job written for it (tests/e2e/jobs/mlp_batches.py: a tiny MLP
service whose batches run from 3 to 11 rows), each fact checked against an independent record:
the sizes the job itself says it sent; the range torch's own exported program holds; the
package tct built, loaded here in a plain script in a fresh process and called on the job's
own requests at its smallest and largest batch against the model run eagerly there; the job's
stdout in the aoti runs against eager's. With --gate the job's site branches on a tensor's
value: the mode says it cannot run, with the error torch.export gives a plain script here.
Two package builds at most in the whole file (AOTInductor compiles with g++ on 2 cores): one."""
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tct_run import PYTHON, ROOT, run_tct
from test_schema import validate

JOB = ROOT / "tests" / "e2e" / "jobs" / "mlp_batches.py"


def plain_env():
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # no bootstrap: torch as the user has it
    return env


@pytest.fixture(scope="module")
def mlp(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("job-aoti")
    out, html = tmp / "job.json", tmp / "job.html"
    r = run_tct("job", "--modes", "eager,aoti", "--threads", "default", "--rounds", "2", "--dir", tmp / "runs",
                "-o", out, "-o", html, "--", PYTHON, JOB, timeout=900)
    assert r.rc == 0, r
    return r, json.loads(out.read_text()), html.read_text(), tmp


@pytest.fixture(scope="module")
def gate(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("job-aoti-gate")
    out = tmp / "job.json"
    r = run_tct("job", "--modes", "eager,aoti", "--threads", "default", "--rounds", "1", "--dir", tmp / "runs",
                "-o", out, "--", PYTHON, JOB, "--gate", timeout=600)
    assert r.rc == 0, r
    return r, json.loads(out.read_text())


def sizes_the_job_sent(doc):
    """"batch sizes 3..11", as the job printed it in its eager run."""
    eager = next(m for m in doc["job"]["modes"] if m["how"] == "eager")
    text = (Path(eager["runs"][0]["dir"]) / "stdout.txt").read_text()
    lo, hi = re.search(r"^batch sizes (\d+)\.\.(\d+)$", text, re.M).groups()
    return int(lo), int(hi)


def test_the_export_ranges_cover_the_sizes_the_job_sent(mlp):
    _, doc, _, _ = mlp
    validate(doc)
    lo, hi = sizes_the_job_sent(doc)
    (site,) = doc["job"]["aoti"]["sites"]
    assert site["status"] == "built", site
    (dim,) = site["dims"]
    assert [a["label"] for a in dim["at"]] == ["x[0]"]
    assert dim["min"] <= lo and dim["max"] >= hi, (dim, lo, hi)
    # torch's own record of the range the package was exported with
    assert dim["exported_min"] <= lo and dim["exported_max"] >= hi, dim
    assert dim["sizes"] == hi - lo + 1  # the job sent every size in between


def test_the_package_matches_eager_at_the_jobs_smallest_and_largest_batch(mlp):
    _, doc, _, _ = mlp
    (site,) = doc["job"]["aoti"]["sites"]
    assert site["outputs_match"] and site["extremes_checked"], site
    lo, hi = sizes_the_job_sent(doc)
    # The oracle: the package loaded in a fresh process of a plain script, no tct code, on the
    # job's own requests of the smallest and largest batch, against the model run eagerly there.
    script = f"""
import sys, torch
sys.path.insert(0, {str(JOB.parent)!r})
import mlp_batches as job
model = job.make_model()
package = torch._inductor.aoti_load_package({site["package"]!r})
sent = job.batches(30)
with torch.no_grad():
    for size in ({lo}, {hi}):
        i = sent.index(size)
        x = job.request(i, size)
        torch.testing.assert_close(package(x), model(x))
print("equal")
"""
    p = subprocess.run([PYTHON, "-c", script], capture_output=True, text=True, env=plain_env(), timeout=300)
    assert p.returncode == 0 and p.stdout.strip() == "equal", p.stderr[-3000:]


def test_the_aoti_runs_call_the_package_and_print_what_eager_prints(mlp):
    r, doc, html, _ = mlp
    aoti = next(m for m in doc["job"]["modes"] if m["how"] == "aoti")
    assert aoti["error"] is None and aoti["failed"] == 0, aoti["error"]
    assert len(aoti["runs"]) == 2
    assert aoti["output"]["compared"] and aoti["output"]["same"], aoti["output"]
    (site,) = doc["job"]["aoti"]["sites"]
    for run in aoti["runs"]:
        (record,) = (Path(run["dir"]) / "records").glob("aoti-*.json")
        (loaded,) = json.loads(record.read_text())["sites"]
        assert loaded["package"] == site["package"] and "missing" not in loaded
        assert run["package_load_ns"] == loaded["load_ns"] > 0
    assert doc["job"]["aoti"]["wall_ns"] > 0 and doc["job"]["aoti"]["cannot"] is None
    assert "aoti: one AOTInductor package per call site" in r.out, r.out
    assert "x_0 (x[0]) in 3..11" in r.out and "outputs equal eager's" in r.out, r.out
    assert "AOTInductor packages" in html and "x_0 (x[0]) in 3..11" in html


def test_a_site_torch_export_cannot_take_says_why_with_torchs_error(gate):
    r, doc = gate
    validate(doc)
    (site,) = doc["job"]["aoti"]["sites"]
    assert site["status"] == "export_failed" and site["name"] == "gate"
    aoti = next(m for m in doc["job"]["modes"] if m["how"] == "aoti")
    assert aoti["runs"] == [] and aoti["error"].startswith("cannot run as AOTInductor packages: gate (mlp_batches.py:")
    # The oracle: torch.export on the same function in a plain script, its error's first line.
    script = f"""
import sys, torch
sys.path.insert(0, {str(JOB.parent)!r})
import mlp_batches as job
class Gate(torch.nn.Module):
    def forward(self, x):
        return job.gate(x)
try:
    torch.export.export(Gate(), (job.request(0, 3),), dynamic_shapes={{"x": {{0: torch.export.Dim("b", min=3, max=11)}}}})
except Exception as e:
    print(type(e).__name__ + ": " + str(e).splitlines()[0])
"""
    p = subprocess.run([PYTHON, "-c", script], capture_output=True, text=True, env=plain_env(), timeout=300)
    torch_says = p.stdout.strip()
    assert torch_says.startswith("GuardOnDataDependentSymNode"), p.stderr[-2000:]
    assert f"torch.export failed: {torch_says}" in aoti["error"], (aoti["error"], torch_says)
    assert f"gate (mlp_batches.py:45): x_0 (x[0]) in 3..11 (9 sizes); cannot: torch.export failed: {torch_says}" in r.out, r.out
    eager = next(m for m in doc["job"]["modes"] if m["how"] == "eager")
    assert eager["error"] is None and len(eager["runs"]) == 1
