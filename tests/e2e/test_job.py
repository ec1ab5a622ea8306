"""tct job on jobs written apart from examples/ (tests/e2e/jobs/), each fact checked against an
independent record: what the job printed (its request count, its checksum), each job process's
lifetime as the kernel shows it (ProcessLifetimes), the trace's compilation_metrics read here
directly. aot_eager and eager backends: compile cost, not codegen, is what is tested. Speed
figures, against a plain loop in fresh processes with no tct code, come from bench/job_oracle.py,
not from here."""
import json
import os
import statistics

import pytest

from process_lifetimes import ProcessLifetimes
from tct_run import PYTHON, ROOT, run_tct
from test_run_jobs import trace_metrics
from test_schema import validate

JOBS = ROOT / "tests" / "e2e" / "jobs"
SCORER = JOBS / "bucketed_scorer.py"
REQUESTS = 40


@pytest.fixture(scope="module")
def scorer(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("job")
    out, html, md = tmp / "job.json", tmp / "job.html", tmp / "job.md"
    lifetimes = ProcessLifetimes(str(SCORER))
    lifetimes.start()
    r = run_tct("job", "--modes", "eager,cold", "--threads", "default", "--rounds", "2", "--calls", "500",
                "--dir", tmp / "runs", "-o", out, "-o", html, "-o", md, "--", PYTHON, SCORER,
                "--requests", REQUESTS, timeout=1800)
    lifetimes.done.set()
    lifetimes.join()
    assert r.rc == 0, r
    return r, json.loads(out.read_text()), html.read_text(), md.read_text(), lifetimes


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


def test_each_run_and_total_is_the_jobs_wall_time(scorer):
    """Each run's wall time against its process's lifetime seen beside it, in the same moment, so
    a shared machine's load reaches both alike (a plain loop minutes apart ranged 2x in CI). Both
    start at the fork and take in the interpreter's teardown (0.3 to 0.7 s after the script's
    last line); tct's ends when the process can be reaped, after its last thread, 8 to 29 ms
    after the look finds its main thread a zombie on a quiet machine, up to 100 ms beside four
    busy loops."""
    _, doc, _, _, lifetimes = scorer
    for mode in doc["job"]["modes"]:
        walls = []
        for run in mode["runs"]:
            seen_s = lifetimes.run_seconds(run)
            wall_s = run["wall_ns"] / 1e9
            assert wall_s == pytest.approx(seen_s, rel=0.05, abs=0.15), mode["mode"]
            walls.append(run["wall_ns"])
        total = mode["total"]
        assert total["mean_ns"] == pytest.approx(statistics.mean(walls), rel=1e-9)
        assert total["low_ns"] <= total["mean_ns"] <= total["high_ns"]


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
