"""tct job on jobs written apart from examples/ (tests/e2e/jobs/), each fact checked against an
independent record: what the job printed (its request count, its checksum), the same command
timed by a plain loop in fresh processes (subprocess + time.monotonic, no tct code), the
trace's compilation_metrics read here directly. aot_eager and eager backends: compile cost,
not codegen, is what is tested. Speed figures come from bench/job_oracle.py, not from here."""
import json
import os
import statistics
import subprocess
import time

import pytest

from tct_run import PYTHON, ROOT, run_tct
from test_run_jobs import trace_metrics
from test_schema import validate

JOBS = ROOT / "tests" / "e2e" / "jobs"
SCORER = JOBS / "bucketed_scorer.py"
REQUESTS = 40


def plain_seconds(env_extra):
    """One fresh process of the scorer, timed from launch to exit as a shell loop would."""
    env = dict(os.environ, **env_extra)
    env.pop("PYTHONPATH", None)
    t0 = time.monotonic()
    subprocess.run([PYTHON, str(SCORER), "--requests", str(REQUESTS)], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    return time.monotonic() - t0


def plain_round(tmp, order, i, plain):
    """Each mode once, as tct runs it: eager with torch.compile disabled, cold with an empty
    inductor cache."""
    for mode in order:
        extra = {"TORCH_COMPILE_DISABLE": "1"} if mode == "eager" else {
            "TORCHINDUCTOR_CACHE_DIR": str(tmp / f"plain-cache-{i}")}
        plain[mode].append(plain_seconds(extra))


@pytest.fixture(scope="module")
def scorer(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("job")
    out, html, md = tmp / "job.json", tmp / "job.html", tmp / "job.md"
    # The same command timed by a plain loop in fresh processes, one round before tct's two and
    # two after (the first in reverse order), so that a shared machine's drift reaches both alike;
    # the test takes their median: a neighbouring test worker's compile once doubled one plain run
    # (eager 3.68 s and 7.48 s around tct's 3.46 s [2.67, 4.24], in CI).
    plain = {"eager": [], "cold": []}
    plain_round(tmp, ["eager", "cold"], 0, plain)
    r = run_tct("job", "--modes", "eager,cold", "--threads", "default", "--rounds", "2", "--calls", "500",
                "--dir", tmp / "runs", "-o", out, "-o", html, "-o", md, "--", PYTHON, SCORER,
                "--requests", REQUESTS, timeout=1800)
    assert r.rc == 0, r
    doc = json.loads(out.read_text())
    plain_round(tmp, ["cold", "eager"], 1, plain)
    plain_round(tmp, ["eager", "cold"], 2, plain)
    return r, doc, html.read_text(), md.read_text(), plain


def test_document_validates_and_leads_with_the_decision(scorer):
    r, doc, html, md, _ = scorer
    validate(doc)
    job = doc["job"]
    assert job["decision"]["as_run"]["best"] in ("eager", "cold")
    assert job["decision"]["at_horizon"]["best"] in ("eager", "cold")
    first = r.out.splitlines()[0]
    assert first.startswith("tct job:")
    assert r.out.splitlines()[1].startswith(f"best for 500 calls of Scorer: {job['decision']['at_horizon']['best']}")
    assert "<svg" in html and "The job, each way" in html
    assert md.startswith("## tct job: for 500 calls of Scorer")


def test_every_run_counts_the_requests_the_job_served(scorer):
    _, doc, _, _, _ = scorer
    for mode in doc["job"]["modes"]:
        assert len(mode["runs"]) == 2
        for run in mode["runs"]:
            assert run["ok"] and run["output_lines"] == 1
            (site,) = run["sites"]
            assert site["name"] == "Scorer"
            assert site["calls"] == REQUESTS == run["anchor_calls"]
            # The first output comes after launch and before exit; the curve ends at the last call.
            assert 0 < site["first_output_ns"] < run["wall_ns"]
            assert run["curve"][-1][0] == REQUESTS and run["curve"][-1][1] <= run["wall_ns"]


def test_compile_time_and_recompiles_are_the_traces(scorer):
    _, doc, _, _, _ = scorer
    cold = next(m for m in doc["job"]["modes"] if m["mode"] == "cold")
    for run in cold["runs"]:
        metrics = trace_metrics(os.path.join(run["dir"], "trace"))
        # Every compile of the run is the scorer's (its frame, the code after its break, the
        # recompiles its shapes caused): their entire_frame_compile time adds up to the site's.
        total = sum(m.get("entire_frame_compile_time_s") or 0 for m in metrics.values())
        (site,) = run["sites"]
        assert site["compile_time_ns"] == pytest.approx(total * 1e9, rel=0.01)
        assert site["recompiles"] >= 1  # batch 1 against 2 and 4, lengths that vary


def test_the_output_check_finds_the_modes_agree(scorer):
    _, doc, _, _, _ = scorer
    for mode in doc["job"]["modes"]:
        assert mode["output"]["compared"] and mode["output"]["same"], mode["output"]
        assert mode["eligible"]


def test_each_total_agrees_with_a_plain_timing_loop(scorer):
    """bench/job_oracle.py holds each mode's total to 10% of a plain loop on a quiet machine,
    round by round. Here the plain runs come minutes apart from tct's, beside another test
    worker, and vary more than that (eager 2.78 s to 9.60 s in one CI run, tct's 2.20 s to
    3.30 s), so their median must lie within 25% beyond tct's interval, as test_startup's eager
    start does: what this catches is a total that is not the job's wall time."""
    _, doc, _, _, plain = scorer
    for mode in doc["job"]["modes"]:
        total = mode["total"]
        p = statistics.median(plain[mode["mode"]])
        assert 0.75 * total["low_ns"] / 1e9 <= p <= 1.25 * total["high_ns"] / 1e9, (mode["mode"], total, plain[mode["mode"]])


def test_a_mode_whose_output_differs_is_flagged_and_never_recommended(tmp_path):
    out = tmp_path / "job.json"
    r = run_tct("job", "--modes", "eager,cold", "--threads", "default", "--rounds", "1", "--dir", tmp_path / "runs",
                "-o", out, "--", PYTHON, JOBS / "compile_aware.py", timeout=900)
    assert r.rc == 0, r
    doc = json.loads(out.read_text())
    validate(doc)
    cold = next(m for m in doc["job"]["modes"] if m["mode"] == "cold")
    # What the job printed in each run, read from its own stdout file.
    eager_run = next(m for m in doc["job"]["modes"] if m["mode"] == "eager")["runs"][0]
    printed = (open(os.path.join(eager_run["dir"], "stdout.txt")).read().strip(),
               open(os.path.join(cold["runs"][0]["dir"], "stdout.txt")).read().strip())
    assert printed == ("total 12.000", "total 15.000")
    assert not cold["output"]["same"] and not cold["eligible"]
    assert cold["output"]["eager_line"] == "total 12.000" and cold["output"]["mode_line"] == "total 15.000"
    assert doc["job"]["decision"]["as_run"]["best"] == "eager"
    assert "OUTPUT DIFFERS" in r.out


def test_a_run_that_times_out_is_recorded(tmp_path):
    out = tmp_path / "job.json"
    r = run_tct("job", "--modes", "eager", "--threads", "default", "--rounds", "1", "--timeout", "1", "-o", out,
                "--dir", tmp_path / "runs", "--", PYTHON, SCORER, "--requests", "100000000", timeout=300)
    assert r.rc == 3, r
    assert "every run of the job failed" in r.err
    doc = json.loads(out.read_text())
    validate(doc)
    (run,) = doc["job"]["modes"][0]["runs"]
    assert run["timed_out"] and not run["ok"]
    assert run["wall_ns"] < 15e9  # SIGTERM at 1 s, SIGKILL 5 s later at the latest
