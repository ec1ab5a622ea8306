"""The expect.* ops: raw evidence only (profile, FLOPs/bytes, device identity, ceilings)."""
import pytest

from tct_agent.errors import TctError
from tct_agent.ops import expect as E
from tct_agent.ops import target as T
from tct_agent.session import Session


@pytest.fixture
def tiny():
    s = Session()
    T.op_load({"target": "builtin:tiny_ops", "params": {"n_ops": 8}}, s)
    return s


def test_profile_counts_the_top_level_ops(tiny):
    p = E.op_profile({"calls": 3, "warmup": 1, "timed_calls": 4}, tiny)
    assert p["device_type"] == "cpu"
    assert p["calls_profiled"] == 3
    assert len(p["wall_samples_ns"]) == 4
    assert p["ops_per_call"] == [8, 8, 8]
    assert len(p["op_durations_ns"]) == 24 and len(p["op_is_library"]) == 24
    assert all(v == 0 for v in p["op_is_library"])
    for wall, in_op in zip(p["profiled_wall_ns"], p["in_op_ns"]):
        assert 0 < in_op <= wall
    assert all(set(c) <= {"pointwise", "other"} for c in p["in_op_by_class_ns"])
    assert p["device_busy_ns"] is None and p["kernel_launches"] is None


def test_flops_and_bytes_of_a_matmul():
    s = Session()
    T.op_load({"target": "builtin:mlp", "params": {"batch": 4, "width": 16, "depth": 1}}, s)
    f = E.op_flops({}, s)
    assert f["error"] is None
    # Two Linear(16, 16) on 4 rows: 2 * 4 * 16 * 16 FLOPs each.
    assert f["flops_per_call"] == 2 * 2 * 4 * 16 * 16
    classes = {o["name"]: o["class"] for o in f["ops"]}
    assert classes["aten::addmm"] == "matmul"
    assert classes["aten::gelu"] == "pointwise"
    assert f["bytes_per_call"] > f["boundary_bytes"] > 0


def test_op_class_by_tags():
    import torch
    assert E.op_class(torch.ops.aten.sin.default) == "pointwise"
    assert E.op_class(torch.ops.aten.sum.dim_IntList) == "reduction"
    assert E.op_class(torch.ops.aten.view.default) == "view"
    assert E.op_class(torch.ops.aten.convolution.default) == "conv"
    assert E._profile_op_class("aten::linear") == "matmul"
    assert E._profile_op_class("not_an_op") == "other"


def test_target_raising_on_first_call_is_target_raised():
    s = Session()
    T.op_load({"target": "builtin:tiny_ops", "params": {}}, s)
    s.target.args = ("not a tensor",)
    with pytest.raises(TctError) as ei:
        E.op_profile({"calls": 1}, s)
    assert ei.value.kind == "target_raised"
    assert ei.value.stage == "first call"


def test_device_info_and_small_ceilings(tiny):
    info = E.op_device_info({}, tiny)
    assert info["device_type"] == "cpu" and info["dtype"] == "float32"
    assert info["device_name"] and info["torch_version"]
    c = E.op_ceilings({"repeats": 2, "copy_bytes": 1 << 20, "matmul_n": 64}, tiny)
    assert c["peak_flops"] > 0 and c["peak_bandwidth_bytes_per_s"] > 0 and c["op_floor_ns"] > 0
    assert c["matmul_error"] is None


def test_ceilings_reject_a_missing_device():
    with pytest.raises(TctError) as ei:
        E.op_device_info({"device": "cuda:7"}, Session())
    assert ei.value.kind == "unsupported"


def test_ops_need_a_loaded_target():
    with pytest.raises(TctError):
        E.op_profile({}, Session())
