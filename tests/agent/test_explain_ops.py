"""ops/explain.py: the raw facts (no interpretation), the logged run's TORCH_TRACE file
(tct reads it), every frame of a break (tct keeps the user's), the code objects dynamo saw
(qualified names), the registry lookup, and the torch 2.0 tuple form passed on as it is."""
import os
from types import SimpleNamespace

import pytest
import torch

from tct_agent.ops import explain as ex
from tct_agent.session import Session
from tct_agent.target import LoadedTarget

HERE = os.path.abspath(__file__)


def _fn(x):
    y = x + 1
    print("agent test print")
    return y * 2


PRINT_LINE = _fn.__code__.co_firstlineno + 2


def _loaded(fn, *args):
    return LoadedTarget(spec="t", name="t", fn=fn, args=args, kwargs={})


def test_op_run_gathers_both_views(tmp_path):
    s = Session(target=_loaded(_fn, torch.randn(3)))
    facts = ex.op_run({"trace_dir": str(tmp_path)}, s)
    e = facts["explain"]
    assert (e["form"], e["graph_count"], e["graph_break_count"]) == ("object", 2, 1)
    assert e["op_count"] == 2 and e["guard_count"] > 0
    br = e["break_reasons"][0]
    assert br["frames"][-1] == {"file": HERE, "line": PRINT_LINE, "function": "_fn", "source": 'print("agent test print")'}
    assert set(br) == {"reason", "frames"}  # raw: the registry id is read by tct
    logged = facts["logged"]
    assert logged["error"] is None and logged["calls"] == 2
    # the break is in the run's trace, for tct's reader (no second parser here)
    text = open(logged["trace_file"], encoding="utf-8").read()
    assert f"Graph break in user code at {HERE}:{PRINT_LINE}" in text
    assert facts["code_dirs"]["torch"] == os.path.dirname(torch.__file__)
    # the code objects dynamo was handed, with their qualified names
    assert {"file": HERE, "line": _fn.__code__.co_firstlineno, "name": "_fn", "qualname": "_fn"} in logged["code_names"]


def test_logged_view_captures_without_printing(capfd, tmp_path):
    logged = ex.logged_view(_loaded(_fn, torch.randn(3)), 1, str(tmp_path))
    assert logged["error"] is None and logged["warnings"] == []
    assert os.path.dirname(logged["trace_file"]) == str(tmp_path)
    out, err = capfd.readouterr()
    assert "Graph break in user code" not in err + out  # captured, not printed
    # torch's own handlers are back afterwards
    import logging
    assert all(not isinstance(h, ex._Capture) for h in logging.getLogger("torch").handlers)


def test_first_call_failure_is_target_raised():
    def boom(x):
        raise ValueError("nope")
    with pytest.raises(ex.TctError) as info:
        ex.explain_view(_loaded(boom, torch.randn(2)))
    assert info.value.kind == "target_raised"


def test_stack_frames_are_every_frame_raw():
    # Which frames are the user's is decided in C++ (is_user_file): the agent sends them all.
    tdir = os.path.dirname(torch.__file__)
    stack = [SimpleNamespace(filename=os.path.join(tdir, "nn", "modules", "module.py"), lineno=1, name="_call_impl", line="x"),
             SimpleNamespace(filename=os.path.join(ex._EXAMPLES_DIR, "models.py"), lineno=3, name="forward", line="z"),
             SimpleNamespace(filename=HERE, lineno=PRINT_LINE, name="_fn", line=None)]
    frames = ex.stack_frames(stack)
    assert [f["function"] for f in frames] == ["_call_impl", "forward", "_fn"]
    assert frames[2]["source"] == 'print("agent test print")'  # read with linecache


def test_logged_run_needs_a_trace_dir():
    with pytest.raises(ex.TctError) as info:
        ex.op_run({}, Session(target=_loaded(_fn, torch.randn(3))))
    assert info.value.kind == "internal"


def test_torch20_tuple_passed_on_raw():
    reason = SimpleNamespace(reason="generic_jump TensorVariable()",
                             user_stack=[SimpleNamespace(filename=HERE, lineno=PRINT_LINE, name="_fn", line="p")])
    out = ("Dynamo produced 2 graphs with 1 graph break and 3 ops", ["g1", "g2"], [object(), object()],
           [[torch.add, torch.sin], [torch.relu]], [reason], "verbose")
    f = ex.explain_facts(out)
    assert f["form"] == "tuple" and f["graphs"] == 2 and f["out_guards"] == ["g1", "g2"]
    assert f["explanation"].startswith("Dynamo produced 2 graphs")
    assert f["break_reasons"][0]["reason"] == "generic_jump TensorVariable()"
    assert len(f["ops_per_graph"]) == 2 and f["ops_per_graph"][1][0].endswith("relu")
    assert ex._old_explain("2.0.1") and not ex._old_explain("2.13.0+cpu")


def test_torch_without_structured_trace_has_no_logged_view(monkeypatch):
    monkeypatch.setattr(ex, "_writes_trace", lambda: False)
    facts = ex.op_run({}, Session(target=_loaded(_fn, torch.randn(3))))
    assert facts["logged"] is None and "writes no TORCH_TRACE log" in facts["logged_unsupported"]


def test_registry_op_answers_the_ids_asked():
    out = ex.op_registry({"ids": ["GB0059", "GB9999"]}, None)
    assert set(out) == {"GB0059", "GB9999"} and out["GB9999"] is None
    if ex._registry():
        assert out["GB0059"]["gb_type"]
