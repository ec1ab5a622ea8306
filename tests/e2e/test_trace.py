"""tct trace on real TORCH_TRACE logs: a directory of per-rank logs where one rank
differs (its data makes it recompile) names that rank and the difference; one log, gzip
input, damaged logs and bad paths."""
import gzip
import os
import shutil
import subprocess

import pytest

from test_schema import validate
from tct_run import FIXTURES, PYTHON, run_tct


def real_trace(tmp_dir, variant):
    """The log torch writes with TORCH_TRACE set, for make_trace.py's variant."""
    out = tmp_dir / f"raw_{variant}"
    env = dict(os.environ, TORCH_TRACE=str(out))
    proc = subprocess.run([PYTHON, str(FIXTURES / "make_trace.py"), variant], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (log,) = out.iterdir()
    return log


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    """A 4-rank TORCH_TRACE directory as torchrun writes it: ranks 0-2 alike, rank 3 differs."""
    base = tmp_path_factory.mktemp("trace")
    same, differs = real_trace(base, "same"), real_trace(base, "differs")
    job = base / "job"
    job.mkdir()
    for rank in range(3):
        shutil.copy(same, job / f"dedicated_log_torch_trace_rank_{rank}_ab12.log")
    shutil.copy(differs, job / "dedicated_log_torch_trace_rank_3_cd34.log")
    return job


def test_divergent_rank_is_named(job):
    r = run_tct("trace", job, "--json")
    assert r.rc == 0, r
    doc = r.json()
    validate(doc)
    t = doc["trace"]
    assert [x["rank"] for x in t["ranks"]] == [0, 1, 2, 3]
    assert t["divergence"] and {d["rank"] for d in t["divergence"]} == {3}
    whats = {d["what"] for d in t["divergence"]}
    assert {"compile_ids", "recompiles"} <= whats
    assert all(d["compared_with"] == ["rank 0", "rank 1", "rank 2"] for d in t["divergence"])
    r0, r3 = t["ranks"][0], t["ranks"][3]
    # what the compiled run did, per rank
    assert [g["kind"] for g in r0["graph_breaks"]] == ["print_logging", "data_dependent_control_flow"]
    assert all(g["file"].endswith("make_trace.py") and g["hint"]["fix"] for g in r0["graph_breaks"])
    assert r0["recompiles"] == [] and r0["compiles"][0]["function"] == "step"
    assert r0["compile_time_ns"]["entire_frame"] > 0
    guards = [g for rc in r3["recompiles"] for g in rc["guard_failures"]]
    assert any("size mismatch at index 0. expected 4, actual 6" in g for g in guards)
    assert r3["recompiles"][0]["kind"] == "dynamic_shape_recompile"
    assert all(x["read"]["garbled"] == 0 and x["read"]["truncated"] == 0 for x in t["ranks"])


def test_ranks_under_different_roots_do_not_diverge(job, tmp_path):
    """The same job checked out at two places (/a/job vs /b/job): alike, and named readably."""
    log = (job / "dedicated_log_torch_trace_rank_0_ab12.log").read_text()
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "dedicated_log_torch_trace_rank_0_a.log").write_text(log)
    (moved / "dedicated_log_torch_trace_rank_1_b.log").write_text(log.replace(str(FIXTURES), "/elsewhere/job"))
    r = run_tct("trace", moved, "--json")
    assert r.rc == 0, r
    t = r.json()["trace"]
    assert t["divergence"] == []
    assert [x["root"] for x in t["ranks"]] == [str(FIXTURES) + "/", "/elsewhere/job/"]
    for rank in t["ranks"]:
        assert {g["file"] for g in rank["graph_breaks"]} == {"make_trace.py"}
        assert rank["compiles"][0]["file"] == "make_trace.py"


def test_text_says_which_rank_diverges(job, tmp_path):
    r = run_tct("trace", job, "-o", tmp_path / "t.html", "-o", tmp_path / "t.md")
    assert r.rc == 0, r
    assert "RANKS DIVERGE" in r.out
    assert "rank 3 recompiled 3 time(s), rank 0, rank 1, rank 2 0 time(s)" in r.out
    assert "guard failed: 0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6" in r.out
    assert "Ranks diverge" in (tmp_path / "t.html").read_text()
    md = (tmp_path / "t.md").read_text()
    assert "**Ranks diverge**" in md and md.startswith("## tct trace: 4 log(s); ranks diverge")


def test_alike_ranks_gzip_and_damage(job, tmp_path):
    same = job / "dedicated_log_torch_trace_rank_0_ab12.log"
    alike = tmp_path / "alike"
    alike.mkdir()
    data = same.read_bytes()
    (alike / "dedicated_log_torch_trace_rank_0_x.log.gz").write_bytes(gzip.compress(data))
    # rank 1: garbage line in the middle and cut off mid-record at the end
    cut = data[: len(data) - 50]
    mid = cut.index(b"\nV", len(cut) // 2)
    (alike / "dedicated_log_torch_trace_rank_1_x.log").write_bytes(cut[:mid] + b"\nV1130 18:15:52.398000 1 x.py:1] {not json\n" + cut[mid + 1:])
    r = run_tct("trace", alike, "--json")
    assert r.rc == 0, r
    t = r.json()["trace"]
    assert t["ranks"][0]["read"]["garbled"] == 0 and t["ranks"][1]["read"]["garbled"] == 1
    assert t["ranks"][1]["read"]["truncated"] == 1
    assert any("damaged" in w["message"] for w in r.json()["warnings"])
    strict = run_tct("trace", alike, "--strict")
    assert strict.rc == 2 and strict.err.startswith("tct: error: ")


def test_bad_paths(tmp_path):
    r = run_tct("trace", tmp_path / "nope")
    assert r.rc == 2 and r.err.startswith("tct: error: ") and "does not exist" in r.err
    r = run_tct("trace", tmp_path)
    assert r.rc == 2 and "holds no trace logs" in r.err
    (tmp_path / "x.log").write_text("hello\nworld\n")
    r = run_tct("trace", tmp_path / "x.log")
    assert r.rc == 2 and "is not a TORCH_TRACE log" in r.err
