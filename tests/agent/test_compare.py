"""difference_facts: raw per-leaf facts, never a verdict."""
import collections
import dataclasses
import json
import math

import numpy as np
import pytest
import torch

from tct_agent.compare import difference_facts


def one(expected, actual):
    facts = difference_facts(expected, actual)
    json.dumps(facts, allow_nan=False)  # always valid JSON: no NaN/inf numbers
    assert len(facts) == 1, facts
    return facts[0]


def test_identical_float_tensor():
    t = torch.randn(3, 4)
    f = one(t, t.clone())
    assert f["kind"] == "tensor" and f["path"] == "out"
    assert f["shape_expected"] == f["shape_actual"] == [3, 4]
    assert f["dtype_expected"] == "float32" and f["numel"] == 12
    assert f["max_abs_diff"] == 0.0 and f["max_rel_diff"] == 0.0 and f["equal"] is True
    assert f["max_abs_expected"] == pytest.approx(float(t.abs().max()))
    assert (f["nan_expected"], f["nan_actual"], f["nan_mismatch"], f["inf_mismatch"]) == (0, 0, 0, 0)


def test_diff_values_and_worst_element():
    e = torch.tensor([[1.0, 2.0], [0.0, -4.0]])
    a = torch.tensor([[1.0, 2.5], [0.1, -4.0]])
    f = one(e, a)
    assert f["max_abs_diff"] == pytest.approx(0.5)
    assert f["worst_index"] == [0, 1]
    assert f["expected_at_worst"] == 2.0 and f["actual_at_worst"] == 2.5
    # relative: 0.5/2 = 0.25; the 0 -> 0.1 element is excluded (expected is zero)
    assert f["max_rel_diff"] == pytest.approx(0.25)
    assert f["mean_abs_diff"] == pytest.approx(0.6 / 4)
    assert f["max_abs_expected"] == 4.0 and f["equal"] is False


def test_diff_is_computed_in_float64():
    e = torch.tensor([1.0], dtype=torch.float32)
    a = torch.nextafter(e, torch.tensor([2.0]))
    f = one(e, a)
    assert f["max_abs_diff"] == pytest.approx(2 ** -23)
    assert f["equal"] is False


def test_nan_and_inf_counts():
    e = torch.tensor([1.0, float("nan"), float("inf"), 2.0, float("-inf")])
    a = torch.tensor([float("nan"), float("nan"), float("inf"), float("inf"), float("inf")])
    f = one(e, a)
    assert f["nan_expected"] == 1 and f["nan_actual"] == 2 and f["nan_mismatch"] == 1
    assert f["inf_mismatch"] == 2          # 2 vs inf, -inf vs inf
    assert f["max_abs_diff"] == 0.0        # no finite pair differs
    same = one(e, e.clone())
    assert same["nan_mismatch"] == 0 and same["inf_mismatch"] == 0 and same["equal"] is True


def test_shape_mismatch_has_no_diff():
    f = one(torch.zeros(2, 3), torch.zeros(3, 2))
    assert f["shape_expected"] == [2, 3] and f["shape_actual"] == [3, 2]
    assert f["max_abs_diff"] is None and f["equal"] is False


def test_dtype_mismatch_still_diffs():
    f = one(torch.ones(2), torch.ones(2, dtype=torch.float16))
    assert f["dtype_expected"] == "float32" and f["dtype_actual"] == "float16"
    assert f["max_abs_diff"] == 0.0 and f["equal"] is False


def test_bool_and_int_tensors():
    f = one(torch.tensor([True, False]), torch.tensor([True, True]))
    assert f["dtype_expected"] == "bool" and f["max_abs_diff"] == 1.0 and not f["equal"]
    big = torch.tensor([2 ** 60], dtype=torch.int64)
    f = one(big, big + 1)  # not representable apart in float64, still not equal
    assert f["equal"] is False
    f = one(torch.arange(5), torch.arange(5))
    assert f["equal"] is True and f["max_abs_diff"] == 0.0


def test_complex_uses_modulus():
    e = torch.tensor([1 + 1j, 0j], dtype=torch.complex64)
    a = torch.tensor([1 + 1j, 3 + 4j], dtype=torch.complex64)
    f = one(e, a)
    assert f["max_abs_diff"] == pytest.approx(5.0)
    assert f["max_abs_expected"] == pytest.approx(math.sqrt(2))
    assert f["expected_at_worst"] == [0.0, 0.0] and f["actual_at_worst"] == [3.0, 4.0]


def test_zero_dim_and_empty():
    f = one(torch.tensor(2.0), torch.tensor(2.5))
    assert f["shape_expected"] == [] and f["max_abs_diff"] == 0.5 and f["worst_index"] == []
    f = one(torch.zeros(0, 3), torch.zeros(0, 3))
    assert f["numel"] == 0 and f["max_abs_diff"] == 0.0 and f["equal"] is True


def test_non_contiguous_requires_grad_and_numpy():
    e = torch.randn(4, 4, requires_grad=True)
    f = one(e.t(), e.detach().t().contiguous())
    assert f["equal"] is True
    f = one(np.ones(3, dtype=np.float32), np.full(3, 1.5, dtype=np.float32))
    assert f["kind"] == "tensor" and f["device_expected"] == "numpy"
    assert f["max_abs_diff"] == 0.5


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_other_device():
    e = torch.randn(3)
    f = one(e, e.cuda())
    assert f["device_actual"].startswith("cuda") and f["equal"] is True


def test_pytree_paths_and_structure():
    Pair = collections.namedtuple("Pair", "a b")
    e = {"x": [torch.ones(1), 2.0], "p": Pair(torch.zeros(1), "s")}
    a = {"p": Pair(torch.zeros(1), "s"), "x": [torch.ones(1), 2.0]}  # key order differs
    facts = difference_facts(e, a)
    assert [f["path"] for f in facts] == ["out['x'][0]", "out['x'][1]", "out['p'].a", "out['p'].b"]
    assert [f["kind"] for f in facts] == ["tensor", "scalar", "tensor", "other"]
    assert all(f["equal"] for f in facts)


def test_structure_mismatches():
    facts = difference_facts({"a": torch.ones(1), "b": 1}, {"a": torch.ones(1), "c": 1})
    kinds = [(f["path"], f["kind"]) for f in facts]
    assert ("out", "structure") in kinds and ("out['a']", "tensor") in kinds
    s = next(f for f in facts if f["kind"] == "structure")
    assert "missing b" in s["description"] and "extra c" in s["description"]

    facts = difference_facts([torch.ones(1), torch.ones(1)], [torch.ones(1)])
    assert facts[0]["kind"] == "structure" and "expected 2 items, got 1" in facts[0]["description"]
    assert facts[1]["path"] == "out[0]"

    f = one((torch.ones(1),), [torch.ones(1)])
    assert f["kind"] == "structure" and f["type_expected"] == "tuple"
    f = one(torch.ones(1), 1.0)
    assert f["kind"] == "structure" and "tensor" in f["description"]


def test_scalars_and_others():
    f = one(1.0, 1.0 + 1e-9)
    assert f["kind"] == "scalar" and f["dtype_expected"] == "float"
    assert f["max_abs_diff"] == pytest.approx(1e-9) and f["equal"] is False
    f = one(float("nan"), float("nan"))
    assert f["nan_mismatch"] == 0 and f["equal"] is True and f["value_expected"] is None
    f = one(3, 3)
    assert f["dtype_expected"] == "int" and f["equal"] is True
    f = one(True, False)
    assert f["dtype_expected"] == "bool" and f["equal"] is False
    f = one(np.float32(1.5), np.float32(1.5))
    assert f["dtype_expected"] == "float32" and f["equal"] is True
    f = one(1 + 2j, 1 + 2j)
    assert f["value_expected"] == [1.0, 2.0] and f["equal"] is True
    f = one(None, None)
    assert f["kind"] == "other" and f["equal"] is True
    f = one("a", "b")
    assert f["kind"] == "other" and f["equal"] is False and f["repr_actual"] == "'b'"
    f = one(torch.Size([2, 3]), torch.Size([2, 3]))
    assert f["kind"] == "other" and f["equal"] is True
    f = one(torch.float32, torch.float16)
    assert f["equal"] is False


def test_dataclass_and_return_types():
    @dataclasses.dataclass
    class Out:
        logits: torch.Tensor
        loss: object = None

    facts = difference_facts(Out(torch.ones(2)), Out(torch.ones(2) * 2))
    assert [f["path"] for f in facts] == ["out.logits", "out.loss"]
    assert facts[0]["max_abs_diff"] == 1.0
    m = torch.tensor([[1.0, 3.0]]).max(dim=1)
    facts = difference_facts(m, m)
    # torch.return_types as torch's pytree flattens them: by position.
    assert [f["path"] for f in facts] == ["out[0]", "out[1]"]
    assert facts[1]["dtype_expected"] == "int64"


F32 = {"float32": {"rtol": 1e-4, "atol": 1e-5, "ref_multiplier": 2.0}}


def test_every_element_is_held_to_its_own_tolerance():
    e = torch.tensor([1e6, 1.0, 2e6, 0.0])
    a = e.clone()
    a[1] += 1e-3  # small next to 1e6, large for an element of size 1
    f = difference_facts(e, a, F32)[0]
    assert f["tolerance"] == {"rtol": 1e-4, "atol": 1e-5}
    assert f["out_of_tolerance"] == 1 and f["worst_index"] == [1]
    assert f["expected_at_worst"] == 1.0 and f["actual_at_worst"] == pytest.approx(1.001)
    # Noise within each element's allowance counts nothing.
    ok = difference_facts(e, e * (1 + 1e-6), F32)[0]
    assert ok["out_of_tolerance"] == 0
    # Without tolerances every difference counts.
    assert difference_facts(e, a)[0]["out_of_tolerance"] == 1


def test_float64_reference_per_element():
    ref = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    eager = torch.tensor([1.0, 2.0, 3.0])
    eager_off = eager.clone()
    eager_off[2] += 0.01           # eager itself is off by 0.01 at element 2
    compiled = eager.clone()
    compiled[2] += 0.015           # compiled is off by 0.015 there: within 2x eager's error
    f = difference_facts(eager_off, compiled, F32, reference=ref)[0]
    r = f["reference"]
    assert r["eager_max_error"] == pytest.approx(0.01, rel=1e-3)
    assert r["compiled_max_error"] == pytest.approx(0.015, rel=1e-3)
    assert r["out_of_tolerance"] == 0
    compiled[0] += 0.02            # where eager is exact: beyond 2x its RMS error (0.0058)
    f = difference_facts(eager_off, compiled, F32, reference=ref)[0]
    assert f["reference"]["out_of_tolerance"] == 1 and f["reference"]["worst_index"] == [0]


class _Layer:
    def __init__(self, k, v):
        self.keys, self.values, self.is_initialized = k, v, True


class _Cache:  # shaped like transformers' DynamicCache: not a pytree node, holds tensors
    def __init__(self, *layers):
        self.layers = list(layers)
        self.on_update = None


class _Opaque:
    pass


def test_objects_holding_tensors_are_walked_to_their_tensors():
    k = torch.randn(2, 3)
    e = {"logits": torch.ones(2), "cache": _Cache(_Layer(k, k * 2))}
    a = {"logits": torch.ones(2), "cache": _Cache(_Layer(k.clone(), k * 2 + 1))}
    facts = {f["path"]: f for f in difference_facts(e, a)}
    assert set(facts) == {"out['logits']", "out['cache'].layers[0].keys",
                          "out['cache'].layers[0].values", "out['cache'].layers[0].is_initialized",
                          "out['cache'].on_update"}
    assert facts["out['cache'].layers[0].keys"]["equal"] is True
    assert facts["out['cache'].layers[0].values"]["max_abs_diff"] == pytest.approx(1.0)


def test_objects_without_equality_are_not_compared():
    facts = difference_facts({"x": torch.ones(1), "h": _Opaque()}, {"x": torch.ones(1), "h": _Opaque()})
    f = next(f for f in facts if f["path"] == "out['h']")
    assert f == {"path": "out['h']", "kind": "not_compared", "type": "_Opaque"}


def test_snapshot_copies_tensors_inside_objects():
    from tct_agent.compare import snapshot
    k = torch.zeros(2)
    snap = snapshot(_Cache(_Layer(k, k)))
    k += 1  # a later call reusing the buffer must not change what was recorded
    facts = difference_facts(snap, _Cache(_Layer(torch.zeros(2), torch.zeros(2))))
    assert all(f["equal"] for f in facts if f["kind"] == "tensor")
