"""tct startup -- CMD on real torch: a tiny service (tests/e2e/jobs/conv_service.py, a conv + linear
model whose forward is compiled) started as a command, against `tct startup` of the same model in
its FILE:FACTORY form (tests/e2e/jobs/service_model.py:make_model). Both time fresh processes from
launch to the first output of the compiled model; what differs is around it: the command goes
through tct run's bootstrap (its sitecustomize and recorder, a TORCH_TRACE in every mode) and,
forced eager, still calls torch.compile (which imports Dynamo), while the factory's eager start
never does. Each form's two starts per mode are seconds apart on a shared machine."""
import pytest

from tct_run import PYTHON, ROOT, run_tct
from test_schema import validate

JOBS = ROOT / "tests" / "e2e" / "jobs"
MODES = ["eager", "cold", "warm"]
# The command form adds the bootstrap (about a second on two busy cores) and its eager start the
# import of Dynamo, which the factory's eager start is credited with from its own warm start's
# torch.compile set-up phase. What is left between two forms run minutes apart on a shared machine
# moved by up to a third in the runs this tolerance was set on (bench/startup_cmd_vs_factory.py).
RATIO = (0.67, 1.5)


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    out = tmp_path_factory.mktemp("startup_command")
    cmd = run_tct("startup", "--modes", ",".join(MODES), "--repeats", "2", "--quiet", "--json",
                  "-o", str(out / "command.html"), "--", PYTHON, JOBS / "conv_service.py", "3", python=None)
    assert cmd.rc == 0, cmd
    factory = run_tct("startup", f"{JOBS / 'service_model.py'}:make_model", "--modes", ",".join(MODES),
                      "--repeats", "2", "--quiet", "--json")
    assert factory.rc == 0, factory
    return cmd.json(), factory.json(), out


def modes(doc):
    return {m["mode"]: m for m in doc["startup"]["modes"]}


def test_the_command_form_validates_and_names_the_compiled_call_site(both):
    doc, _, out = both
    validate(doc)
    s = doc["startup"]
    assert s["command"][-2:] == [str(JOBS / "conv_service.py"), "3"]
    assert list(modes(doc)) == MODES
    for m in s["modes"]:
        assert m["error"] is None, m
        assert [site["name"] for site in m["sites"]] == ["TinyConvNet"], m["sites"]
        assert len(m["starts"]) == 2
        for start in m["starts"]:
            assert start["error"] is None and start["first_output_ns"] > 0, start
            assert start["sites"][0]["first_output_ns"] == start["first_output_ns"]
        assert m["low_ns"] <= m["first_output_ns"] <= m["high_ns"]
        assert m["coverage"] == pytest.approx(0.5)  # [min, max] of two starts: too few for 95%
        assert m["sites"][0]["first_output_ns"] == m["first_output_ns"]
    assert "Start-up" in (out / "command.html").read_text()


def test_warm_caches_hit_and_start_sooner_than_cold_in_both_forms(both):
    cmd, factory, _ = both
    for doc in (cmd, factory):
        ms = modes(doc)
        assert ms["warm"]["first_output_ns"] < ms["cold"]["first_output_ns"], doc["startup"]["target"]
        assert ms["eager"]["first_output_ns"] < ms["cold"]["first_output_ns"]
    warm = modes(cmd)["warm"]
    assert {lookup["state"] for lookup in warm["cache"]} == {"hit"}, warm["cache"]
    assert {lookup["state"] for lookup in modes(cmd)["cold"]["cache"]} == {"miss"}


def overlaps(a, b):
    return a["low_ns"] <= b["high_ns"] and b["low_ns"] <= a["high_ns"]


def test_each_modes_median_agrees_with_the_factory_forms(both):
    cmd, factory, _ = both
    c, f = modes(cmd), modes(factory)
    for mode in MODES:
        expected = f[mode]["first_output_ns"]
        if mode == "eager":  # the command's eager start imports Dynamo through torch.compile
            expected += f["warm"]["phases"]["compile_setup_ns"]
        ratio = c[mode]["first_output_ns"] / expected
        assert overlaps(c[mode], f[mode]) or RATIO[0] <= ratio <= RATIO[1], (mode, c[mode], f[mode], ratio)


def test_a_saved_command_document_renders_its_call_sites(both, tmp_path):
    cmd, _, _ = both
    saved = tmp_path / "saved.json"
    saved.write_text(__import__("json").dumps(cmd))
    again = run_tct("report", saved, "-v")
    assert again.rc == 0, again
    assert "call site" in again.out and "TinyConvNet" in again.out


def test_aoti_is_refused_for_a_command_as_bad_usage():
    r = run_tct("startup", "--modes", "aoti", "--", PYTHON, JOBS / "conv_service.py", python=None)
    assert r.rc == 2, r
    assert "FILE.py:FACTORY" in r.err


def test_a_target_and_a_command_together_or_neither_is_bad_usage():
    r = run_tct("startup", "builtin:tiny_ops", "--", PYTHON, JOBS / "conv_service.py", python=None)
    assert r.rc == 2 and "Give one: FILE.py:FACTORY, or -- CMD ARGS..." in r.err, r
    r = run_tct("startup", "--modes", "eager", python=None)
    assert r.rc == 2 and "tct startup -- python serve.py" in r.err, r
