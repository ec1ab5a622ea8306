"""The fix tct prints for a break or a recompile: one fix per break in every command, each with
its cost and conditions, checked against torch's own text of the same break in the same run
(the logged reason's Hint lines, the trace's recompile reasons, the files of the break's
traceback). Jobs in tests/e2e/jobs/, written apart from examples/."""
import json

import pytest

from tct_run import PYTHON, ROOT, run_tct
from test_run_jobs import JOBS, trace_metrics


def run_job(tmp, *job, rc=0):
    from test_schema import validate

    out = tmp / "run.json"
    r = run_tct("run", "-o", out, "--dir", tmp / "run", "--", *job)
    assert r.rc == rc, r
    doc = json.loads(out.read_text())
    validate(doc)
    return r, doc


def explain_hints(e):
    """Every (reason text, hint) explain's document holds: groups, skipped frames, breaks."""
    out = [(g["reason_full"] if "reason_full" in g else g["reason"], g["hint"]) for g in e["groups"]]
    out += [(f.get("skip_reason_full") or f["reason"], f["hint"]) for f in e["skipped_frames"]]
    out += [(b["reason"], b["hint"]) for b in e["breaks"] if b.get("hint")]
    return out


def test_an_rnn_break_gets_one_fix_with_its_cost_in_explain_and_run(tmp_path):
    job = JOBS / "lstm_tagger.py"
    ex = run_tct("explain", f"{job}:make", "--json", "--quiet")
    assert ex.rc == 0, ex
    e = ex.json()["explain"]
    # The oracle: torch's own reason of the break, as the logged run wrote it, names allow_rnn.
    logged = [b for b in e["logged"]["graph_breaks"] if "RNN, GRU, or LSTM" in b["reason_full"]]
    assert logged, e["logged"]["graph_breaks"]
    assert "Hint: Set torch._dynamo.config.allow_rnn=True" in logged[0]["reason_full"]
    rnn = [h for reason, h in explain_hints(e) if h and "allow_rnn" in (h.get("fix") or "")]
    assert rnn, explain_hints(e)
    for h in rnn:  # allow_rnn is never given without its cost
        assert h["terms"]["id"] == "allow_rnn" and h["terms"]["untried"] is True
        assert "sequence length" in h["terms"]["cost"] and h["terms"]["source"].startswith("torch/_dynamo/")
    text = run_tct("explain", f"{job}:make", "--quiet")
    for line in [l for l in text.out.splitlines() if "allow_rnn" in l]:
        nxt = text.out.splitlines()[text.out.splitlines().index(line) + 1]
        assert "unrolls the RNN" in nxt and "tct has not tried it" in nxt, text.out

    # explain's own view of that break (torch._dynamo.explain's "step_unsupported") has the same fix.
    at_line = [b for b in e["breaks"] if b["frames"] and b["frames"][-1]["line"] == logged[0]["line"]]
    assert at_line and all(b["hint"]["fix"] == rnn[0]["fix"] for b in at_line), e["breaks"]

    r, doc = run_job(tmp_path, PYTHON, job)
    assert "lstm_tagger: tagged 4 clips" in r.out
    # torch counts no graph break for a break it cannot resume from: run's eager part holds it.
    parts = [p for pr in doc["run"]["processes"] for s in pr["sites"] for p in s.get("eager_parts", [])]
    at_lstm = [p for p in parts if p["from_line"] == logged[0]["line"] and p["file"].endswith("lstm_tagger.py")]
    assert at_lstm, parts
    # The same break, the same fix and terms as explain's.
    assert {p["hint"]["fix"] for p in at_lstm} == {rnn[0]["fix"]}
    assert all(p["hint"]["terms"] == rnn[0]["terms"] for p in at_lstm)
    assert "read the reason; move the code out" not in r.err
    assert "unrolls the RNN over the time dimension" in r.err and "allow_rnn" in r.err


def test_a_recompile_under_dynamic_true_gets_torchs_hint_not_dynamic_true(tmp_path):
    r, doc = run_job(tmp_path, PYTHON, JOBS / "dynamic_clip_lengths.py")
    # The oracle: the trace's own recompile reason, with torch's note naming mark_unbacked.
    reasons = [m["recompile_reason"] for m in trace_metrics(doc["run"]["trace_dir"]).values()
               if m.get("recompile_reason")]
    assert reasons and any("2 <= " in x and "mark_unbacked" in x for x in reasons), reasons
    (site,) = doc["run"]["processes"][0]["sites"]
    (g,) = site["recompile_groups"]
    assert g["cause"] == "size" and g["fix_terms"]["id"] == "mark_unbacked"
    assert "mark_unbacked" in g["fix"] and "torch.compile(..., dynamic=True)" not in g["fix"]
    assert g["fix_terms"]["cost"] and g["fix_terms"]["untried"] is True
    assert "dynamic=True is no fix" in r.err and "mark_unbacked" in r.err


TORCHRUN = ROOT / ".venv" / "bin" / "torchrun"


@pytest.mark.skipif(not TORCHRUN.exists(), reason="no torchrun in the venv")
def test_breaks_inside_ddp_get_the_wrap_order_not_move_the_print(tmp_path):
    r, doc = run_job(tmp_path, TORCHRUN, "--nproc-per-node", "2", "--master-port", "29571",
                     JOBS / "ddp_compiled_outside.py")
    assert "ddp_compiled_outside: 6 steps on 2 ranks" in r.out
    # The oracle: the files of each break's traceback in the trace, read here directly: the
    # breaks whose stack runs through DDP's forward (torch/nn/parallel/distributed.py).
    breaks = [b for p in doc["run"]["processes"] for s in p["sites"] for b in s["breaks"]]
    in_ddp = [b for b in breaks if "torch/nn/parallel/distributed.py" in b["file"] or "contextlib" in b["file"]]
    assert in_ddp, breaks
    for b in in_ddp:
        assert b["fix_terms"]["id"] == "ddp_wrap_order", b
        assert "DDP(torch.compile(model))" in b["fix"] and "optimize_ddp" in b["fix"]
        assert b["fix_terms"]["untried"] is True  # tct did not run it the other way
        assert b["fix_terms"]["measured_by"] == "tct run --try-fixes"  # the flag that would
    assert "move the print/logging out" not in r.err and "register it as a custom op" not in r.err
    assert "DDP(torch.compile(model))" in r.err
    assert "tct has not tried it on your inputs (tct run --try-fixes measures it)" in r.err
