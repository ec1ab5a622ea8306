"""`tct suite`, `tct merge`, `tct compare` end to end: the real binary and torch, four tiny
entries (two that work, one that raises, one that hangs past its timeout). The whole suite
and its two shards run at the same time, as separate processes, once per test session."""
import json
import threading

import pytest

from test_schema import validate
from tct_run import FIXTURES, run_tct

T = FIXTURES / "bench_targets.py"
SUITE = f"""
[defaults]
backend = "eager"
budget = 0.1
warmup = 2
eager-warmup = 2
min-blocks = 2
no-compile-time = true
no-memory = true
no-allocator-compare = true

[[target]]
name = "ok"
spec = "{T}:small"
params = {{ batch = [4, 8] }}

[[target]]
name = "raises"
spec = "{T}:raises_on_call"

[[target]]
name = "hangs"
spec = "{T}:hangs"
timeout = 8
"""
IDS = ["ok[batch=4,backend=eager]", "ok[batch=8,backend=eager]", "raises[backend=eager]", "hangs[backend=eager]"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("suite")
    (d / "s.toml").write_text(SUITE)
    jobs = {"whole": ["-o", d / "whole.json", "-o", d / "whole.html"],
            "s1": ["--shard", "1/2", "-o", d / "s1.json"],
            "s2": ["--shard", "2/2", "-o", d / "s2.json"]}
    results = {}

    def run(name, args):
        results[name] = run_tct("suite", d / "s.toml", "--quiet", *args)

    threads = [threading.Thread(target=run, args=item) for item in jobs.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return d, results


def load(path):
    return json.loads(path.read_text())


def outcome(doc):
    return [(e["id"], e["status"], (e["error"] or {}).get("kind")) for e in doc["suite"]["entries"]]


def test_failures_are_recorded_and_the_rest_runs(runs):
    d, results = runs
    r = results["whole"]
    assert r.rc == 3, r  # an entry failed; the others ran
    assert "tct: error: 2 of 4 entries failed" in r.err
    doc = load(d / "whole.json")
    validate(doc)
    assert doc["exit_code"] == 3
    assert outcome(doc) == [(IDS[0], "ok", None), (IDS[1], "ok", None),
                            (IDS[2], "failed", "target_raised"), (IDS[3], "failed", "timeout")]
    s = doc["suite"]["summary"]
    assert (s["entries"], s["ok"], s["failed"]) == (4, 2, 2)
    assert s["failures_by_kind"] == {"target_raised": 1, "timeout": 1}
    g = s["geomean_speedup"]
    assert g["n"] == 2 and g["low"] <= g["estimate"] <= g["high"]
    for e in doc["suite"]["entries"][:2]:
        assert e["result"]["check"] == "match" and e["bench"]["rows"][0]["backend"] == "eager"
    assert "Geometric-mean speedup" in r.out and f"{IDS[3]} [timeout" in r.out
    html = (d / "whole.html").read_text()
    assert 'id="suite-sort-speedup"' in html and "<script" not in html and "<svg" in html


def test_two_shards_merge_into_the_whole(runs, tct):
    d, results = runs
    assert results["s1"].rc == 3 and results["s2"].rc == 3, results
    s1, s2 = load(d / "s1.json"), load(d / "s2.json")
    assert s1["suite"]["selected"] == [IDS[0], IDS[2]]  # round robin
    assert s2["suite"]["selected"] == [IDS[1], IDS[3]]
    r = tct("merge", d / "s1.json", d / "s2.json", "-o", d / "merged.json", "--markdown")
    assert r.rc == 0, r
    merged = load(d / "merged.json")
    validate(merged)
    assert outcome(merged) == outcome(load(d / "whole.json"))
    assert merged["suite"]["selected"] == IDS and merged["suite"]["shard"] is None
    assert f"| {IDS[0]} |" in r.out
    assert r.out.splitlines()[0].startswith("## tct suite: ") and r.out.splitlines()[0].endswith(" over 2 passing entries")
    overlap = tct("merge", d / "s1.json", d / "s1.json")
    assert overlap.rc == 2 and "is in both" in overlap.err, overlap
    missing = tct("merge", d / "s1.json")
    assert missing.rc == 2 and f"2 of 4 entries are in no shard: {IDS[1]}, {IDS[3]}" in missing.err, missing


def test_resume_runs_only_what_is_missing(runs, tct):
    d, _ = runs
    doc = load(d / "whole.json")
    kept = {e["id"]: e for e in doc["suite"]["entries"] if e["id"] != IDS[1]}
    doc["suite"]["entries"] = list(kept.values())
    (d / "resume.json").write_text(json.dumps(doc))
    r = tct("suite", d / "s.toml", "--resume", "-o", d / "resume.json", "--quiet")
    assert r.rc == 3, r
    after = load(d / "resume.json")
    assert [e["id"] for e in after["suite"]["entries"]] == IDS
    for e in after["suite"]["entries"]:
        if e["id"] in kept:
            assert e["wall_ns"] == kept[e["id"]]["wall_ns"]  # not rerun
    assert after["suite"]["resumed"]["kept"] == 3
    assert tct("suite", d / "s.toml", "--resume", "--quiet").rc == 2  # needs -o FILE.json


def test_compare_catches_a_regression_and_passes_itself(runs, tct):
    d, _ = runs
    whole = d / "whole.json"
    same = tct("compare", whole, whole, "--json")
    assert same.rc == 0, same
    validate(same.json())
    # The entry's interval narrowed (3% each side) before and after a 3x slow-down: on a loaded
    # machine the measured interval can be wide enough that a third of it still overlaps it.
    doc = load(whole)
    entry = doc["suite"]["entries"][1]
    est = entry["result"]["speedup"]["estimate"]
    entry["result"]["speedup"] = {"estimate": est, "low": est * 0.97, "high": est * 1.03}
    (d / "before.json").write_text(json.dumps(doc))
    entry["result"]["speedup"] = {"estimate": est / 3, "low": est * 0.97 / 3, "high": est * 1.03 / 3}
    (d / "slower.json").write_text(json.dumps(doc))
    r = tct("compare", d / "before.json", d / "slower.json", "--max-regression", "5%", "--markdown")
    assert r.rc == 1, r
    assert r.err.startswith(f"tct: error: 1 of 4 entries failed the check: {IDS[1]} (regression). The table shows"), r
    table = [l for l in r.out.splitlines() if l.startswith("| ")]
    assert table[2].startswith(f"| {IDS[1]} | REGRESSION")  # regressions first
    assert r.out.startswith("## tct compare: FAIL: 1 regressed, 0 improved, 0 newly failing")
    bad = tct("compare", whole, FIXTURES / "html_explain.json")
    assert bad.rc == 2 and bad.err.startswith("tct: error:"), bad


def test_list_prints_ids_and_shards(runs, tct):
    d, _ = runs
    r = tct("suite", d / "s.toml", "--list", "--shard", "2/2", "--json")
    assert r.rc == 0, r
    doc = r.json()
    validate(doc)
    assert [(p["id"], p["shard"]) for p in doc["suite"]["plan"]] == list(zip(IDS, [1, 2, 1, 2]))
    assert doc["suite"]["entries"] == []
    bad = tct("suite", d / "s.toml", "--list", "--shard", "3/2")
    assert bad.rc == 2 and "--shard '3/2'" in bad.err
