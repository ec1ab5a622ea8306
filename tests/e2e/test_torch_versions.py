"""tct on more than one torch: the range probe states (and warns outside of), and what a CUDA
build says on a machine without a GPU. Every test here runs on whichever interpreter the
session targets (TCT_TEST_PYTHON: .venv's torch 2.13.0 CPU build, or the 2.14.1 and 2.15.0 CUDA
builds of .venv-torch2.14 and .venv-torch2.15, for which scripts/test.sh runs the subset in
tests/e2e/torch_subset.txt), except two
written for the subset alone: the CUDA build's own test and a compact suite."""
import json
import subprocess

import pytest

from tct_run import FIXTURES, PYTHON, ROOT, run_tct



def torch_facts(python):
    """The interpreter's own view: version, CUDA build, GPU visible."""
    code = "import json, torch; print(json.dumps([torch.__version__, torch.version.cuda, torch.cuda.is_available()]))"
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout)


def test_probe_states_the_supported_range_and_that_this_torch_is_tested():
    r = run_tct("probe", "--json", "--quiet")
    assert r.rc == 0, r
    p = r.json()["probe"]
    assert p["supported_torch"] == {"min": "2.6", "tested": ["2.13.0", "2.14.1", "2.15.0"], "status": "tested"}
    assert not {x["code"] for x in p["reasons"]} & {"torch_unsupported", "torch_untested"}
    text = run_tct("probe", "--quiet")
    assert "tct supports  torch >= 2.6, tested on 2.13.0, 2.14.1 and 2.15.0 (this release is tested)" in text.out, text


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
    assert caveat["message"].startswith(
        "torch 2.16.0 is newer than any release tct was tested on (2.13.0, 2.14.1 and 2.15.0)")
    assert "use torch 2.15.0" in caveat["fix"]


# The project's own interpreter: the whole suite runs on it, so a test written for the subset
# on other torch releases (where test_suite.py does not run) need not run again there.
PROJECT_PYTHON = PYTHON == str(ROOT / ".venv" / "bin" / "python")


@pytest.mark.skipif(PROJECT_PYTHON, reason="the subset runs it on the CUDA builds of 2.14.1 and 2.15.0 (scripts/test.sh)")
def test_a_cuda_build_without_a_gpu_says_so_and_why():
    python = PYTHON
    version, cuda, available = torch_facts(python)
    if not cuda or available:
        pytest.skip(f"needs a CUDA build of torch on a machine without a GPU ({version}, GPU visible: {available})")
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


@pytest.mark.skipif(PROJECT_PYTHON, reason="tests/e2e/test_suite.py covers suites on the project's torch")
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


def _gpu_check_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "scripts" / "gpu_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _CannedRunner:
    """tct's bench rows and the plain loop's speedups, one per try, in the order they are asked for."""
    budget = "1"

    def __init__(self, tries):
        self.tries = list(tries)  # (estimate, low, high, inconclusive, direct speedup)

    def tct(self, *argv, env=None):
        est, low, high, inconclusive, self.next_direct = self.tries.pop(0)
        row = {"status": "ok", "speedup": {"estimate": est, "low": low, "high": high, "inconclusive": inconclusive},
               "correctness": {"match": True},
               "latency": {"eager": {"median": 100.0}, "compiled": {"median": 100.0 / est}}}
        return 0, {"bench": {"rows": [row]}}, [""]

    def direct(self, **spec):
        return {"speedup": self.next_direct, "eager_ns": 100.0, "compiled_ns": 100.0 / self.next_direct}


@pytest.mark.parametrize("tries, busy, verdict, tries_used", [
    ([(0.70, 0.66, 0.74, False, 0.72)], "", "PASS", 1),                          # inside the interval
    ([(0.70, 0.20, 3.00, True, 0.72)], "", "PASS", 1),                           # within 5%, however wide
    ([(0.70, 0.20, 3.00, True, 1.00), (0.70, 0.66, 0.74, False, 0.71)], "", "PASS", 2),  # second try agrees
    ([(0.70, 0.66, 0.74, False, 1.00), (0.70, 0.66, 0.74, False, 1.00)], "", "FAIL", 2),
    ([(0.70, 0.20, 3.00, True, 1.00), (0.70, 0.20, 3.00, True, 1.00)], "", "INFO", 2),  # inconclusive twice
    ([(0.70, 0.66, 0.74, False, 1.00), (0.70, 0.66, 0.74, False, 1.00)], "load average 7.0 on 2 CPUs", "INFO", 2),
])
def test_gpu_check_judges_a_speedup_by_the_plain_loop(monkeypatch, tries, busy, verdict, tries_used):
    """The rule scripts/gpu_check.py applies to bench's speedup: within 5% of the plain loop, or inside
    a conclusive interval; a second try on a disagreement; not judged (INFO, said why) only when tct
    itself was inconclusive both times or the machine was busier than its CPUs."""
    gc = _gpu_check_module()
    monkeypatch.setattr(gc, "busy", lambda: busy)
    runner, checks = _CannedRunner(tries), gc.Checks()
    gc.check_bench(runner, checks, "cpu", "aot_eager")
    (speedup,) = [row for row in checks.rows if row[0].endswith(": speedup")]
    assert speedup[3] == verdict, speedup
    assert len(tries) - len(runner.tries) == tries_used
    if verdict == "INFO":
        assert "NOT JUDGED: " + (busy or "tct's interval was inconclusive both times") in speedup[4]
