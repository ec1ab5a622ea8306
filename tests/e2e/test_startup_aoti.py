"""tct startup's AOTInductor package run from C++ (tct-aoti, built by scripts/setup.sh against
.venv's libtorch): its outputs against eager's, its start and per-call time measured in the
C++ process; the row skipped with its reason where it cannot run, the other rows still
measured."""
import pytest

from tct_run import run_tct
from test_schema import validate


@pytest.fixture(scope="module")
def aoti():
    r = run_tct("startup", "builtin:tiny_ops", "--param", "n_ops=4", "--modes", "eager,aoti-cpp", "--repeats", "2",
                "--quiet", "--json")
    assert r.rc == 0, r
    return r.json()


def modes(doc):
    return {m["mode"]: m for m in doc["startup"]["modes"]}


def test_the_cpp_runner_matches_eager_and_is_timed_in_its_own_process(aoti):
    validate(aoti)
    cpp = modes(aoti)["aoti-cpp"]
    assert cpp["skipped"] is None and cpp["error"] is None, cpp
    check = cpp["output_check"]
    assert check["match"] and check["shape_equal"] and check["max_abs_diff"] <= 1e-4, check
    assert cpp["package_compile_ns"] > 0 and cpp["shipped_bytes"] > 0
    assert cpp["per_call_ns"] > 0
    for s in cpp["starts"]:
        assert set(s["phases"]) == {"interpreter_ns", "load_inputs_ns", "load_package_ns", "first_call_ns"}, s
        assert sum(s["phases"].values()) == pytest.approx(s["first_output_ns"], rel=1e-6)
        assert len(s["steady_ns"]) >= 3
    # No interpreter, no `import torch`: the C++ start is well ahead of eager's.
    assert cpp["high_ns"] < modes(aoti)["eager"]["low_ns"], (cpp, modes(aoti)["eager"])
    assert aoti["startup"]["verdict"]["fastest"] == "aoti-cpp"


def test_rows_that_cannot_run_are_skipped_with_their_reason_and_eager_still_runs(tmp_path):
    """No compiler and an empty runner cache: aoti-cpp has nothing to build with. A model with
    graph breaks torch.export cannot take: aoti gets the exporter's reason and its fix."""
    r = run_tct("startup", "builtin:graph_breaks", "--modes", "eager,aoti,aoti-cpp", "--repeats", "1", "--quiet",
                "--json", env={"XDG_CACHE_HOME": str(tmp_path), "CXX": "/nonexistent/c++"})
    assert r.rc == 0, r
    ms = modes(r.json())
    assert ms["aoti-cpp"]["skipped"] == "no C++ compiler on PATH (install g++ or set CXX)"
    assert ms["aoti"]["skipped"].startswith("torch.export cannot take this model: "), ms["aoti"]
    assert ms["eager"]["error"] is None and ms["eager"]["first_output_ns"] > 0
    text = run_tct("report", *_saved(tmp_path, r.out)).out
    assert "aoti-cpp skipped: no C++ compiler" in text and "aoti skipped: torch.export cannot take" in text, text


def _saved(tmp_path, out):
    path = tmp_path / "doc.json"
    path.write_text(out)
    return [str(path)]
