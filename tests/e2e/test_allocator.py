"""--allocator on the real binary and real torch: the state reaches the target's processes
(LD_PRELOAD, the settling block) and the agent reports what it finds serving malloc; the
comparison's per-state figures land in the JSON; a bad value is refused before anything runs.
No timed assertions: whether the states differ is decided in C++ from canned figures in
tests/unit/test_allocator.cpp, and bench/allocator.py measures it on a resnet18-like CNN."""
import os

import pytest

from tct_run import FIXTURES

T = str(FIXTURES / "bench_targets.py")
FAST = ["--backend", "aot_eager", "--budget", "1", "--warmup", "5", "--eager-warmup", "3",
        "--no-compile-time", "--no-memory", "--no-check"]
TCMALLOC = "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4"
JEMALLOC = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"
needs_libs = pytest.mark.skipif(not (os.path.exists(TCMALLOC) and os.path.exists(JEMALLOC)),
                                reason="scripts/setup.sh installs libtcmalloc-minimal4 and libjemalloc2")


@needs_libs
def test_tcmalloc_reaches_the_child(tct):
    r = tct("bench", f"{T}:small", *FAST, "--allocator", "tcmalloc", "--no-allocator-compare", "--json")
    assert r.rc == 0, r
    b = r.json()["bench"]
    assert b["config"]["allocator"] == "tcmalloc" and b["config"]["allocator_compare"] is False
    a = b["allocator"]
    assert a["state"] == "tcmalloc" and a["library"] == TCMALLOC and a["ld_preload"] == TCMALLOC
    assert a["settled"] is False
    # What the measuring agent found mapped in its own process (/proc/self/maps).
    assert a["detected"]["kind"] == "tcmalloc" and "libtcmalloc" in a["detected"]["library"]
    assert a["detected"]["settled"] is False
    assert a["compare"] == {"enabled": False, "skipped_reason": "--no-allocator-compare", "budget_s": None,
                            "row": "aot_eager"}
    assert [s["status"] for s in a["states"]] == ["headline"]


def test_settled_and_system_states(tct):
    r = tct("bench", f"{T}:small", *FAST, "--allocator", "system", "--no-allocator-compare", "--json")
    assert r.rc == 0, r
    a = r.json()["bench"]["allocator"]
    assert a["state"] == "system" and a["detected"] == {"kind": "glibc", "library": None, "settled": False,
                                                        "ld_preload": None}
    r = tct("bench", f"{T}:small", *FAST, "--no-allocator-compare")
    assert r.rc == 0, r
    # The default, settled glibc; the brief report's headline names the state it holds for.
    assert "(allocator: settled (glibc))" in r.out, r.out


@needs_libs
def test_comparison_records_every_state(tct):
    r = tct("bench", f"{T}:small", *FAST, "--json")
    assert r.rc == 0, r
    doc = r.json()
    a = doc["bench"]["allocator"]
    assert a["state"] == "settled" and a["compare"]["enabled"] is True
    assert a["compare"]["budget_s"] == pytest.approx(0.1)  # 30% of --budget 1 over three states
    by_state = {s["state"]: s for s in a["states"]}
    assert [s["state"] for s in a["states"]][0] == "settled"
    assert set(by_state) == {"system", "settled", "tcmalloc", "jemalloc"}
    assert by_state["settled"]["status"] == "headline"
    for name in ("system", "tcmalloc", "jemalloc"):
        s = by_state[name]
        assert s["status"] == "measured", s
        assert s["eager_ns"] > 0 and s["compiled_ns"] > 0 and s["speedup"]["estimate"] > 0
        assert s["blocks"] >= 1
    # Each state's own process found its own allocator.
    assert by_state["tcmalloc"]["detected"] == "tcmalloc" and by_state["tcmalloc"]["library"] == TCMALLOC
    assert by_state["jemalloc"]["detected"] == "jemalloc"
    assert by_state["system"]["detected"] == "glibc"
    assert a["differs"] in (True, False) and a["best_state"] in by_state
    # A finding, when there is one, is the one warning of its kind and carries the fix.
    found = [w for w in doc["warnings"] if w["code"] == "allocator_moves_result"]
    assert len(found) == (1 if a["differs"] or a["processes_disagree"] else 0)
    if found:
        assert "-v shows the table" in found[0]["hint"]


def test_bogus_allocator_is_refused_in_one_line(tct):
    r = tct("bench", f"{T}:small", *FAST, "--allocator", "bogus")
    assert r.rc == 2, r
    lines = [l for l in r.err.splitlines() if l.startswith("tct: error:")]
    assert len(lines) == 1 and "--allocator" in lines[0], r.err


@needs_libs
def test_audit_passes_the_allocator_through(tct):
    r = tct("audit", f"{T}:small", "--skip", "explain,expect", "--backend", "aot_eager", "--budget", "0.5",
            "--warmup", "4", "--no-compile-time", "--no-memory", "--allocator", "jemalloc",
            "--no-allocator-compare", "--json")
    assert r.rc == 0, r
    a = r.json()["bench"]["allocator"]
    assert a["state"] == "jemalloc" and a["detected"]["kind"] == "jemalloc"
