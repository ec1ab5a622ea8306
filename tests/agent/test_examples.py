"""Built-in targets: each loads, runs eager, and compiles (aot_eager) to the same output."""
import json

import pytest
import torch
import torch._dynamo

from tct_agent.compare import difference_facts
from tct_agent.errors import TctError
from tct_agent.examples import BUILTINS, list_builtins
from tct_agent.target import load_target, tensor_leaves

# Small sizes: torch.compile on 2 CPU cores is slow.
SMALL = {
    "mlp": {"batch": 4, "width": 32, "depth": 2},
    "convnet": {"batch": 2, "channels": 4, "size": 16},
    "transformer_block": {"batch": 2, "seq": 8, "dim": 32, "heads": 2},
    "tiny_ops": {"batch": 1, "size": 16, "n_ops": 12},
    "graph_breaks": {"batch": 2, "dim": 8},
}


def test_every_builtin_is_covered_and_listed():
    assert set(SMALL) == set(BUILTINS)
    listed = list_builtins()
    json.dumps(listed, allow_nan=False)
    by_name = {b["name"]: b for b in listed}
    assert by_name["mlp"]["params"]["batch"] == 32
    assert by_name["convnet"]["params"]["channels"] == 16
    assert by_name["transformer_block"]["params"]["heads"] == 4
    assert by_name["tiny_ops"]["params"]["n_ops"] == 60
    for b in listed:
        assert b["description"]
        assert {"device", "dtype"} <= set(b["params"])
        assert any(k in b["params"] for k in ("batch",))


def assert_close(expected, actual, tol):
    facts = difference_facts(expected, actual)
    assert facts
    for f in facts:
        assert f["kind"] in ("tensor", "scalar", "other"), f
        if f["kind"] == "other":
            assert f["equal"], f
            continue
        assert f["shape_expected"] == f["shape_actual"] and f["dtype_expected"] == f["dtype_actual"]
        assert f["nan_actual"] == 0 and f["inf_mismatch"] == 0
        assert f["max_abs_diff"] <= tol * (1 + f["max_abs_expected"]), f


@pytest.mark.parametrize("name", list(SMALL))
def test_builtin_loads_runs_and_compiles(name):
    t = load_target(f"builtin:{name}", SMALL[name], device="cpu")
    eager = t.call()
    again = load_target(f"builtin:{name}", SMALL[name], device="cpu").call()
    assert_close(eager, again, 0.0)  # seeded: identical weights and inputs
    assert all(torch.isfinite(x).all() for _, x in tensor_leaves(eager))
    torch._dynamo.reset()
    compiled = torch.compile(t.fn, backend="aot_eager")
    assert_close(eager, t.call(compiled), 1e-5)


@pytest.mark.parametrize("name", ["mlp", "tiny_ops", "transformer_block"])
def test_builtin_dtype(name):
    t = load_target(f"builtin:{name}", SMALL[name], dtype="bfloat16")
    assert t.dtype == "bfloat16"
    out = t.call()
    assert out.dtype == torch.bfloat16
    if t.module is not None:
        assert all(p.dtype == torch.bfloat16 for p in t.module.parameters())


def test_builtin_train_step():
    t = load_target("builtin:transformer_block", SMALL["transformer_block"])
    t.train = True
    loss = t.call()
    assert loss.dim() == 0 and torch.isfinite(loss)
    assert all(p.grad is None for p in t.module.parameters())


def test_seed_changes_weights():
    a = load_target("builtin:mlp", {**SMALL["mlp"], "seed": 1}).call()
    b = load_target("builtin:mlp", {**SMALL["mlp"], "seed": 2}).call()
    assert not torch.equal(a, b)


def test_graph_breaks_has_at_least_three_breaks_and_dict_output():
    t = load_target("builtin:graph_breaks", SMALL["graph_breaks"])
    out = t.call()
    assert isinstance(out, dict) and set(out) == {"logits", "features", "score"}
    paths = [p for p, _ in tensor_leaves(out)]
    assert "out['features'][1]" in paths
    torch._dynamo.reset()
    with torch.no_grad():
        explanation = torch._dynamo.explain(t.fn)(*t.args)
    assert explanation.graph_break_count >= 3, explanation.break_reasons
    reasons = " ".join(b.reason for b in explanation.break_reasons)
    assert "print" in reasons and "item()" in reasons and "numpy" in reasons


def test_tiny_ops_is_a_function_with_many_ops():
    t = load_target("builtin:tiny_ops", {"n_ops": 5})
    assert t.module is None and t.describe()["kind"] == "function"
    with pytest.raises(TctError) as info:
        load_target("builtin:tiny_ops", {"n_ops": 0})
    assert info.value.kind == "target_raised" and info.value.stage == "factory"


def test_transformer_block_rejects_bad_heads():
    with pytest.raises(TctError) as info:
        load_target("builtin:transformer_block", {"dim": 30, "heads": 4})
    assert "divisible" in info.value.message


def test_unknown_builtin_param():
    with pytest.raises(TctError) as info:
        load_target("builtin:mlp", {"widht": 3})
    assert info.value.kind == "bad_param" and "width" in info.value.hint
