"""A newcomer's first hour: every wrong step gets one line `tct: error: WHAT. WHAT TO DO`
first, with the documented exit code. Most of these fail before torch is imported."""
import subprocess
import time

import pytest

from tct_run import FIXTURES, run_tct


def first_line(r):
    return r.err.strip().splitlines()[0]


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


# ---------------------------------------------------------------- reports (no torch needed)

def report(fixture, *args):
    r = run_tct("report", FIXTURES / fixture, *args, python=None)
    assert r.rc == 0, r
    return r


def test_markdown_leads_with_the_verdict():
    md = report("html_audit_transformer_block.json", "--markdown").out
    lines = md.splitlines()
    assert lines[0] == "## tct audit: 0.57x [0.44, 0.62], slower than eager"
    assert lines[2] == "| question | answer |"
    assert "| graph breaks | 0 in 1 graph(s) |" in md
    assert md.index("<details>") < md.index("| fact | value |") < md.index("</details>")
    assert "|  |  |" not in md and "/home/user" not in md  # a header row; no absolute path
    for before, line in zip(lines, lines[1:]):  # a bold heading never runs into a bullet
        if line.startswith("**") and before.startswith("- "):
            raise AssertionError(f"no blank line before {line!r}")


def test_an_inconclusive_speedup_is_not_called_no_difference_and_reports_keep_no_home_path(tmp_path):
    import json
    doc = json.loads((FIXTURES / "html_bench.json").read_text())
    row = doc["bench"]["rows"][0]
    row["speedup"].update(estimate=0.5, low=0.2, high=1.25, inconclusive=True)
    row["flags"].append(dict(row["flags"][0]))  # two warnings of one kind: one flag twice
    src = tmp_path / "doc.json"
    src.write_text(json.dumps(doc))
    md = run_tct("report", src, "--markdown", python=None).out
    assert md.splitlines()[0].endswith("0.50x [0.20, 1.25], inconclusive (the interval holds 1 and is too wide to tell)")
    assert md.count("! noisy") == 1 and "/home/user" not in md
    assert run_tct("report", src, "-o", tmp_path / "r.html", python=None).rc == 0
    html = (tmp_path / "r.html").read_text()
    shown = html[:html.index("Raw JSON document")]  # the raw document keeps every field as it is
    assert shown.count("! noisy") == 1 and "/home/user" not in shown and "…/.venv/bin/python" in shown
    assert "not clearly different" not in shown and ">0.50x [0.20, 1.25] inconclusive<" in shown


def test_bench_text_labels_the_eager_warmup():
    out = report("html_bench.json", "-v").out  # a detail: the brief report quotes the interleaved medians only
    assert "eager warm-up (before sampling): first call 195 ms, then 210 ms per call" in out


def test_html_axes_evidence_and_suggestions(tmp_path):
    import json
    doc = json.loads((FIXTURES / "html_audit_transformer_block.json").read_text())
    row = doc["bench"]["rows"][0]
    row["speedup"].update(estimate=1.02, low=1.01, high=1.03)
    row["latency"]["compiled"]["max"] = 100 * row["latency"]["compiled"]["p95"]  # one far outlier
    src = tmp_path / "doc.json"
    src.write_text(json.dumps(doc))
    html_path = tmp_path / "r.html"
    r = run_tct("report", src, "-o", html_path, python=None)
    assert r.rc == 0, r
    html = html_path.read_text()
    bars = html[html.index("Speedup of compiled over eager"):]
    bars = bars[:bars.index("</svg>")]
    assert ">0x<" not in bars and ">1.5x<" not in bars, "speedup axis not zoomed to the interval"
    boxes = html[html.index("Latency distributions"):]
    boxes = boxes[:boxes.index("</svg>")]
    assert 'class="outlier-edge"' in boxes and "off the axis" in boxes
    assert "<dt>time per call</dt><dd>104 ms</dd>" in html  # evidence in its units
    suggestions = html[html.index("What to try, in order"):]
    suggestions = suggestions[:suggestions.index("</ol>")]
    assert "Compile it" not in suggestions and "measured at 1.02x" in suggestions


def test_demo_runs_a_sweep():
    from tct_run import ROOT
    assert "--sweep batch=" in (ROOT / "scripts" / "demo.sh").read_text()


# ---------------------------------------------------------------- probe cache, progress

def test_probe_reads_its_cache_and_no_cache_skips_it(tmp_path):
    import importlib.metadata
    import json
    from tct_run import PYTHON
    torch_version = subprocess.run([PYTHON, "-c", "import importlib.metadata as m; print(m.version('torch'))"],
                                   capture_output=True, text=True, check=True).stdout.strip()
    cache = tmp_path / "tct" / "probe.json"
    cache.parent.mkdir()
    cached = {"backends": {"default": ["inductor"], "all": ["inductor"]}, "triton": {"installed": False},
              "dynamo_supported": True, "dynamo_error": None,
              "cpp_compiler": {"path": "/usr/bin/g++", "version": "g++ from the cache", "openmp": True}}
    cache.write_text(json.dumps({f"{PYTHON}|torch {torch_version}|g++": cached}))
    env = {"XDG_CACHE_HOME": str(tmp_path), "CXX": "g++"}
    r = run_tct("probe", "--json", env=env)
    assert r.rc == 0, r
    assert r.json()["probe"]["facts"]["cpp_compiler"]["version"] == "g++ from the cache"
    r = run_tct("probe", "--json", "--no-cache", env=env)
    assert r.rc == 0, r
    assert r.json()["probe"]["facts"]["cpp_compiler"]["version"] != "g++ from the cache"
    assert "from the cache" in cache.read_text()  # --no-cache neither reads nor writes


def on_a_terminal(*args):
    """What `tct ARGS` writes to a terminal (stdout and stderr both are one)."""
    import os
    import pty
    from tct_run import TCT
    pid, fd = pty.fork()
    if pid == 0:  # the child: stderr is the terminal
        os.execv(str(TCT), [str(TCT), *map(str, args)])
    seen = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.waitpid(pid, 0)
    return seen.decode(errors="replace")


def test_progress_on_a_terminal_shows_phase_and_time_left():
    from tct_run import PYTHON
    text = on_a_terminal("bench", f"{FIXTURES / 'bench_targets.py'}:small", "--backend", "aot_eager", "--budget", "1",
                         "--no-compile-time", "--no-memory", "--no-check", "--python", PYTHON)
    assert "aot_eager: sampling, look" in text and "s left" in text, text[-2000:]


def test_the_last_line_on_a_terminal_says_where_the_reports_are(tmp_path):
    html, md = tmp_path / "r.html", tmp_path / "r.md"
    text = on_a_terminal("report", FIXTURES / "html_bench.json", "-o", html, "-o", md)
    assert text.strip().splitlines()[-1] == f"tct: wrote {html}, {md}", text[-500:]
    assert html.exists() and md.exists()
