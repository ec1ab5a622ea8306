"""tct explain end to end: counts equal a direct torch._dynamo.explain call (made by
tests/e2e/direct_explain.py in a separate interpreter), kinds and locations, hints, the
gate, output formats and every bad input (one clear line, documented exit code)."""
import json
import re
import subprocess

import pytest

from tct_run import FIXTURES, PYTHON, run_tct

DIRECT = FIXTURES.parent / "direct_explain.py"

# target -> (kind expected at the first group, or None for no break)
KNOWN = {
    "builtin:graph_breaks": "print_logging",
    "breaks_print.py:make": "print_logging",
    "breaks_item.py:make": "item_scalar",
    "breaks_control_flow.py:make": "data_dependent_control_flow",
    "breaks_numpy.py:make": "numpy",
    "breaks_builtin.py:make": "unsupported_builtin",
    "breaks_builtin.py:make_logging": "print_logging",
    "breaks_none.py:make": None,
}


def spec(target):
    return target if target.startswith("builtin:") else str(FIXTURES / target)


_DIRECT = {}


def direct(target):
    """The direct call's facts; one interpreter computes them for every known target."""
    if not _DIRECT:
        targets = list(KNOWN) + ["breaks_helper.py:make", "breaks_every_frame.py:make"]
        proc = subprocess.run([PYTHON, str(DIRECT), *map(spec, targets)], capture_output=True, text=True,
                              timeout=600)
        assert proc.returncode == 0, proc.stderr
        for t, line in zip(targets, [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]):
            _DIRECT[t] = json.loads(line)
    return _DIRECT[target]


@pytest.mark.parametrize("target", list(KNOWN))
def test_counts_equal_direct_explain(target):
    r = run_tct("explain", spec(target), "--json", "-q")
    assert r.rc == 0, r
    e = r.json()["explain"]
    d = direct(target)
    for key in ("graph_count", "graph_break_count", "op_count"):  # explain's own figures
        assert e["explain_view"][key] == d[key], (key, e["explain_view"][key], d[key])
    assert e["guard_count"] == d["guard_count"]
    # the headline is the compiled run's: here it agrees with explain
    assert (e["graph_count"], e["graph_break_count"]) == (d["graph_count"], d["graph_break_count"])
    assert [(b["frames"][-1]["file"], b["frames"][-1]["line"]) for b in e["breaks"]] == \
        [(str(__import__("os").path.realpath(b["file"])), b["line"]) for b in d["breaks"]]
    kind = KNOWN[target]
    if kind is None:
        assert e["capturable"] is True and e["groups"] == []
    else:
        assert e["capturable"] is False
        assert kind in [g["kind"] for g in e["groups"]]
        for g in e["groups"]:
            assert g["hint"]["fix"] and g["hint"]["url"].startswith("https://")
            assert g["source"]  # the source line itself
    assert e["disagreements"] == [], e["disagreements"]


def test_builtin_text_tree_and_registry():
    r = run_tct("explain", "builtin:graph_breaks", "-q")
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[1] == "3 graph breaks in 4 graphs; not capturable as one graph"
    assert re.search(r"models\.py:\d+ in forward  \[print_logging\]", r.out), r.out
    assert 'print("graph_breaks: forward")' in r.out
    assert "fix:" in r.out and "docs:" in r.out
    assert "agrees with explain" in r.out


def test_no_break_says_capturable():
    r = run_tct("explain", spec("breaks_none.py:make"), "-q")
    assert r.rc == 0, r
    assert "capturable as one graph (fullgraph=True would work)" in r.out


def test_helper_break_shows_both_frames_kwargs_and_dict_output():
    r = run_tct("explain", spec("breaks_helper.py:make"), "--json", "-q")
    assert r.rc == 0, r
    e = r.json()["explain"]
    g = e["groups"][0]
    assert (g["function"], g["kind"]) == ("normalise", "print_logging")
    assert [c["function"] for c in g["callers"]] == ["forward"]
    assert "normalise(h)" in g["callers"][0]["source"]
    frames = e["breaks"][0]["frames"]
    assert [f["function"] for f in frames] == ["forward", "normalise"]
    d = direct("breaks_helper.py:make")
    assert (e["graph_count"], e["graph_break_count"], e["op_count"]) == \
        (d["graph_count"], d["graph_break_count"], d["op_count"])
    text = run_tct("explain", spec("breaks_helper.py:make"), "-q").out
    assert "called from" in text and "in forward" in text


def test_break_in_every_frame():
    r = run_tct("explain", spec("breaks_every_frame.py:make"), "--json", "-q")
    assert r.rc == 0, r
    e = r.json()["explain"]
    d = direct("breaks_every_frame.py:make")
    # explain's own figures are kept beside the compiled run's, which the headline uses.
    ev = e["explain_view"]
    assert (ev["graph_count"], ev["graph_break_count"]) == (d["graph_count"], d["graph_break_count"])
    assert e["counts_from"] == "compiled_run" and e["graph_break_count"] >= ev["graph_break_count"]
    assert e["capturable"] is False
    # explain lists no reason for these; the logged compiled run shows all three.
    assert sorted(g["function"] for g in e["groups"]) == ["a", "b", "c"]
    assert all(g["kind"] == "explicit_graph_break" for g in e["groups"])
    assert any(x["kind"] == "only_in_logged" for x in e["disagreements"])
    assert any(w["code"] == "explain_views_disagree" for w in r.json()["warnings"])


def test_break_explain_cannot_show_is_reported():
    # A graph break inside a loop: dynamo skips the whole frame; explain sees no graph.
    r = run_tct("explain", spec("breaks_explicit.py:make"), "-q")
    assert r.rc == 0, r
    assert "torch.compile SKIPPED 1 frame (stages at breaks_explicit.py:5)" in r.out and "explain alone: no graph" in r.out
    assert "caused by:  the [explicit_graph_break] break at breaks_explicit.py:8" in r.out
    assert "differs from explain" in r.out and "skipped 1 of 1 frame" in r.out


def test_gate():
    r = run_tct("explain", "builtin:graph_breaks", "--max-graph-breaks", "2", "--json", "-q", "--no-logged")
    assert r.rc == 1, r
    assert r.err.startswith("tct: error: 3 graph break(s), more than --max-graph-breaks 2. "), r
    doc = r.json()
    assert doc["exit_code"] == 1 and doc["explain"]["gate"]["passed"] is False
    assert doc["explain"]["logged"] is None
    r = run_tct("explain", "builtin:graph_breaks", "--max-graph-breaks", "3", "-q", "--no-logged")
    assert r.rc == 0, r
    assert "Gate --max-graph-breaks 3: passed" in r.out


def test_markdown_and_out_file(tmp_path):
    out = tmp_path / "audit.json"
    r = run_tct("explain", spec("breaks_print.py:make"), "--markdown", "-q", "-o", out)
    assert r.rc == 0, r
    assert r.out.startswith("## tct explain")
    assert "**1 graph break in 2 graphs; not capturable as one graph**" in r.out
    assert "| # | Location | Code | Kind | Count | Fix |" in r.out
    assert json.loads(out.read_text())["explain"]["graph_break_count"] == 1


def test_user_stdout_does_not_corrupt_json():
    r = run_tct("explain", spec("breaks_bad.py:prints_to_stdout"), "--json", "-q")
    assert r.rc == 0, r
    assert r.json()["explain"]["graph_count"] >= 1


BAD = [
    (["nope.py:make"], 2, "file not found"),
    (["breaks_none.py:nope"], 2, "no 'nope' in breaks_none.py"),
    (["builtin:nope"], 2, "no builtin 'nope'"),
    (["breaks_bad.py:sized", "--param", "zz=1"], 2, "unknown parameter 'zz'"),
    (["breaks_bad.py:sized", "--param", "n"], 2, "has no '='"),
    (["breaks_none.py:make", "--device", "cuda:7"], 2, "not available"),
    (["breaks_bad.py:factory_raises"], 3, "factory exploded"),
    (["breaks_bad.py:wrong_kind"], 2, "expected (fn, args)"),
    (["breaks_bad.py:target_raises"], 3, "target exploded on first call"),
    (["breaks_bad.py:crashes"], 3, "died"),
    (["breaks_bad.py:hangs", "--timeout", "5"], 3, "no answer within 5 s"),
    (["breaks_none.py:make", "--max-graph-breaks", "-1"], 2, "max-graph-breaks"),
    (["breaks_none.py:make", "--trace", "/dev/null/trace"], 2, "cannot create the --trace folder /dev/null/trace"),
]


@pytest.mark.parametrize("args,code,text", BAD, ids=[b[2] for b in BAD])
def test_bad_input(args, code, text):
    target = args[0] if args[0].startswith("builtin:") else str(FIXTURES / args[0])
    r = run_tct("explain", target, *args[1:], "-q")
    assert r.rc == code, r
    first = r.err.strip().splitlines()[0]
    assert first.startswith("tct: error:") and text in first, r
