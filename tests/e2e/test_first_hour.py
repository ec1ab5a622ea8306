"""A newcomer's first hour: every wrong step gets one line `tct: error: WHAT. WHAT TO DO`
first, with the documented exit code. Most of these fail before torch is imported."""
import subprocess
import sys
import time

import pytest

from tct_run import FIXTURES, run_tct


def first_line(r):
    return r.err.strip().splitlines()[0]


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    """An interpreter without torch."""
    path = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True)
    return str(path / "bin" / "python")


def test_interpreter_without_torch_is_bad_usage(bare_python):
    r = run_tct("bench", "builtin:mlp", python=bare_python)
    assert r.rc == 2, r
    assert first_line(r) == (f"tct: error: torch is not installed in {bare_python}; "
                             "pip install torch there or pass --python")
    assert "bug" not in r.err


def test_check_failures_print_their_line_first(bare_python):
    # probe and audit: not usable is exit 1, with the blocker and its fix on the first line.
    for command in (["probe"], ["audit", "builtin:mlp"]):
        r = run_tct(*command, "--json", python=bare_python)
        assert r.rc == 1, r
        assert first_line(r).startswith("tct: error: torch.compile is not usable here: "), r
        assert "pip install torch" in first_line(r)
        assert r.json()["error"]["kind"] == "not_usable"


@pytest.mark.parametrize("args, expected", [
    (["benchh"], "unknown command 'benchh'. Did you mean 'tct bench'?"),
    (["bench", "builtin:mlp", "--budgett", "1"], "unknown flag '--budgett' for tct bench. Did you mean --budget?"),
    (["bench", "builtin:mlp", "--budget", "-1"], "--budget: must be above 0, got -1."),
    (["bench", "builtin:mlp", "--param", "batch"],
     "--param 'batch' has no '='. Write --param NAME=VALUE"),
    (["bench", "builtin:mlp", "--json", "--markdown"], "--json and --markdown both print the report on stdout."),
])
def test_usage_mistakes_get_one_line_with_the_fix(args, expected):
    r = run_tct(*args)
    assert r.rc == 2, r
    lines = r.err.strip().splitlines()
    assert lines[0].startswith("tct: error: " + expected), r
    assert len(lines) == 1 and len(lines[0]) < 200, r


def test_version_short_flag():
    r = run_tct("-V", python=None)
    assert r.rc == 0 and r.out.strip()[0].isdigit(), r


def test_output_paths_are_checked_before_python_starts(tmp_path):
    for out, expected in [("out.txt", "--out out.txt: unknown report type '.txt'"),
                          ("/no/such/dir/r.html", "--out /no/such/dir/r.html: folder /no/such/dir does not exist")]:
        start = time.monotonic()
        r = run_tct("bench", "builtin:mlp", "-o", out)
        assert time.monotonic() - start < 2, "the target was loaded before the path was checked"
        assert r.rc == 2, r
        assert r.err.count("tct: error:") == 1, r
        assert first_line(r).startswith("tct: error: " + expected), r


def test_file_commands_do_not_offer_agent_flags():
    for command in ("diff", "report"):
        r = run_tct(command, "--help", python=None)
        assert r.rc == 0, r
        for flag in ("--python", "--agent-path", "--timeout"):
            assert flag not in r.out, (command, flag)
        assert "--markdown" in r.out


@pytest.mark.parametrize("param, expected", [
    ("batch=abc", "parameter 'batch' of mlp takes an integer, got the string 'abc'. Write it like --param batch=32"),
    ("nosuch=1", "unknown parameter 'nosuch' for mlp. Parameters of mlp: batch,"),
])
def test_factory_parameters_checked_against_the_signature(param, expected):
    r = run_tct("bench", "builtin:mlp", "--param", param, "--no-compile-time")
    assert r.rc == 2, r
    assert first_line(r).startswith("tct: error: " + expected), r


def test_unknown_builtin_names_no_missing_command():
    r = run_tct("explain", "builtin:mpl")
    assert r.rc == 2, r
    assert "did you mean builtin:mlp?" in first_line(r).lower(), r
    assert "tct builtins" not in r.err
