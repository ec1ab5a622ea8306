"""tct run on a two-rank DDP training job of its own (tests/e2e/jobs/ddp_gate_train.py: torchrun,
gloo, a gated MLP compiled inside DDP), each fact against an independent reference: the
recompiles of each rank against torch's own compilation_metrics written by that rank, the
rank that died and how against what the job did to itself (it SIGKILLs its own rank 1), the
calls another rank kept against the steps it printed, the wrap order --try-fixes measures against
the graph breaks torch itself counted in each run. aot_eager keeps compiles short; the
shared-cache run uses inductor, whose caches are what it is about."""
import json
import re
import socket
import statistics

import pytest

from tct_run import ROOT, run_tct
from test_schema import validate

JOB = ROOT / "tests" / "e2e" / "jobs" / "ddp_gate_train.py"
TORCHRUN = ROOT / ".venv" / "bin" / "torchrun"

pytestmark = pytest.mark.skipif(not TORCHRUN.exists(), reason="no torchrun in the venv")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_job(tmp_path, mode, ok=(0,), flags=(), **env):
    out = tmp_path / "run.json"
    env = {"GATE_MODE": mode, "GATE_METRICS_DIR": str(tmp_path), "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "cache"),
           **{k: str(v) for k, v in env.items()}}
    r = run_tct("run", *flags, "-o", out, "--dir", tmp_path / "run", "--", TORCHRUN, "--nproc-per-node", "2",
                "--master-port", free_port(), JOB, env=env, timeout=420)
    assert r.rc in ok, r
    doc = json.loads(out.read_text())
    validate(doc)
    return r, doc["run"]


def torch_recompiles(tmp_path, rank):
    """compilation_metrics as the rank wrote them: a Dynamo compile (co_name set) with a
    recompile reason that did not fail (a compile the recompile limit refused fails)."""
    rows = json.loads((tmp_path / f"metrics-{rank}.json").read_text())
    return sum(1 for m in rows if m["co_name"] and m["recompile_reason"] and not m["fail_type"])


def by_rank(run):
    return {p["rank"]: p for p in run["processes"]}


def test_rank_dependent_recompiles_said_with_one_count(tmp_path):
    r, run = run_job(tmp_path, "rank_gate", GATE_STEPS=12)
    want = {rank: torch_recompiles(tmp_path, rank) for rank in (0, 1)}
    assert want[0] == 0 and want[1] >= 3, want
    procs = by_rank(run)
    ranks = {t["rank"]: t for t in run["trace"]["ranks"]}
    for rank, n in want.items():
        site = procs[rank]["sites"][0]
        assert site["recompiles"] == n
        assert sum(g["count"] for g in site["recompile_groups"]) == n
        assert len(ranks[rank]["recompiles"]) == n
        assert sum(g["count"] for g in ranks[rank]["recompile_groups"]) == n
    (div,) = [d for d in run["divergence"] if d["what"] == "recompiles"]
    assert div["rank"] == 1 and f"recompiled frame 0 (forward) {want[1]} time(s)" in div["message"], div
    # Every figure the report prints for rank 1's recompiles is that one count.
    said = re.findall(r"recompiled (\d+)x|(\d+) recompile\(s\)|recompiled frame \d+ \(forward\) (\d+) time", r.err)
    said = {int(next(x for x in m if x)) for m in said} - {0}
    assert said == {want[1]}, r.err
    # tct trace on the same logs: one line per frame and cause, no empty field, in 40 lines.
    t = run_tct("trace", run["trace_dir"])
    assert t.rc == 0, t
    assert len(t.out.splitlines()) <= 40, t.out
    for empty in (" of  at", " in : ", "at :0", "code under /\n"):
        assert empty not in t.out, t.out
    assert f"recompiled {want[1]}x forward" in t.out and "guard failed" not in t.out
    assert "guard failed" in run_tct("trace", run["trace_dir"], "-v").out


def test_same_code_on_a_shared_cold_cache_does_not_diverge(tmp_path):
    r, run = run_job(tmp_path, "same", GATE_STEPS=4, GATE_BACKEND="inductor")
    assert run["divergence"] == [], run["divergence"]
    assert "RANKS DIVERGE" not in r.err
    # The ranks raced on one cache folder: whatever each hit is a note, never divergence.
    caches = [t["cache"] for t in run["trace"]["ranks"]]
    assert all(caches), caches  # inductor's caches were used
    assert all(torch_recompiles(tmp_path, rank) == 0 for rank in (0, 1))


def verdict_of(interval):
    """The project's rule (stats/verdict.hpp), written again here as the oracle of the verdict."""
    if interval["low"] > 1:
        return "faster"
    if interval["high"] < 1:
        return "slower"
    return "no_clear_difference" if interval["high"] / interval["low"] <= 1.5 else "inconclusive"


def test_breaks_inside_ddp_come_with_the_wrap_order_measured(tmp_path):
    """torch.compile(DDP(model)) breaks inside DDP's own forward; --try-fixes runs the job once more
    with the module compiled inside DDP and puts both ways beside the fix. The oracle of each way's
    breaks is torch's own counter (counters["graph_break"]) as each rank printed it in each run; the
    type torch.compile returned there says which wrap order ran; the job's own timing of its calls
    holds the per-call medians."""
    r, run = run_job(tmp_path, "same", flags=("--try-fixes",), GATE_WRAP="outside", GATE_STEPS=12)
    assert run["try_fixes"]["runs"] == [{"fix": "ddp_wrap_order", "exit_status": 0, "exit": "exit code 0"}]
    procs = by_rank(run)
    for rank in (0, 1):
        as_written, with_fix = [json.loads(line) for line in (tmp_path / f"runs-{rank}.jsonl").read_text().splitlines()]
        assert as_written["compiled_type"] == "OptimizedModule" and with_fix["compiled_type"] == "DistributedDataParallel"
        assert as_written["graph_breaks"] > 0 and with_fix["graph_breaks"] == 0, (as_written, with_fix)
        (site,) = procs[rank]["sites"]
        assert site["wrapper"] == "ddp" and site["graph_breaks"] == as_written["graph_breaks"]
        (trial,) = site["fix_trials"]
        assert trial["fix"] == "ddp_wrap_order"
        assert (trial["graph_breaks_before"], trial["graph_breaks_after"]) == (as_written["graph_breaks"], 0)
        # The same calls the job timed around tct's timing, less the compiling call and the one after.
        # 12 calls, 10 steady: only the first compiled, so the steady calls are the 3rd on. The job
        # timed each of them around tct's timing of the same call: its median is an upper bound.
        assert trial["before"] == site["steady_calls"] and trial["after"]["calls"] == 10
        for times, job in ((trial["before"], as_written), (trial["after"], with_fix)):
            assert len(job["call_ns"]) == 12
            own = statistics.median(job["call_ns"][2:])
            assert 0.7 * own <= times["median_ns"] <= own + 1, (times, job)
        sp = trial["speedup"]
        assert sp["estimate"] == pytest.approx(trial["before"]["median_ns"] / trial["after"]["median_ns"], rel=1e-3)
        assert sp["low"] <= sp["high"] and trial["verdict"] == verdict_of(sp)
        # The breaks inside DDP carry the fix, measured: no longer untried.
        for b in site["breaks"]:
            assert b["fix_terms"]["id"] == "ddp_wrap_order" and b["fix_terms"]["untried"] is False, b
    # The text: each rank's figures once, beside the fix they measure.
    assert r.err.count("measured: graph breaks ") == 2, r.err
    for rank in (0, 1):
        trial = procs[rank]["sites"][0]["fix_trials"][0]
        assert f"measured: graph breaks {trial['graph_breaks_before']} -> 0, per call " in r.err
    assert "has not tried it" not in r.err


def steps_printed(err, rank):
    # Not anchored to a line: print() writes the text and its newline apart, and the launcher
    # merges both ranks' stderr, so under load one rank's line can run into the other's.
    return max((int(n) for n in re.findall(rf"rank {rank} step (\d+)", err)), default=0)


def check_dead_rank(r, run, moment):
    e = run["first_end"]
    assert e and e["rank"] == 1 and e["signal"] == "SIGKILL" and e["moment"] == moment, e
    first = r.err.splitlines()
    error = next(line for line in first if line.startswith("tct: error:"))
    assert f"rank 1 (pid {e['pid']}) ended first: it was killed by SIGKILL {moment}" in error, error
    assert r.err.index("A RANK ENDED FIRST") < r.err.index("\nrank 0 (pid")
    # Rank 0: every call it made is kept, and it is not called complete (the launcher stopped it,
    # or it ended on its peer's death).
    rank0 = by_rank(run)[0]
    assert rank0["complete"] is False
    calls = rank0["sites"][0]["calls"]
    done = steps_printed(r.err, 0)
    assert done <= calls <= done + 1, (done, calls)
    return e


def test_sigkill_while_compiling_names_the_rank_and_its_compile(tmp_path):
    r, run = run_job(tmp_path, "kill_compile", ok=(1,))
    e = check_dead_rank(r, run, "while compiling")
    assert e["compiling"].startswith("forward, compile 0/0")
    rank1 = by_rank(run)[1]
    assert rank1["sites"] == [] or rank1["sites"][0]["calls"] == 0
    assert e["trace_compiles"] >= 1


def test_sigkill_in_the_loop_keeps_its_calls(tmp_path):
    r, run = run_job(tmp_path, "kill_loop", ok=(1,), GATE_STEPS=40, GATE_KILL_AT=6)
    e = check_dead_rank(r, run, "in its loop")
    # It slept 1.5 s after its 6th call before the kill: the flush (every second) has all 6.
    assert e["calls"] == 6 and by_rank(run)[1]["sites"][0]["calls"] == 6, e
    assert "after 6 call(s)" in r.err
