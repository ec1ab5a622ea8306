"""The output check of `tct bench` end to end: the real binary, real torch.compile (aot_eager:
fast compiles), one held-out defect per test. Timing is cut to the minimum: these tests
are about the check, not the statistics."""
import importlib.util
import json

import pytest

from tct_run import FIXTURES
from test_schema import validate

T = str(FIXTURES / "check_targets.py")
# The output check is what these test: no compile-time or memory phases, no allocator comparison.
QUICK = ["--backend", "aot_eager", "--budget", "0.2", "--min-blocks", "2", "--warmup", "3",
         "--eager-warmup", "2", "--no-compile-time", "--no-memory", "--no-allocator-compare"]


def error_line(r):
    lines = [l for l in r.err.splitlines() if l.startswith("tct: error:")]
    assert len(lines) == 1, r
    return lines[0]


def check_of(r):
    return r.json()["bench"]["rows"][0]["correctness"]


def test_a_small_element_error_beside_large_values_is_caught(tct):
    r = tct("bench", f"{T}:small_element_error", *QUICK, "--json")
    assert r.rc == 1, r
    # The leaf, the element and both values in the first line.
    assert "out at [1]: expected 2, got 2.001" in error_line(r)
    validate(r.json())
    c = check_of(r)
    assert c["match"] is False and c["basis"] == "tolerance"
    (leaf,) = c["leaf_results"]
    assert leaf["out_of_tolerance"] == 1 and leaf["fraction_out_of_tolerance"] == pytest.approx(1 / 6)
    assert leaf["worst_index"] == [1] and leaf["max_abs_diff"] == pytest.approx(1e-3, rel=1e-3)
    # The float64 reference was asked for and shows eager exact, compiled not.
    assert c["reference"]["computed"] is True
    assert leaf["reference"]["eager_max_error"] == 0.0
    # A tolerance the user loosens on purpose still works.
    r = tct("bench", f"{T}:small_element_error", *QUICK, "--rtol", "2e-3", "--json")
    assert r.rc == 0, r
    assert check_of(r)["match"] is True


def test_a_gradient_only_difference_is_caught_under_train(tct):
    r = tct("bench", f"{T}:gradient_only_difference", *QUICK, "--train", "--json")
    assert r.rc == 1, r
    assert "grad['fc1.weight'] at [" in error_line(r)
    validate(r.json())
    c = check_of(r)
    assert c["differing_parameters"] == ["fc1.weight"]
    by_path = {l["path"]: l for l in c["leaf_results"]}
    # The forward and the loss agree: only the gradient and the step tell.
    assert by_path["loss"]["match"] and by_path["out"]["match"]
    assert not by_path["grad['fc1.weight']"]["match"]
    assert not by_path["param_after_step['fc1.weight']"]["match"]
    assert by_path["grad['fc2.weight']"]["match"] and by_path["grad['fc1.bias']"]["match"]


def test_dropout_in_train_mode_is_checked_conclusively(tct):
    r = tct("bench", f"{T}:dropout_train_mode", *QUICK, "--json")
    assert r.rc == 0, r
    c = check_of(r)
    assert c["match"] is True and c["nondeterministic"] is False
    assert c["seeded"] is True and c["eager_used_rng"] is True


def test_an_output_object_holding_tensors_is_walked(tct, tmp_path):
    out = tmp_path / "b.json"
    r = tct("bench", f"{T}:output_object", *QUICK, "-o", out)
    assert r.rc == 0, r
    assert "match (5 leaves; 1 not compared)" in r.out
    doc = json.loads(out.read_text())
    validate(doc)
    c = doc["bench"]["rows"][0]["correctness"]
    assert c["match"] is True and c["nondeterministic"] is False
    paths = {l["path"] for l in c["leaf_results"]}
    assert {"out.logits", "out.cache.layers[0].keys", "out.cache.layers[0].values"} <= paths
    assert c["not_compared"] == [{"path": "out.hook", "type": "_Hook"}]


def test_randomness_no_seed_controls_is_judged_against_eager_spread(tct):
    r = tct("bench", f"{T}:unseeded_noise", *QUICK, "--json")
    assert r.rc == 0, r
    c = check_of(r)
    assert c["nondeterministic"] is True and c["basis"] == "eager_spread" and c["match"] is True
    assert "nondeterministic" in [w["code"] for w in r.json()["warnings"]]


@pytest.mark.skipif(importlib.util.find_spec("transformers") is None,
                    reason="transformers is a test extra (requirements-dev.txt)")
def test_hugging_face_gpt2_is_checked_conclusively(tct):
    r = tct("bench", f"{T}:hf_gpt2", *QUICK, "--json")
    assert r.rc == 0, r
    c = check_of(r)
    assert c["match"] is True and c["nondeterministic"] is False
    paths = {l["path"] for l in c["leaf_results"]}
    assert "out['logits']" in paths
    assert any(p.startswith("out['cache'].layers[0].") for p in paths), paths
