"""`tct bench` end to end: the real binary, the real torch. Tiny targets, aot_eager in most
tests (fast compiles), inductor in one; small budgets. Exit codes per docs/ARCHITECTURE.md."""
import json
import os
import signal
import subprocess
import time

import pytest

from tct_run import FIXTURES, PYTHON, TCT

T = str(FIXTURES / "bench_targets.py")
# Fast settings: the statistics are exercised, not the machine's patience.
FAST = ["--backend", "aot_eager", "--budget", "1", "--warmup", "5", "--eager-warmup", "3",
        "--no-compile-time", "--no-allocator-compare"]  # the comparison: tests/e2e/test_allocator.py


def error_line(r):
    lines = [l for l in r.err.splitlines() if l.startswith("tct: error:")]
    assert len(lines) == 1, r
    return lines[0]


def test_json_document_has_every_field(tct, tmp_path):
    out = tmp_path / "b.json"
    r = tct("bench", f"{T}:pytree_io", *FAST, "--raw", "--json", "-o", out)
    assert r.rc == 0, r
    doc = r.json()
    assert doc["command"] == "bench" and doc["exit_code"] == 0
    b = doc["bench"]
    assert b["target"]["spec"].endswith(":pytree_io")
    assert b["config"]["backends"] == ["aot_eager"]
    assert b["eager"]["warmup_ns"] and b["eager"]["steady_ns"] > 0
    assert b["clock"]["resolution_ns"] > 0
    (row,) = b["rows"]
    for key in ["backend", "mode", "dynamic", "fullgraph", "status", "error", "speedup", "latency",
                "warmup_curve_ns", "steady_state", "compile", "break_even_calls", "correctness",
                "memory", "recompiles_during_measurement", "graph_breaks", "blocks", "stop_reason",
                "clock_resolution_ns", "samples"]:
        assert key in row, key
    assert row["status"] == "ok" and row["error"] is None
    sp = row["speedup"]
    assert sp["low"] <= sp["estimate"] <= sp["high"] and sp["confidence"] == 0.95
    assert row["latency"]["eager"]["median"] > 0 and row["latency"]["compiled"]["n"] >= 3
    assert len(row["warmup_curve_ns"]) == 5
    assert row["compile"]["first_call_ns"] > 0
    assert row["correctness"]["checked"] and row["correctness"]["match"] is True
    assert row["correctness"]["leaves"] >= 4  # pytree output walked leaf by leaf
    assert row["memory"]["kind"] == "rss" and row["memory"]["eager_peak_bytes"] > 0
    assert row["memory"]["compiled_increase_bytes"] is not None  # from the second process
    assert row["stop_reason"] in ("precision", "budget")
    assert len(row["samples"]["eager"]) == len(row["samples"]["compiled"])
    # Paired blocks in two processes, the same calls per sample on both sides, a measured floor.
    assert sp["processes"] == 2 and all(p["blocks"] >= 2 for p in sp["per_process"])
    assert sp["inconclusive"] in (True, False) and sp["look_confidence"] > 0.95
    assert row["calls_per_sample"]["eager"] == row["calls_per_sample"]["compiled"]
    assert 0 < row["harness_floor_ns"] < row["latency"]["compiled"]["median"]
    assert row["blocks_dropped_for_recompile"] == 0
    assert row["load"]["cpus"] >= 1
    assert row["break_even"]["verdict"] in ("breaks_even", "no_reliable_gain", "inconclusive")
    assert json.loads(out.read_text())["bench"]["rows"][0]["status"] == "ok"


def test_terminal_report_is_brief_and_leads_with_the_verdict(tct, tmp_path):
    out = tmp_path / "b.json"
    r = tct("bench", f"{T}:small", "--backend", "aot_eager", "--budget", "1", "--warmup", "5",
            "--eager-warmup", "3", "-o", out)
    assert r.rc == 0, r
    lines = [l for l in r.out.splitlines() if l.strip()]
    assert lines[0].startswith("tct bench")
    # The configuration in at most 8 lines, then one line per kind of warning (none on a quiet
    # machine), at most 4 however busy it is (the fourth names the rest): at most 12 in all.
    warnings = [l for l in lines if l.startswith("warning: ")]
    # One line more where Dynamo's overhead is material: where the call's time goes (issue: the
    # brief report says it in one line per row).
    overhead = [l for l in lines if l.strip().startswith("overhead")]
    assert len(overhead) <= 1 and len(lines) - len(warnings) <= 8 + len(overhead) and len(warnings) <= 4, r.out
    assert len({w.split(":")[1] for w in warnings}) == len(warnings), r.out  # each kind once
    row = json.loads(out.read_text())["bench"]["rows"][0]
    verdict = {"faster": "faster than eager", "slower": "slower than eager",
               "no_clear_difference": "no clear difference from eager",
               "inconclusive": "inconclusive"}[row["speedup"]["verdict"]]
    assert lines[1].startswith("aot_eager  ") and "x [" in lines[1] and verdict in lines[1]  # "1.02x [0.98, 1.05]"
    for what in ("per call", "compile", "break-even", "memory", "outputs"):
        assert any(l.strip().startswith(what) for l in lines), what
    # The compile time once: row 0's cold compile is its first call in the main process.
    compile_line = [l for l in lines if l.strip().startswith("compile")][0]
    assert "cold " in compile_line and "first call" not in compile_line
    # Off a terminal, a line per phase on stderr (never on stdout), and nothing else there.
    assert r.err == "" and any("sampling" in l for l in r.progress), r.progress
    assert len(r.progress) < 40, r.progress
    # -v: every detail, in the order of the questions.
    v = tct("bench", f"{T}:small", *FAST, "-v")
    assert v.rc == 0, v
    assert "speedup (95% CI)" in v.out
    assert v.out.index("speedup") < v.out.index("Latency") < v.out.index("Compile") \
        < v.out.index("Break-even") < v.out.index("Memory") < v.out.index("Correctness")


def test_train_step_and_markdown(tct, tmp_path):
    out = tmp_path / "t.json"
    r = tct("bench", f"{T}:small", *FAST, "--train", "--markdown", "--no-memory", "-o", out)
    assert r.rc == 0, r
    assert r.out.startswith("## tct bench") and "| backend" in r.out
    b = json.loads(out.read_text())["bench"]
    assert b["target"]["train"] is True and b["config"]["train"] is True
    assert b["rows"][0]["status"] == "ok"


def test_user_prints_to_stdout_do_not_break_json(tct):
    r = tct("bench", f"{T}:noisy_print", *FAST, "--json")
    assert r.rc == 0, r
    assert r.json()["bench"]["rows"][0]["status"] == "ok"


def test_recompile_in_steady_state_is_flagged(tct, tmp_path):
    out = tmp_path / "r.json"
    r = tct("bench", f"{T}:recompiles", *FAST, "--param", "flip_after=40", "-o", out)
    assert r.rc == 0, r
    speed_line = [l for l in r.out.splitlines() if "x [" in l][0]
    assert "recompiled during measurement" in speed_line
    doc = json.loads(out.read_text())
    assert doc["bench"]["rows"][0]["recompiles_during_measurement"] >= 1
    assert "recompile_during_measurement" in [w["code"] for w in doc["warnings"]]


def test_mismatch_exits_1_unless_no_check(tct):
    r = tct("bench", f"{T}:mismatch", *FAST)
    assert r.rc == 1, r
    assert "differ from eager" in error_line(r)
    assert "MISMATCH" in r.out and "OUTPUT MISMATCH" in r.out  # beside the speedup too
    r = tct("bench", f"{T}:mismatch", *FAST, "--no-check", "--json")
    assert r.rc == 0, r
    assert r.json()["bench"]["rows"][0]["correctness"]["checked"] is False
    assert "check_skipped" in [w["code"] for w in r.json()["warnings"]]


def test_random_target_is_checked_conclusively(tct):
    # rand_like: identical seeds before eager and compiled make them draw the same numbers.
    r = tct("bench", f"{T}:nondeterministic", *FAST, "--json")
    assert r.rc == 0, r
    c = r.json()["bench"]["rows"][0]["correctness"]
    assert c["nondeterministic"] is False and c["match"] is True and c["eager_used_rng"] is True


def test_compile_failure_in_one_row_keeps_the_others(tct, tmp_path):
    out = tmp_path / "partial.json"
    r = tct("bench", f"{T}:relu_fn", "--backend", "aot_eager,relu_compile_error_TESTING_ONLY", "--budget", "1",
            "--warmup", "5", "--eager-warmup", "3", "--no-compile-time", "--json", "-o", out)
    assert r.rc == 3, r
    line = error_line(r)
    assert "relu_compile_error_TESTING_ONLY" in line and "backend" in line
    doc = r.json()
    ok, bad = doc["bench"]["rows"]
    assert ok["status"] == "ok" and ok["speedup"]["estimate"] > 0
    assert bad["status"] == "failed"
    assert bad["error"]["stage"] == "backend (relu_compile_error_TESTING_ONLY)"
    assert bad["error"]["kind"] == "compile_failed"
    assert doc["bench"]["eager"]["steady_ns"] > 0  # eager results kept
    assert json.loads(out.read_text())["exit_code"] == 3


@pytest.mark.parametrize("args, code, words", [
    (["tests/nope.py:make"], 2, "file not found"),
    ([f"{T}:no_such_factory"], 2, "no_such_factory"),
    ([f"{T}:small", "--param", "novalue"], 2, "--param"),
    ([f"{T}:small", "--param", "nosuch=1"], 2, "nosuch"),
    ([f"{T}:small", "--backend", "indcutor"], 2, "unknown backend 'indcutor'"),
    ([f"{T}:small", "--mode", "fastest"], 2, "unknown mode 'fastest'"),
    ([f"{T}:small", "--device", "cuda:7"], 2, "cuda:7"),
    ([f"{T}:factory_raises"], 3, "the factory is broken"),
    ([f"{T}:wrong_kind"], 2, "expected (fn, args)"),
    ([f"{T}:raises_on_call"], 3, "the target itself is broken"),
    ([f"{T}:crashes"], 3, "died"),
])
def test_bad_input_one_clear_line(tct, args, code, words):
    r = tct("bench", *args, "--budget", "1", "--no-compile-time")
    assert r.rc == code, r
    assert words in error_line(r), r


def test_hang_past_timeout(tct):
    r = tct("bench", f"{T}:hangs", "--budget", "1", "--no-compile-time", "--timeout", "20", "--json")
    assert r.rc == 3, r
    assert "no answer within 20 s" in error_line(r)
    doc = r.json()
    assert doc["error"]["kind"] == "timeout"
    assert doc["bench"]["target"]["spec"].endswith(":hangs")  # what was done before is kept


def test_inductor_with_cold_and_warm_compile(tct):
    """The real inductor backend on a builtin, with compile time in fresh processes."""
    r = tct("bench", "builtin:tiny_ops", "--param", "n_ops=8", "--budget", "2", "--warmup", "12",
            "--json", timeout=900)
    assert r.rc == 0, r
    row = r.json()["bench"]["rows"][0]
    assert row["backend"] == "inductor" and row["status"] == "ok"
    c = row["compile"]
    assert c["cold_ns"] > 0 and c["warm_ns"] > 0
    assert c["breakdown"]  # torch._dynamo.utils.compile_times
    # Inductor's FX graph cache served the warm compile (torch's own counters say so).
    assert c["warm_cache_hit"] is True, c
    assert row["correctness"]["match"] is True
    if row["speedup"]["estimate"] > 1:
        assert row["break_even_calls"] is None or row["break_even_calls"] >= 0


def test_compile_time_for_every_row_of_a_matrix(tct):
    """Row 0: cold = the main agent's first call, warm = a process started with the main one.
    Later rows: a cold and a warm process started together, compiling one after the other."""
    r = tct("bench", f"{T}:small", "--backend", "aot_eager,eager", "--budget", "1", "--warmup", "3",
            "--eager-warmup", "3", "--json", timeout=900)
    assert r.rc == 0, r
    rows = r.json()["bench"]["rows"]
    assert [row["status"] for row in rows] == ["ok", "ok"]
    for row in rows:
        c = row["compile"]
        assert c["cold_ns"] > 0 and c["warm_ns"] > 0 and "error" not in c, c
        assert c["single_measurement"] is True and c["warm"]["n"] == 1
        assert "warm_cache_hit" in c  # null for backends that use no compile cache
        m = row["memory"]
        assert m["compiled_peak_bytes"] > 0 and m["eager_peak_bytes"] > 0
        assert m["compile_peak_increase_bytes"] is not None and m["compiler_kept_bytes"] is not None
    assert rows[0]["compile"]["cold_source"].startswith("main agent")
    assert rows[1]["compile"]["cold_source"] == "fresh process, fresh caches"


def test_ctrl_c_keeps_what_was_measured(tmp_path):
    """A Ctrl-C while rows are measured: the --out document holds bench's partial result (the
    target, the eager baseline, the rows so far) as the last phase handed it on, and the error."""
    out = tmp_path / "b.json"
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.environ.get("TORCHINDUCTOR_CACHE_DIR", "/tmp/tct-test-inductor-cache"))
    env.pop("TCT_PYTHON", None)
    proc = subprocess.Popen([str(TCT), "bench", f"{T}:pytree_io", "--python", PYTHON, "--backend", "aot_eager",
                             "--budget", "60", "--no-compile-time", "--no-allocator-compare", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 120
    doc = None
    while time.monotonic() < deadline and proc.poll() is None:
        # Wait until the file shows the rows phase: the eager baseline is in, the row is running.
        try:
            doc = json.loads(out.read_text())
        except (OSError, ValueError):
            doc = None
        if doc and doc.get("bench", {}).get("phase") == "rows":
            break
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    doc = json.loads(out.read_text())
    assert doc["exit_code"] == 130 and doc["error"]["kind"] == "interrupted"
    b = doc["bench"]
    assert b["target"]["spec"].endswith(":pytree_io")
    assert b["eager"]["steady_ns"] > 0
    assert len(b["rows"]) == 1
