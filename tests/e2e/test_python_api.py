"""torch_compile_tool (the Python API) against the real binary, from the source tree.

The installed wheel, its pytest plugin and the npm package run in scripts/test_install.sh.
"""
import json
import re
import sys

import pytest

from tct_run import ROOT, TCT

sys.path.insert(0, str(ROOT / "python"))
import torch_compile_tool as tct  # noqa: E402
from torch_compile_tool.api import to_argv  # noqa: E402


@pytest.fixture(autouse=True)
def _this_build(monkeypatch):
    monkeypatch.setenv("TCT_BIN", str(TCT))
    monkeypatch.delenv("TCT_PYTHON", raising=False)


def test_options_map_to_flags_one_to_one():
    assert to_argv("bench", {"budget": 2, "no_check": True, "raw": False, "seed": None,
                             "param": {"batch": 8, "name": "a b"}, "out": ["a.json", "b.html"],
                             "fullgraph": "true,false"}) == [
        "--budget=2", "--no-check", "--param=batch=8", '--param=name="a b"',
        "--out=a.json", "--out=b.html", "--fullgraph=true,false"]


def test_allowed_options_are_the_flags_the_binary_lists():
    import subprocess
    help_text = subprocess.run([str(TCT), "explain", "--help"], capture_output=True, text=True).stdout
    listed = set(re.findall(r"--([a-z][a-z0-9-]*)", help_text)) - {"help", "json", "markdown"}
    assert tct.allowed_options("explain") == {f.replace("-", "_") for f in listed}
    assert "max_graph_breaks" in tct.allowed_options("explain")


def test_unknown_or_reserved_option_fails_before_anything_runs(tmp_path):
    out = tmp_path / "never.json"
    with pytest.raises(TypeError, match=r"budgett.*accepts: .*budget"):
        tct.bench("builtin:mlp", budgett=1, out=str(out))
    with pytest.raises(TypeError, match="markdown"):
        tct.probe(markdown=True)
    assert not out.exists()


def test_probe_returns_the_document_and_runs_in_this_interpreter():
    doc = tct.probe(quiet=True)
    assert doc["schema"] == tct.SCHEMA and doc["command"] == "probe" and doc["exit_code"] == 0
    assert doc["environment"]["interpreter"] == {"path": sys.executable, "chosen_by": "--python"}


def test_startup_returns_each_start_with_its_phases():
    """tct.startup maps its options to `tct startup`'s flags; the eager start's phases (from the
    agent's marks) add up to its launch-to-first-output time."""
    doc = tct.startup("builtin:tiny_ops", modes="eager", repeats=1, quiet=True)
    assert doc["command"] == "startup" and doc["exit_code"] == 0
    [mode] = doc["startup"]["modes"]
    assert mode["mode"] == "eager" and mode["error"] is None and mode["first_output_ns"] > 0, mode
    [start] = mode["starts"]
    assert sum(v for v in start["phases"].values() if v) == pytest.approx(start["first_output_ns"], rel=0.02), start


def test_failure_raises_with_exit_code_message_and_partial_document():
    with pytest.raises(tct.TctUsageError) as info:
        tct.bench("builtin:no_such_example", backend="aot_eager")
    e = info.value
    assert e.exit_code == 2 and e.kind == "bad_target"
    assert "no_such_example" in e.message and not e.message.startswith("tct: error")
    assert e.document["command"] == "bench" and e.document["exit_code"] == 2
    assert "tct: error:" in e.stderr


def test_a_binary_with_another_schema_is_refused(tmp_path, monkeypatch):
    # A stand-in for a newer tct: lists --python in its help, prints a tct/2 document.
    fake = tmp_path / "tct"
    doc = json.dumps({"schema": "tct/2", "command": "probe"})
    fake.write_text(f"#!/bin/sh\n[ \"$2\" = --help ] && echo '  --python TEXT' && exit 0\necho '{doc}'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("TCT_BIN", str(fake))
    with pytest.raises(tct.TctError, match="tct/2.*pip install -U torch-compile-tool") as info:
        tct.probe()
    assert info.value.document["schema"] == "tct/2"


def test_a_binary_that_is_not_there_or_not_tct_is_a_spawn_error(tmp_path, monkeypatch):
    monkeypatch.setenv("TCT_BIN", str(tmp_path / "nope"))
    with pytest.raises(tct.TctSpawnError, match=r"nope \(from \$TCT_BIN\)\. Point TCT_BIN at the tct binary"):
        tct.probe()
    silent = tmp_path / "tct"  # lists --python, then prints nothing: no document
    silent.write_text("#!/bin/sh\n[ \"$2\" = --help ] && echo '  --python TEXT'\nexit 0\n")
    silent.chmod(0o755)
    monkeypatch.setenv("TCT_BIN", str(silent))
    with pytest.raises(tct.TctSpawnError, match=r"without a JSON document on stdout\. This is a bug in tct") as info:
        tct.probe()
    assert info.value.exit_code == 0 and info.value.argv[0] == str(silent)


def _bench_doc(**row):
    base = {"label": "inductor", "status": "ok", "correctness": {"checked": True, "match": True},
            "speedup": {"estimate": 1.5, "low": 1.3, "high": 1.7}}
    return {"bench": {"rows": [{**base, **row}]}}


def test_assert_speedup_gates_on_the_lower_end_and_matching_outputs():
    tct.assert_speedup(_bench_doc(), at_least=1.3)
    with pytest.raises(AssertionError, match=r"lower end 1.300 < 1.4"):
        tct.assert_speedup(_bench_doc(), at_least=1.4)
    with pytest.raises(AssertionError, match="outputs differ"):
        tct.assert_speedup(_bench_doc(correctness={"checked": True, "match": False}), at_least=1.0)
    with pytest.raises(AssertionError, match="not checked"):
        tct.assert_speedup(_bench_doc(correctness={"checked": False, "match": None}), at_least=1.0)
    with pytest.raises(AssertionError, match="inconclusive"):
        tct.assert_speedup(_bench_doc(speedup={"estimate": None, "low": None, "high": None}), at_least=1.0)
    with pytest.raises(AssertionError, match="not measured"):
        tct.assert_speedup(_bench_doc(status="compile_failed", error={"message": "boom"}), at_least=1.0)


def test_versions_agree_across_cmake_and_npm():
    cmake = re.search(r"project\(tct VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)
    assert json.loads((ROOT / "node" / "package.json").read_text())["version"] == cmake
