"""The expect.* ops: raw evidence only (profile, FLOPs/bytes, device identity, ceilings)."""
import statistics
from pathlib import Path

import pytest
import torch

from tct_agent.errors import TctError
from tct_agent.ops import expect as E
from tct_agent.ops import target as T
from tct_agent.session import Session


@pytest.fixture
def tiny():
    s = Session()
    T.op_load({"target": "builtin:tiny_ops", "params": {"n_ops": 8}}, s)
    return s


def test_profile_returns_raw_events(tiny):
    p = E.op_profile({"calls": 3, "warmup": 1, "timed_calls": 4, "min_seconds": 0, "compiled_call": False}, tiny)
    assert p["device_type"] == "cpu"
    assert p["compiled_call_rounds_ns"] == [] and p["compiled_call_error"] is None  # not asked for
    # At least timed_calls plain calls (op_profile's contract): how many more run while the profiled
    # calls wait for their turn depends on the warm-up's timing, so on the machine's load.
    assert len(p["wall_samples_ns"]) >= 4
    assert all(w > 0 for w in p["wall_samples_ns"])
    assert len(p["calls"]) == 3 and not p["events_truncated"]
    names = [n["name"] for n in p["op_names"]]
    for call in p["calls"]:
        assert len(call["op"]) == len(call["ns"]) == 8  # the 8 top-level ops, in order
        assert 0 < sum(call["ns"]) <= call["wall_ns"]
        assert "kernels_ns" not in call  # CPU: no device events
    assert {names[i] for i in p["calls"][0]["op"]} <= {"aten::mul", "aten::add", "aten::sub", "aten::sin",
                                                       "aten::tanh", "aten::cos", "aten::sigmoid"}
    # Facts, not classes: each name's schema tags.
    assert all("pointwise" in n["tags"] and not n["is_view"] for n in p["op_names"])


def test_flops_and_bytes_of_a_matmul():
    s = Session()
    T.op_load({"target": "builtin:mlp", "params": {"batch": 4, "width": 16, "depth": 1}}, s)
    f = E.op_flops({}, s)
    assert f["error"] is None
    # Two Linear(16, 16) on 4 rows: 2 * 4 * 16 * 16 FLOPs each.
    assert f["flops_per_call"] == 2 * 2 * 4 * 16 * 16
    ops = {o["name"]: o for o in f["ops"]}
    assert ops["aten::addmm"]["flops"] > 0
    assert "pointwise" in ops["aten::gelu"]["tags"]
    assert "class" not in ops["aten::addmm"]  # classes are decided in C++
    assert f["bytes_per_call"] > f["boundary_bytes"] > 0
    # Read from outside the call: the input, and each Linear's weight and bias.
    assert f["outside_tensors"] == 1 + 2 * 2
    # nn.Module forwards: the MLP, its Sequential, two Linears and the GELU between them.
    assert f["module_calls"] == 5


def test_outside_tensors_count_a_reused_weight_once():
    s = Session()
    T.op_load({"target": f"{Path(__file__).parent / 'fixtures' / 'reused_layer.py'}:make", "params": {}}, s)
    f = E.op_flops({}, s)
    assert f["outside_tensors"] == 1 + 2  # the input, one weight and one bias
    assert f["module_calls"] == 3  # a plain function calling one Linear three times


def test_module_calls_of_a_function_without_modules():
    s = Session()
    T.op_load({"target": "builtin:tiny_ops", "params": {"n_ops": 4}}, s)
    f = E.op_flops({}, s)
    assert f["module_calls"] == 0
    assert not torch.nn.modules.module._global_forward_pre_hooks  # the counting hook is gone


def test_name_facts():
    assert "pointwise" in E._name_facts("aten::sin")["tags"]
    assert "reduction" in E._name_facts("aten::sum")["tags"]
    assert E._name_facts("aten::view")["is_view"]
    assert E._name_facts("not_an_op") == {"tags": [], "is_view": False}


def test_target_raising_on_first_call_is_target_raised():
    s = Session()
    T.op_load({"target": "builtin:tiny_ops", "params": {}}, s)
    s.target.args = ("not a tensor",)
    with pytest.raises(TctError) as ei:
        E.op_profile({"calls": 1}, s)
    assert ei.value.kind == "target_raised"
    assert ei.value.stage == "first call"


def test_profiled_calls_spread_over_the_seconds(tiny):
    # A lower envelope is only as quiet as the quietest moment its calls saw: the profiled
    # calls are paced over min_seconds, not bunched at the start.
    p = E.op_profile({"calls": 5, "warmup": 1, "timed_calls": 2, "min_seconds": 0.5, "compiled_call": False}, tiny)
    starts = [c["at_s"] for c in p["calls"]]
    assert len(starts) == 5 and starts == sorted(starts)
    assert starts[0] < 0.05 and starts[-1] >= 0.35
    assert p["seconds"] >= 0.5 and len(p["wall_samples_ns"]) > 5  # plain calls fill the gaps


def test_a_profiler_that_records_nothing_ends_the_profile(tiny, monkeypatch):
    # The pacing counts the calls asked of the profiler: runs that record no call (another
    # profiler active in the target) end the profile with no profiled call, not a hang.
    import torch.profiler

    class Silent:
        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def events(self):
            return []

    monkeypatch.setattr(torch.profiler, "profile", Silent)
    p = E.op_profile({"calls": 4, "warmup": 1, "timed_calls": 2, "min_seconds": 0.1, "compiled_call": False}, tiny)
    assert p["calls"] == [] and len(p["wall_samples_ns"]) >= 2


def test_profile_times_the_fixed_costs_between_its_calls(tiny):
    # The compiled call and the op floor are timed in the profile's own seconds, and the plain
    # calls go on until min_seconds have passed (the machine's speed moves between seconds).
    p = E.op_profile({"calls": 2, "warmup": 1, "timed_calls": 2, "min_seconds": 0.3}, tiny)
    # Raw timings: every round of the compiled add, every add of each run's floor (the fastest
    # round and the fastest run's median are C++'s, src/expect/timings.cpp).
    assert p["compiled_call_error"] is None
    assert p["compiled_call_rounds_ns"] and all(t > 0 for t in p["compiled_call_rounds_ns"])
    floors = [statistics.median(run) for run in p["op_floor_adds_ns"] if run]
    assert floors and "op_floor_ns" not in p and "compiled_call_ns" not in p
    assert min(p["compiled_call_rounds_ns"]) > min(floors) > 0  # guards, wrapper, a kernel > one eager add
    assert len(p["wall_samples_ns"]) > 2
    assert sum(p["wall_samples_ns"]) < 0.3e9  # the timed calls are a part of those seconds


def test_device_info_and_small_ceilings(tiny):
    info = E.op_device_info({}, tiny)
    assert info["device_type"] == "cpu" and info["dtype"] == "float32"
    assert info["device_name"] and info["torch_version"]
    c = E.op_ceilings({"repeats": 2, "copy_bytes": 1 << 20, "matmul_n": 64}, tiny)
    # Raw timings only: the ceilings are computed in C++ (src/expect/timings.cpp).
    assert "peak_flops" not in c and "peak_bandwidth_bytes_per_s" not in c and "op_floor_ns" not in c
    assert len(c["copy_ns"]) == len(c["matmul_ns"]) == 2 and min(c["copy_ns"]) > 0 and min(c["matmul_ns"]) > 0
    assert c["copied_bytes"] == 1 << 20 and c["matmul_error"] is None
    assert len(c["op_floor_rounds_ns"]) == 3  # the first, left out in C++, and `repeats` more
    floor = min(statistics.median(r) for r in c["op_floor_rounds_ns"][1:] if r)
    # A real compiled call (guards, wrapper, one kernel) costs more than one eager add.
    assert c["compiled_call_error"] is None and len(c["compiled_call_rounds_ns"]) >= 15
    assert min(c["compiled_call_rounds_ns"]) > floor > 0


def test_ceilings_reject_a_missing_device():
    with pytest.raises(TctError) as ei:
        E.op_device_info({"device": "cuda:7"}, Session())
    assert ei.value.kind == "unsupported"


def test_ops_need_a_loaded_target():
    with pytest.raises(TctError):
        E.op_profile({}, Session())
