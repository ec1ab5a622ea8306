"""The target contract: load_target, describe, move_to, tensor_leaves, train step, ops."""
import collections
import json
import sys
from pathlib import Path

import pytest
import torch

from tct_agent.errors import TctError
from tct_agent.session import Session
from tct_agent.target import (LoadedTarget, load_target, make_train_step, move_to,
                              parse_dtype, tensor_leaves)
from tct_agent.ops.target import op_builtins, op_load

FIX = Path(__file__).parent / "fixtures"
MODEL = f"{FIX / 'user_model.py'}"


def spec(name, file=MODEL):
    return f"{file}:{name}"


def raises_kind(kind, *args, **kwargs):
    with pytest.raises(TctError) as info:
        load_target(*args, **kwargs)
    assert info.value.kind == kind, (info.value.kind, info.value.message)
    assert info.value.message and info.value.hint
    return info.value


# ------------------------------------------------------------------------------ loading

def test_load_module_target_and_describe():
    t = load_target(spec("model"), {"batch": 3})
    assert isinstance(t, LoadedTarget)
    assert t.name == "model" and t.module is t.fn
    assert t.args[0].shape == (3, 8) and t.kwargs == {}
    assert t.device == "cpu" and t.dtype == "float32"
    assert t.source_file == str(FIX / "user_model.py")
    d = t.describe()
    json.dumps(d, allow_nan=False)
    assert d["kind"] == "module" and d["fn_name"] == "Small"
    assert d["parameter_count"] == 8 * 8 + 8
    assert d["parameter_bytes"] == (8 * 8 + 8) * 4
    assert d["inputs"] == [{"path": "args[0]", "shape": [3, 8], "dtype": "float32",
                            "device": "cpu", "requires_grad": False}]
    assert d["params"] == {"batch": 3}


def test_factory_receives_device_and_dtype_when_it_accepts_them():
    t = load_target(spec("model"), {}, device="cpu", dtype="bf16")
    assert t.module.lin.weight.dtype == torch.bfloat16
    assert t.args[0].dtype == torch.bfloat16
    assert t.dtype == "bfloat16" and t.device == "cpu"


def test_loader_moves_module_and_floating_tensors_itself():
    t = load_target(spec("plain"), {"batch": 2}, dtype="float64")
    assert t.module.lin.weight.dtype == torch.float64
    assert t.args[0].dtype == torch.float64
    assert t.kwargs == {"scale": 2.0}
    d = t.describe()
    assert d["inputs"][1] == {"path": "kwargs['scale']", "type": "float", "value": "2.0"}
    assert t.call().dtype == torch.float64


def test_function_target_with_kwargs_and_var_kwargs_factory():
    t = load_target(spec("function"), {"n": 3})
    assert t.module is None and t.describe()["kind"] == "function"
    out = t.call()
    assert torch.equal(out["sum"], torch.tensor([1.0, 2.0, 3.0]))
    t2 = load_target(spec("anything"), {"whatever": 1}, dtype="float64")
    assert t2.args == (t2.args[0],) and t2.args[0].dtype == torch.float64


def test_single_tensor_args_are_wrapped():
    t = load_target(spec("single_tensor_args"), {})
    assert isinstance(t.args, tuple) and len(t.args) == 1


def test_module_spec_and_builtin_spec():
    t = load_target("tct_agent.examples.models:mlp", {"batch": 2, "width": 8, "depth": 1})
    assert t.args[0].shape == (2, 8)
    b = load_target("builtin:mlp", {"batch": 2, "width": 8, "depth": 1})
    assert torch.equal(t.call(), b.call())


def test_inference_call_runs_without_grad_and_accepts_a_compiled_fn():
    t = load_target(spec("model"), {})
    assert not t.call().requires_grad
    compiled = torch.compile(t.fn, backend="eager")
    assert torch.allclose(t.call(compiled), t.call())


def test_clashing_file_name_does_not_replace_the_agent():
    import tct_agent
    t = load_target(str(FIX / "clash" / "tct_agent.py") + ":model", {})
    assert sys.modules["tct_agent"] is tct_agent
    assert torch.equal(t.call(), torch.ones(2))


# ------------------------------------------------------------------------------- errors

@pytest.mark.parametrize("bad", ["", "model.py", "nocolon", "x.py:", ":model", "a b:c",
                                 "x.py:not-a-name"])
def test_bad_spec_format(bad):
    raises_kind("bad_target", bad, {})


def test_file_not_found():
    e = raises_kind("bad_target", str(FIX / "nope.py") + ":model", {})
    assert "file not found" in e.message


def test_syntax_error_is_target_raised_at_import():
    e = raises_kind("target_raised", spec("model", FIX / "broken_syntax.py"), {})
    assert e.stage == "import" and isinstance(e.cause, SyntaxError)
    assert "broken_syntax.py:1" in e.message


def test_import_error_keeps_cause():
    e = raises_kind("target_raised", spec("model", FIX / "broken_import.py"), {})
    assert e.stage == "import" and isinstance(e.cause, ModuleNotFoundError)
    assert "tct_no_such_dependency" in e.hint


def test_missing_module_is_bad_target():
    raises_kind("bad_target", "tct_no_such_pkg.models:make", {})


def test_name_not_found_lists_callables():
    e = raises_kind("bad_target", spec("modle"), {})
    assert "no 'modle' in user_model.py; it defines:" in e.message
    assert "model" in e.message and "make_inputs" in e.message
    assert "torch" not in e.message.split("defines:")[1].split(", ")  # imports not listed
    assert "did you mean 'model'" in e.hint


def test_unknown_parameter_lists_accepted():
    e = raises_kind("bad_param", spec("model"), {"bacth": 2})
    assert "'bacth'" in e.message
    assert "batch, hidden, device, dtype" in e.hint and "did you mean 'batch'" in e.hint


def test_parameter_types_checked_against_defaults_before_the_factory_runs():
    e = raises_kind("bad_param", spec("model"), {"batch": "abc"})
    assert e.message == "parameter 'batch' of model takes an integer, got the string 'abc'"
    assert e.hint == "write it like --param batch=2"
    raises_kind("bad_param", spec("model"), {"batch": True})  # a bool is not a size
    raises_kind("bad_param", "builtin:mlp", {"depth": 1.5})
    # Whatever fits the default's type, and None, passes; a None default checks nothing.
    assert load_target(spec("model"), {"batch": 3, "device": "cpu"}).params["batch"] == 3
    assert load_target("builtin:tiny_ops", {"n_ops": 2, "size": 8}).fn is not None


def test_missing_required_parameter():
    e = raises_kind("bad_param", spec("needs_size"), {})
    assert "size" in e.message


def test_factory_raises():
    e = raises_kind("target_raised", spec("raises"), {})
    assert e.stage == "factory" and isinstance(e.cause, ValueError)
    assert "boom in factory" in e.message


@pytest.mark.parametrize("name,text", [
    ("returns_int", "factory returned_int; expected (fn, args) or (fn, args, kwargs)"),
    ("returns_four", "returned a 4-tuple"),
    ("not_callable", "not callable"),
    ("bad_args", "args of type int"),
    ("instance", "nn.Module instance, not a factory"),
])
def test_wrong_return_shapes(name, text):
    e = raises_kind("bad_target", spec(name), {})
    assert text.replace("returned_int", "returns_int returned int") in e.message \
        or text in e.message, e.message


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without CUDA")
def test_cuda_unavailable():
    e = raises_kind("unsupported", spec("model"), {}, device="cuda")
    assert "cpu" in e.hint


@pytest.mark.parametrize("dev", ["bogus", "meta", "cuda:99"])
def test_unknown_or_unusable_device(dev):
    raises_kind("unsupported", spec("model"), {}, device=dev)


@pytest.mark.parametrize("dt", ["float13", "int64", "banana"])
def test_unknown_dtype(dt):
    raises_kind("bad_param", spec("model"), {}, dtype=dt)


def test_dtype_aliases():
    assert parse_dtype("bf16") is torch.bfloat16
    assert parse_dtype("torch.float16") is torch.float16
    assert parse_dtype("double") is torch.float64
    assert parse_dtype(None) is None


def test_unknown_builtin_lists_names():
    e = raises_kind("bad_target", "builtin:mlpp", {})
    assert "mlp" in e.message and "convnet" in e.message and "builtin:mlp" in e.hint


# --------------------------------------------------------------------- pytree helpers

def test_tensor_leaves_paths():
    Pair = collections.namedtuple("Pair", "a b")
    t = torch.zeros(1)
    tree = ({"a": [t, 3, t]}, Pair(t, (t,)), collections.OrderedDict(x=t), "s", None)
    paths = [p for p, _ in tensor_leaves(tree)]
    assert paths == ["out[0]['a'][0]", "out[0]['a'][2]", "out[1].a", "out[1].b[0]",
                     "out[2]['x']"]


def test_tensor_leaves_dataclass_and_duck_mapping():
    t = load_target(spec("structured"), {})
    paths = [p for p, _ in tensor_leaves(t.call())]
    assert paths == ["out.logits", "out.hidden[0]", "out.hidden[1].first",
                     "out.hidden[1].second"]

    class Bag:
        def __init__(self):
            self._d = {"ids": torch.ones(2)}

        def keys(self):
            return self._d.keys()

        def __getitem__(self, k):
            return self._d[k]

    assert [p for p, _ in tensor_leaves([Bag()], root="x")] == ["x[0]['ids']"]
    maxed = torch.tensor([[1.0, 2.0]]).max(dim=1)
    assert [p for p, _ in tensor_leaves(maxed)] == ["out.values", "out.indices"]


def test_move_to_casts_only_floating_and_keeps_structure():
    Pair = collections.namedtuple("Pair", "a b")
    tree = {"f": torch.ones(2), "i": torch.arange(2), "p": Pair(torch.ones(1), 3),
            "l": [torch.ones(1, dtype=torch.float64)]}
    out = move_to(tree, "cpu", "float16")
    assert out["f"].dtype == torch.float16 and out["i"].dtype == torch.int64
    assert isinstance(out["p"], Pair) and out["p"].b == 3 and out["p"].a.dtype == torch.float16
    assert out["l"][0].dtype == torch.float16
    assert move_to(tree, None, None) is tree
    m = torch.nn.Linear(2, 2)
    assert move_to(m, None, torch.float64).weight.dtype == torch.float64


# ------------------------------------------------------------------------- train step

def test_train_step_module():
    t = load_target(spec("model"), {})
    step = make_train_step(t)
    loss = step()
    assert loss.dim() == 0 and not loss.requires_grad
    assert all(p.grad is None for p in t.module.parameters())
    expected = t.fn(*t.args).float().sum()
    assert torch.allclose(loss, expected)
    t.train = True
    assert torch.allclose(t.call(), loss)
    compiled = torch.compile(t.fn, backend="aot_eager")
    assert torch.allclose(t.call(compiled), loss, rtol=1e-4, atol=1e-4)


def test_train_step_structured_output_sums_all_float_leaves():
    t = load_target(spec("structured"), {})
    loss = make_train_step(t)()
    out = t.fn(*t.args)
    expected = out.logits.sum() + (out.hidden[0]).sum() + out.hidden[1].first + out.hidden[1].second
    assert torch.allclose(loss, expected, rtol=1e-5, atol=1e-4)


def test_train_step_function_makes_float_inputs_require_grad():
    t = load_target(spec("function"), {"n": 3})
    loss = make_train_step(t)()
    assert torch.isfinite(loss)
    assert t.args[0].requires_grad and t.args[0].grad is None


def test_train_frozen_module_differentiates_inputs():
    t = load_target(spec("frozen"), {})
    make_train_step(t)()
    assert t.args[0].requires_grad


def test_train_int_only_is_unsupported():
    t = load_target(spec("int_only"), {})
    with pytest.raises(TctError) as info:
        make_train_step(t)
    assert info.value.kind == "unsupported" and info.value.hint


def test_train_non_differentiable_output_is_unsupported_when_run():
    t = load_target(spec("detached_output"), {})
    step = make_train_step(t)
    with pytest.raises(TctError) as info:
        step()
    assert info.value.kind == "unsupported" and info.value.stage == "train"


# --------------------------------------------------------------------------------- ops

def test_op_load_and_builtins():
    s = Session()
    s.compiled["stale"] = object()
    d = op_load({"target": spec("model"), "params": {"batch": 2}, "device": "cpu",
                 "dtype": None, "train": False}, s)
    assert d["kind"] == "module" and s.target.name == "model" and not s.compiled
    json.dumps(d, allow_nan=False)
    d = op_load({"target": spec("model"), "params": None, "train": True}, s)
    assert d["train"] is True and s.target.step is not None
    assert s.target.call().dim() == 0
    names = [b["name"] for b in op_builtins({}, s)["builtins"]]
    assert names == ["mlp", "convnet", "transformer_block", "tiny_ops", "graph_breaks"]
    with pytest.raises(TctError) as info:
        op_load({"target": spec("model"), "params": [1]}, s)
    assert info.value.kind == "bad_param"
    with pytest.raises(TctError) as info:
        op_load({}, s)
    assert info.value.kind == "bad_target"
