"""The agent's tolerance rule against the cases tct's C++ copy is tested on too
(tests/vectors/tolerance.json; tests/unit/test_tolerance_vectors.cpp): the allowance itself,
and what difference_facts counts out of tolerance on a one-element output."""
import json
from pathlib import Path

import pytest

from tct_agent.compare import allowed_difference, difference_facts

CASES = json.loads((Path(__file__).resolve().parents[1] / "vectors" / "tolerance.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_allowed_difference(case):
    e, a, r = case["expected"], case["actual"], case.get("reference")
    magnitude, eager_error = (abs(e), 0.0) if r is None else (abs(r), abs(e - r))
    assert allowed_difference(case["tolerance"], magnitude, eager_error) == pytest.approx(case["allowed"], rel=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_difference_facts_counts_beyond(case):
    torch = pytest.importorskip("torch")
    tolerances = {"default": case["tolerance"]}
    e = torch.tensor([float(case["expected"])], dtype=torch.float64)
    a = torch.tensor([float(case["actual"])], dtype=torch.float64)
    if "reference" not in case:
        (fact,) = difference_facts(e, a, tolerances)
        assert fact["out_of_tolerance"] == int(case["beyond"]), fact
        return
    r = torch.tensor([float(case["reference"])], dtype=torch.float64)
    (fact,) = difference_facts(e, a, tolerances, reference=r)
    assert fact["reference"]["out_of_tolerance"] == int(case["beyond"]), fact
