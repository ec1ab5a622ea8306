"""--threads and --cpus on the real binary and real torch: applied in the target's processes
before torch is imported, recorded in the document, and bad lists refused before anything runs.
(Whether a busy machine is named oversubscribed is decided in C++ from the load the agent
reports: tests/unit/test_bench_analysis.cpp; bench/oversubscription.py measures it under a
real background load.)"""
import os

import pytest

from tct_run import FIXTURES

T = str(FIXTURES / "bench_targets.py")
FAST = ["--backend", "aot_eager", "--budget", "1", "--warmup", "5", "--eager-warmup", "3",
        "--no-compile-time", "--no-memory", "--no-check", "--no-allocator-compare"]


def test_threads_reach_torch_and_the_document(tct):
    r = tct("bench", f"{T}:small", *FAST, "--threads", "1", "--json")
    assert r.rc == 0, r
    doc = r.json()
    assert doc["environment"]["placement"] == {"threads": 1, "cpus": None}
    assert doc["bench"]["num_threads"] == 1  # torch.get_num_threads() in the target's process


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs two CPUs to pin to one")
def test_cpus_pin_the_target(tct):
    first = min(os.sched_getaffinity(0))
    r = tct("bench", f"{T}:small", *FAST, "--cpus", str(first), "--json")
    assert r.rc == 0, r
    doc = r.json()
    assert doc["environment"]["placement"]["cpus"] == str(first)
    # The agent saw one CPU, and OpenMP sized torch's pool from that mask.
    assert doc["bench"]["rows"][0]["load"]["cpus"] == 1
    assert doc["bench"]["num_threads"] == 1


@pytest.mark.parametrize("bad", ["99999", "1-0", "a"])
def test_a_bad_cpu_list_is_one_line_and_exit_2(tct, bad):
    r = tct("bench", f"{T}:small", *FAST, "--cpus", bad)
    assert r.rc == 2, r
    lines = [l for l in r.err.splitlines() if l.startswith("tct: error:")]
    assert len(lines) == 1 and "--cpus" in lines[0], r


def test_threads_below_one_is_refused(tct):
    r = tct("bench", f"{T}:small", *FAST, "--threads", "0")
    assert r.rc == 2, r
