"""tct on more than one torch: the range probe states (and warns outside of), and what a CUDA
build says on a machine without a GPU. Every test here runs on whichever interpreter the
session targets (TCT_TEST_PYTHON: .venv's torch 2.13.0 CPU build, or .venv-torch2.14's 2.14.1
CUDA build, for which scripts/test.sh runs the subset in tests/e2e/torch_subset.txt); the CUDA
build's own test also runs from the 2.13.0 session when .venv-torch2.14 exists."""
import json
import subprocess
from pathlib import Path

import pytest

from tct_run import FIXTURES, PYTHON, ROOT, run_tct

TORCH_2_14 = ROOT / ".venv-torch2.14" / "bin" / "python"


def torch_facts(python):
    """The interpreter's own view: version, CUDA build, GPU visible."""
    code = "import json, torch; print(json.dumps([torch.__version__, torch.version.cuda, torch.cuda.is_available()]))"
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout)


def test_probe_states_the_supported_range_and_that_this_torch_is_tested():
    r = run_tct("probe", "--json", "--quiet")
    assert r.rc == 0, r
    p = r.json()["probe"]
    assert p["supported_torch"] == {"min": "2.6", "tested": ["2.13.0", "2.14.1"], "status": "tested"}
    assert not {x["code"] for x in p["reasons"]} & {"torch_unsupported", "torch_untested"}
    text = run_tct("probe", "--quiet")
    assert "tct supports  torch >= 2.6, tested on 2.13.0 and 2.14.1 (this release is tested)" in text.out, text


def test_a_torch_newer_than_any_tested_is_a_caveat_not_a_blocker():
    # The package metadata says 2.16.0 (a dist-info ahead of site-packages on the path), which is
    # the version probe's handshake reads without importing torch; the real torch still imports.
    r = run_tct("probe", "--json", "--quiet", env={"PYTHONPATH": str(FIXTURES / "newtorch")})
    assert r.rc == 0, r
    p = r.json()["probe"]
    assert p["torch"]["version"] == "2.16.0" and p["supported_torch"]["status"] == "newer"
    assert p["verdict"] == "usable_with_caveats"
    (caveat,) = [x for x in p["reasons"] if x["code"] == "torch_untested"]
    assert caveat["severity"] == "caveat"
    assert caveat["message"].startswith("torch 2.16.0 is newer than any release tct was tested on (2.13.0 and 2.14.1)")
    assert "use torch 2.14.1" in caveat["fix"]


@pytest.mark.skipif(not TORCH_2_14.exists() and "torch2.14" not in PYTHON,
                    reason=".venv-torch2.14 is missing (scripts/setup.sh makes it)")
def test_a_cuda_build_without_a_gpu_says_so_and_why():
    python = PYTHON if "torch2.14" in PYTHON else TORCH_2_14
    version, cuda, available = torch_facts(python)
    assert cuda and not available, "this test needs a CUDA build of torch on a machine without a GPU"
    r = run_tct("probe", "--json", "--quiet", python=python)
    assert r.rc == 0, r
    p = r.json()["probe"]
    assert p["facts"]["torch"]["build"] == "cuda" and p["facts"]["torch"]["cuda"] == cuda
    assert p["facts"]["devices"]["cuda_available"] is False and p["facts"]["devices"]["cuda"] == []
    why = p["facts"]["devices"]["cuda_error"]
    assert why  # torch.cuda.init()'s own words, e.g. "Found no NVIDIA driver on your system"
    (info,) = [x for x in p["reasons"] if x["code"] == "cuda_no_gpu"]
    assert info["severity"] == "info" and p["verdict"] == "usable"  # the CPU is still fine
    assert info["message"] == f"torch is a CUDA {cuda} build but sees no GPU ({why}): only the CPU is measured"
    text = run_tct("probe", "--quiet", python=python)
    assert f"no GPU visible ({why})" in text.out and f"(cuda {cuda} build)" in text.out, text


def test_a_cpu_build_says_nothing_about_gpus():
    version, cuda, available = torch_facts(PYTHON)
    if cuda:
        pytest.skip(f"{PYTHON} holds a CUDA build ({version})")
    r = run_tct("probe", "--json", "--quiet")
    assert r.rc == 0, r
    p = r.json()["probe"]
    assert p["facts"]["devices"]["cuda_error"] is None
    assert "cuda_no_gpu" not in {x["code"] for x in p["reasons"]}


SUITE = """
[defaults]
backend = "aot_eager"
budget = 0.2
warmup = 2
eager-warmup = 2
min-blocks = 2
no-compile-time = true
no-memory = true

[[target]]
name = "ok"
spec = "{targets}:small"

[[target]]
name = "raises"
spec = "{targets}:raises_on_call"
"""


def test_a_suite_records_a_failure_and_benches_the_rest(tmp_path):
    """The suite's whole path on this torch in one run (tests/e2e/test_suite.py covers shards, merge,
    resume and a hang on the project's torch): a compiled entry with its output check, and a failing
    one recorded as such."""
    from test_schema import validate
    (tmp_path / "s.toml").write_text(SUITE.format(targets=FIXTURES / "bench_targets.py"))
    r = run_tct("suite", tmp_path / "s.toml", "--quiet", "-o", tmp_path / "s.json")
    assert r.rc == 3 and "tct: error: 1 of 2 entries failed" in r.err, r
    doc = json.loads((tmp_path / "s.json").read_text())
    validate(doc)
    ok, raises = doc["suite"]["entries"]
    assert (ok["id"], ok["status"], raises["id"], raises["status"]) == \
        ("ok[backend=aot_eager]", "ok", "raises[backend=aot_eager]", "failed")
    assert raises["error"]["kind"] == "target_raised"
    assert ok["result"]["check"] == "match"
    row = ok["bench"]["rows"][0]
    assert row["backend"] == "aot_eager" and row["correctness"]["match"] is True
    assert row["speedup"]["low"] <= row["speedup"]["estimate"] <= row["speedup"]["high"]
    assert doc["environment"]["interpreter"]["path"] == PYTHON


def test_gpu_check_refuses_bad_usage_in_one_line(bare_python):
    """scripts/gpu_check.sh itself runs from scripts/test.sh (its CPU half here); its refusals are
    checked here: an unknown argument and an interpreter without torch are exit 2, one line."""
    script = str(ROOT / "scripts" / "gpu_check.sh")
    r = subprocess.run([script, "--frobnicate"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.strip() == "gpu_check: error: unknown argument --frobnicate (see --help)"
    r = subprocess.run([script, "--python", bare_python], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == f"gpu_check: error: {bare_python} cannot import torch (choose one with --python)"
    r = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "--cpu-only" in r.stdout
