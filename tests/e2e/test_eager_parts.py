"""What runs eagerly on every call, said by explain, run and expect alike, on a model whose
frame breaks where nothing can resume (breaks_unresumable_gru.py: an nn.GRU). The references
are torch's own: its counters in a plain compiled run (direct_explain.py --compiled) and the
break record it wrote to the TORCH_TRACE log of the run tct made ("Graph break in user code
at F:L", "then skipping the rest of the function"), read here with a regex, not by tct."""
import gzip
import json
import re
import subprocess
from pathlib import Path

import pytest

from tct_run import FIXTURES, PYTHON, run_tct
from test_run import run_doc

MODEL = FIXTURES / "breaks_unresumable_gru.py"
TARGET = f"{MODEL}:make"
DIRECT = FIXTURES.parent / "direct_explain.py"
RECORD = re.compile(r"Graph break in user code at (\S+):(\d+)\n\tGraph Break Reason: (.*)")


def torch_counts():
    """torch's counters["graph_break"] and counters["frames"] of a plain compiled run."""
    proc = subprocess.run([PYTHON, str(DIRECT), "--compiled", "2", TARGET], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(next(ln for ln in proc.stdout.splitlines() if ln.startswith("{")))["compiled"]


def break_records(folder):
    """(file, line, reason's first line) of every dynamo_graph_break_reason record under folder."""
    out = []
    for log in Path(folder).rglob("*.log*"):
        text = gzip.decompress(log.read_bytes()).decode() if log.suffix == ".gz" else log.read_text()
        out += [(m.group(1), int(m.group(2)), m.group(3)) for m in RECORD.finditer(text)]
    return out


def unresumable_lines(records):
    return [(f, line) for f, line, why in records if "then skipping the rest of the function" in why]


def the_sentence(line):
    return f"forward (breaks_unresumable_gru.py) from line {line} to its end runs eagerly on every call"


@pytest.fixture(scope="module")
def explained(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("explain")
    r = run_tct("explain", TARGET, "--trace", tmp / "trace", "-o", tmp / "e.json", "-o", tmp / "e.md",
                "-o", tmp / "e.html")
    assert r.rc == 0, r
    (tmp / "e.txt").write_text(r.out)  # the terminal report
    return json.loads((tmp / "e.json").read_text()), tmp


def test_explain_counts_as_torch_and_says_what_runs_eagerly(explained):
    from test_schema import validate

    doc, tmp = explained
    validate(doc)
    e = doc["explain"]
    torch = torch_counts()
    assert e["graph_break_count"] == torch["graph_breaks"]
    assert len(e["skipped_frames"]) == torch["frames_skipped"]
    assert e["graph_count"] == torch["unique_graphs"]
    # The line the compiled run's own record names, read from its log.
    (where,) = unresumable_lines(break_records(tmp / "trace"))
    (part,) = e["eager_parts"]
    assert part["cause"] == "rest_of_frame" and part["function"] == "forward"
    assert (part["file"], part["from_line"]) == where
    assert part["says"] == the_sentence(where[1])
    assert e["verdict"] == "graph_breaks" and not e["capturable"]  # part of it is not compiled
    # Every rendering says it, in the same words.
    text = (tmp / "e.txt").read_text()
    assert f"RUNS EAGERLY: {the_sentence(where[1])}." in text
    assert "skips the rest of the function" in text
    assert the_sentence(where[1]) in text.splitlines()[1]  # the headline
    assert the_sentence(where[1]) in (tmp / "e.md").read_text()
    assert the_sentence(where[1]) in (tmp / "e.html").read_text()


def test_a_gate_fails_on_code_that_runs_eagerly(tmp_path):
    r = run_tct("explain", TARGET, "--max-graph-breaks", "0", "--quiet")
    assert r.rc == 1, r


def test_run_says_it_per_call_site(tmp_path):
    from test_schema import validate

    job = tmp_path / "spot.py"
    job.write_text("import sys, torch\n"
                   f"sys.path.insert(0, {str(FIXTURES)!r})\n"
                   "from breaks_unresumable_gru import make\n"
                   "model, args = make()\n"
                   "spot = torch.compile(model, backend='eager')\n"
                   "with torch.no_grad():\n"
                   "    for _ in range(6):\n"
                   "        spot(*args)\n")
    out = tmp_path / "run.json"
    r = run_tct("run", "-o", out, "--dir", tmp_path / "run", "--", PYTHON, job)
    assert r.rc == 0, r
    doc = json.loads(out.read_text())
    validate(doc)
    (site,) = doc["run"]["processes"][0]["sites"]
    assert site["graph_breaks"] == torch_counts()["graph_breaks"]
    (where,) = unresumable_lines(break_records(tmp_path / "run"))
    (part,) = site["eager_parts"]
    assert (part["file"], part["from_line"]) == where and part["cause"] == "rest_of_frame"
    assert f"RUNS EAGERLY: {the_sentence(where[1])}" in r.err
    assert "its share of the call's time: not measured" in r.err  # 6 calls: none sampled


def test_run_measures_its_share_once_calls_are_sampled(tmp_path):
    """The same site past 256 calls, compiled by inductor (whose graph events tell the graph from
    the eager rest of the frame run after it in the same compiled region): the sampler's windows
    (tct_run_sampler.py) give the eager part its share, where a wholly compiled function
    (tests/e2e/test_run_breakdown.py's job) has none."""
    job = tmp_path / "spot.py"
    job.write_text("import sys, torch\n"
                   f"sys.path.insert(0, {str(FIXTURES)!r})\n"
                   "from breaks_unresumable_gru import make\n"
                   "model, args = make()\n"
                   "spot = torch.compile(model)\n"
                   "with torch.no_grad():\n"
                   "    for _ in range(400):\n"
                   "        spot(*args)\n")
    r, doc = run_doc(tmp_path, PYTHON, job, flags=("--threads", "1"))
    (site,) = doc["run"]["processes"][0]["sites"]
    call = site["breakdown"]["call"]
    eager = call["parts"]["eager"]
    assert call["calls"] >= 31 and eager["low_ns"] > 0, call  # a window: 32 calls, its last reads the chain
    said = re.search(r"its share of the call's time: (\d+)% of each call, on the calls sampled under torch's "
                     r"profiler \(([\d.]+) (ns|us|ms) of their ([\d.]+) (ns|us|ms)\)", r.err)
    assert said, r.err
    scale = {"ns": 1, "us": 1e3, "ms": 1e6}
    assert float(said[2]) * scale[said[3]] == pytest.approx(eager["median_ns"], rel=0.01)
    assert float(said[4]) * scale[said[5]] == pytest.approx(call["profiled"]["median_ns"], rel=0.01)
    assert int(said[1]) == round(100 * eager["median_ns"] / call["profiled"]["median_ns"])


def test_expect_counts_the_eager_part_at_one(tmp_path):
    from test_schema import validate

    r = run_tct("expect", TARGET, "--json", "--calls", "3", "--profile-seconds", "1", "--quiet",
                env={"XDG_CACHE_HOME": str(tmp_path), "OMP_NUM_THREADS": "1"})
    assert r.rc == 0, r
    doc = r.json()
    validate(doc)
    e = doc["expect"]
    pred, run = e["predicted_speedup"], e["compiled_run"]
    assert pred["assumes"] == "eager_part_stays"
    (part,) = run["eager_parts"]
    assert part["cause"] == "rest_of_frame" and part["function"] == "forward"
    share = run["compiled_share"]
    assert share is not None and share["pairs"] >= 3 and 0 <= share["covered"] <= 1
    # Amdahl: the compiled share from no gain (less the model's own error, its low end over its
    # point: the range is the whole function's op mix) to the model's range, the rest at 1.0x,
    # and what Dynamo adds around the graphs (the compiled call less the eager one, the same
    # ops) counted on top; the low end pays the measured fixed cost of an inductor-compiled call
    # as well (its graphs' wrappers).
    c, o = share["covered"], share["dynamo_overhead"]
    assert o >= 0
    wrappers = pred["compiled_call_ns"] / e["profile"]["wall_per_call_ns"]
    assert 0 < wrappers < 1
    for key in ("low", "point", "high"):
        whole = run["if_captured"]
        captured = whole[key] if key != "low" else min(whole["low"], whole["low"] / whole["point"])
        extra = wrappers if key == "low" else 0
        assert pred[key] == pytest.approx(1 / ((1 - c) + c / captured + o + extra), rel=1e-9)
    # The first suggestion is to make that part compile; "Compile it" counts no ops twice.
    assert e["suggestions"][0]["title"] == "Make forward compile: it runs eagerly on every call"
    for s in e["suggestions"]:
        assert "elementwise and" not in s["why"]
