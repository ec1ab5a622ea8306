"""tct probe and the foundation's failure paths, against the real binary."""
import json
import os
import subprocess
import time

import pytest

from tct_run import FIXTURES, PYTHON, ROOT, run_tct


def agents(name):
    return str(FIXTURES / "agents" / name)


def test_probe_json_reports_real_torch_and_smoke_matches(tct):
    r = tct("probe", "--smoke", "--json", "--quiet")
    assert r.rc == 0, r
    doc = r.json()
    assert doc["schema"] == "tct/1" and doc["command"] == "probe" and doc["exit_code"] == 0
    p = doc["probe"]
    # The interpreter's own torch (2.13.0 CPU build in .venv, 2.14.1 CUDA build in .venv-torch2.14).
    direct = json.loads(subprocess.run(
        [PYTHON, "-c", "import json, torch; print(json.dumps([torch.__version__, torch.version.cuda]))"],
        capture_output=True, text=True, check=True).stdout)
    assert p["facts"]["torch"]["version"] == direct[0]
    assert p["facts"]["torch"]["build"] == ("cuda" if direct[1] else "cpu")
    assert p["facts"]["torch"]["compile_available"] is True
    assert "inductor" in p["facts"]["backends"]["default"]
    assert p["facts"]["devices"]["cuda_available"] is False  # no GPU on the test machines
    assert p["facts"]["cpp_compiler"]["path"]
    assert p["verdict"] in ("usable", "usable_with_caveats")
    smoke = p["smoke"]
    assert [s["device"] for s in smoke] == ["cpu"]
    assert smoke[0]["ok"] and smoke[0]["match"] and smoke[0]["compile_ns"] > 0
    assert doc["environment"]["interpreter"]["chosen_by"] == "--python"


def test_probe_text_shows_verdict_and_interpreter(tct):
    r = tct("probe")
    assert r.rc == 0, r
    assert "verdict: usable" in r.out
    assert "chosen by --python" in r.out


def test_interpreter_from_tct_python_env():
    r = run_tct("probe", "--json", python=None, env={"TCT_PYTHON": PYTHON})
    assert r.rc == 0, r
    assert r.json()["environment"]["interpreter"]["chosen_by"] == "TCT_PYTHON"


def test_interpreter_from_virtual_env():
    venv = str(ROOT / ".venv")
    r = run_tct("probe", "--json", python=None, env={"VIRTUAL_ENV": venv})
    assert r.rc == 0, r
    assert r.json()["environment"]["interpreter"]["chosen_by"] == "VIRTUAL_ENV"


def test_env_var_that_disables_compile_is_a_blocker(tct):
    r = tct("probe", "--json", env={"TORCHDYNAMO_DISABLE": "1"})
    assert r.rc == 1, r
    reasons = {x["code"] for x in r.json()["probe"]["reasons"]}
    assert "compile_disabled" in reasons


def test_no_python_at_path(tct):
    r = tct("probe", "--python", "/no/such/python")
    assert r.rc == 2, r
    lines = r.err.strip().splitlines()
    assert lines[0].startswith("tct: error: no Python interpreter at /no/such/python")
    assert "Traceback" not in r.err


def test_torch_not_installed(bare_python):
    r = run_tct("probe", "--json", python=bare_python)
    assert r.rc == 1, r
    doc = r.json()
    assert doc["probe"]["verdict"] == "not_usable"
    blocker = doc["probe"]["reasons"][0]
    assert blocker["code"] == "torch_missing"
    assert "pip install torch" in blocker["fix"]


def test_torch_older_than_2(bare_python):
    r = run_tct("probe", "--json", python=bare_python, env={"PYTHONPATH": str(FIXTURES / "oldtorch")})
    assert r.rc == 1, r
    reasons = r.json()["probe"]["reasons"]
    assert reasons[0]["code"] == "torch_too_old"
    assert "1.13.1" in reasons[0]["message"]


def test_agent_dies_during_handshake(tct):
    r = tct("probe", "--agent-path", agents("dies"))
    assert r.rc == 2, r
    first = r.err.strip().splitlines()[0]
    assert "could not start tct's agent (exit code 7)" in first
    assert "cannot import name 'frobnicate'" in first
    assert "Traceback" not in r.err


def test_agent_writes_junk_on_stdout(tct):
    r = tct("probe", "--agent-path", agents("junk"))
    assert r.rc == 4, r
    first = r.err.strip().splitlines()[0]
    assert "not a handshake" in first and "Hello from a sitecustomize" in first


def test_agent_from_another_protocol(tct):
    r = tct("probe", "--agent-path", agents("oldproto"))
    assert r.rc == 4, r
    assert "speaks protocol 99" in r.err


def test_request_times_out_and_agent_is_killed(tct):
    start = time.monotonic()
    r = tct("probe", "--agent-path", agents("hangs"), "--timeout", "2", "--json")
    assert r.rc == 3, r
    assert time.monotonic() - start < 30
    assert "no answer within 2 s during probe" in r.err.splitlines()[0]
    doc = r.json()  # the document is still written, with the error in it
    assert doc["error"]["kind"] == "timeout" and doc["exit_code"] == 3


def test_ctrl_c_kills_agent_and_keeps_partial_output(tmp_path):
    out = tmp_path / "r.json"
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR="/tmp/tct-test-inductor-cache")
    proc = subprocess.Popen([str(ROOT / "build" / "tct"), "probe", "--python", PYTHON, "--agent-path",
                             agents("hangs"), "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(2)
    proc.send_signal(2)  # SIGINT
    stdout, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 130, stderr
    assert [l for l in stderr.splitlines() if not l.startswith("tct: [")][0].startswith("tct: error: interrupted during probe")
    assert '"kind": "interrupted"' in out.read_text()


def test_bad_output_extension(tct):
    r = tct("probe", "-o", "report.pdf")
    assert r.rc == 2, r
    assert "unknown report type '.pdf'" in r.err


def test_help_shows_examples():
    r = run_tct("--help", python=None)
    assert r.rc == 0 and "Examples:" in r.out and "tct probe --smoke" in r.out
    r = run_tct("probe", "--help", python=None)
    assert r.rc == 0 and "Examples:" in r.out and "Exit codes" in r.out


def test_unknown_flag_is_usage_error():
    r = run_tct("probe", "--frobnicate", python=None)
    assert r.rc == 2 and r.err.startswith("tct: error:")
