"""tct startup on real torch: each start mode's time to the first output, its phases, and its
cache lookups, checked against independent references (torch's own counters of the same
lookups in the same process, a plain script started the same way).

One run of four modes, two fresh processes each, is shared by the tests of this module
(a cold start compiles C++ for tens of seconds on two cores)."""
import json
import os
import subprocess
import sys
import time

import pytest

from tct_run import PYTHON, ROOT, run_tct
from test_schema import validate

TARGET = ["builtin:tiny_ops", "--param", "n_ops=4"]


@pytest.fixture(scope="module")
def startup(tmp_path_factory):
    out = tmp_path_factory.mktemp("startup")
    r = run_tct("startup", *TARGET, "--modes", "eager,cold,warm,shipped", "--repeats", "2", "--quiet",
                "--json", "-o", str(out / "startup.html"), "-o", str(out / "startup.json"))
    assert r.rc == 0, r
    return r.json(), out


def modes(doc):
    return {m["mode"]: m for m in doc["startup"]["modes"]}


def test_document_validates_and_every_mode_ran(startup):
    doc, _ = startup
    validate(doc)
    ms = modes(doc)
    assert list(ms) == ["eager", "cold", "warm", "shipped"]
    for m in ms.values():
        assert m["error"] is None and m["skipped"] is None, m
        assert len(m["starts"]) == 2
        assert m["low_ns"] <= m["first_output_ns"] <= m["high_ns"]
        assert m["coverage"] == pytest.approx(0.5)  # [min, max] of two starts


def test_phases_add_up_to_each_start(startup):
    doc, _ = startup
    for m in doc["startup"]["modes"]:
        for s in m["starts"]:
            assert s["first_output_ns"] > 0
            assert sum(s["phases"].values()) == pytest.approx(s["first_output_ns"], rel=1e-6), (m["mode"], s)
            assert s["phases"]["import_torch_ns"] > 0.1 * s["first_output_ns"] or m["mode"] != "eager"
        if m["mode"] == "cold":
            # A cold start compiles: the trace's phases are there, and the C++ compiler is among them.
            assert m["phases"]["cpp_compiler_ns"] > 0 and m["phases"]["inductor_ns"] > 0, m["phases"]


def test_cache_lookups_agree_with_torchs_counters(startup):
    """What tct reads in each start's TORCH_TRACE against torch's counters in that process."""
    doc, _ = startup
    expected_state = {"cold": "miss", "warm": "hit", "shipped": "hit"}
    for m in doc["startup"]["modes"]:
        if m["mode"] == "eager":
            continue
        for s in m["starts"]:
            assert s["trace_read"], m["mode"]
            seen = {}
            for lookup in s["cache"]:
                key = ("fxgraph" if lookup["cache"] == "fx_graph" else "autograd") + "_cache_" + lookup["state"]
                seen[key] = seen.get(key, 0) + 1
            counters = {k: v for k, v in s["torch_counters"].items() if v}
            assert seen == counters, (m["mode"], s["cache"], s["torch_counters"])
            assert {lookup["state"] for lookup in s["cache"]} == {expected_state[m["mode"]]}, (m["mode"], s["cache"])
    assert doc["startup"]["cache_findings"] == []
    # A start that hit every cache yet compiled C++ for a tenth of its time or more is named.
    ms = modes(doc)
    for f in doc["startup"]["still_compiled"]:
        assert f["mode"] in ("warm", "shipped")
        assert ms[f["mode"]]["phases"]["cpp_compiler_ns"] >= 0.1 * ms[f["mode"]]["first_output_ns"]


def test_warm_starts_faster_than_cold_and_verdict_is_the_lowest_median(startup):
    doc, _ = startup
    ms = modes(doc)
    assert ms["warm"]["first_output_ns"] < ms["cold"]["first_output_ns"]
    fastest = min(ms.values(), key=lambda m: m["first_output_ns"])["mode"]
    assert doc["startup"]["verdict"]["fastest"] == fastest
    compiled = min((m for m in ms.values() if m["mode"] != "eager"), key=lambda m: m["first_output_ns"])["mode"]
    assert doc["startup"]["verdict"]["fastest_compiled"] == compiled
    assert ms["shipped"]["shipped_bytes"] > 0 and ms["warm"]["shipped_bytes"] > 0


def plain_eager_start(cache):
    """Launch to first output of bench/startup_plain.py, nothing of tct in the way."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), TORCHINDUCTOR_CACHE_DIR=str(cache))
    launch = time.monotonic_ns()
    p = subprocess.run([PYTHON, str(ROOT / "bench" / "startup_plain.py"), "eager", "builtin:tiny_ops",
                        json.dumps({"n_ops": 4})], env=env, capture_output=True, text=True, check=True)
    return int(p.stdout.split()[-1]) - launch


def test_eager_start_agrees_with_a_plain_script(tmp_path):
    """The plain script's starts and tct's take turns (plain, tct twice, plain, tct twice, plain),
    so the machine's load meets both alike, and each side's fastest start is its figure: load only
    slows a start, and a neighbouring test worker's compile lands on some starts, not all (CI on
    torch 2.14.1: plain 2.77 s and 1.18 s around tct's interval reaching 1.42 s; another run,
    plain 1.45 s against tct's two starts from 2.21 s). bench/startup_oracle.py holds every mode
    to 10%; here the plain script's fastest start lies within 25% beyond tct's starts. One plain
    start first, untimed: the first process to import a freshly installed torch reads it from disk
    (2.65 s against 1.27 s for the next, on CI's fresh torch 2.15 venv), and every later start,
    tct's included, finds it in the page cache."""
    plain_eager_start(tmp_path)
    plain, eager = [plain_eager_start(tmp_path)], []
    for _ in range(2):
        r = run_tct("startup", *TARGET, "--modes", "eager", "--repeats", "2", "--quiet", "--json")
        assert r.rc == 0, r
        eager.append(modes(r.json())["eager"])
        plain.append(plain_eager_start(tmp_path))
    low, high = min(m["low_ns"] for m in eager), max(m["high_ns"] for m in eager)
    assert 0.75 * low <= min(plain) <= 1.25 * high, (plain, eager)


def test_reports_render_from_the_saved_document(startup):
    doc, out = startup
    html = (out / "startup.html").read_text()
    assert 'id="startup"' in html and "<svg" in html and "C++ compiler" in html
    brief = run_tct("report", str(out / "startup.json"))
    assert brief.rc == 0, brief
    assert brief.out.startswith("startup: builtin:tiny_ops: ")
    assert "warm" in brief.out and len(brief.out.splitlines()) <= 12, brief.out
    md = run_tct("report", str(out / "startup.json"), "--markdown")
    assert md.out.startswith("## tct startup: ") and "| warm |" in md.out, md.out


def test_a_warm_start_with_another_config_says_which_cache_missed_and_why(tmp_path):
    """--deploy-env changes an inductor setting in the warm start only: its FX graph cache
    key differs from the cold start's, and the report names the setting."""
    r = run_tct("startup", *TARGET, "--modes", "warm", "--repeats", "1", "--quiet", "--json",
                "--deploy-env", "TORCHINDUCTOR_SIZE_ASSERTS=0")
    assert r.rc == 0, r
    doc = r.json()
    findings = doc["startup"]["cache_findings"]
    assert findings, doc["startup"]["modes"]
    fx = [f for f in findings if f["cache"] == "fx_graph"]
    assert fx and fx[0]["state"] == "miss" and fx[0]["mode"] == "warm"
    assert any(c.startswith("inductor_config[size_asserts]: True -> False") for c in fx[0]["changed"]), fx[0]
    warm = modes(doc)["warm"]["starts"][0]
    assert warm["torch_counters"]["fxgraph_cache_miss"] >= 1
    (tmp_path / "miss.json").write_text(r.out)
    text = run_tct("report", str(tmp_path / "miss.json"))
    assert "warm start: FX graph cache miss" in text.out and "size_asserts" in text.out, text
