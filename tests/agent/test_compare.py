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
    assert [f["path"] for f in facts] == ["out.values", "out.indices"]
    assert facts[1]["dtype_expected"] == "int64"
