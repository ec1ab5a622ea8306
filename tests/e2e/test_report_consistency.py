"""One fact, one figure, in every rendering. One real `tct bench` run writes its JSON,
Markdown and HTML (-o) and prints the brief terminal report; `tct report -v` renders the
same document in full. Each figure the brief report states (the speedup and its interval,
the verdict, the eager and compiled medians, the cold and warm compile, the outputs) is read
from the brief text, checked against the JSON it came from, and then found, as the same
text, in the verbose report, the Markdown and the HTML. `tct compare` of that document
with itself states the same counts in its text, Markdown and JSON.
(Explain's counts have their own test: test_explain_consistency.py.)"""
import html as htmllib
import json
import re

import pytest

from tct_run import run_tct

VERDICT_WORDS = {
    "faster": "faster than eager",
    "slower": "slower than eager",
    "no_clear_difference": "no clear difference from eager",
    "inconclusive": "inconclusive",
}


def duration_ns(text):
    """'113 ms' -> 1.13e8: the brief report's durations back in nanoseconds."""
    value, unit = re.fullmatch(r"([\d.]+) (ns|us|ms|s)", text).groups()
    return float(value) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[unit]


def close(shown, exact, digits=3):
    """`shown` is `exact` printed to `digits` significant figures."""
    return float(f"{exact:.{digits}g}") == pytest.approx(shown, rel=1e-9)


def page_text(path):
    """The HTML report as the text a reader sees."""
    raw = path.read_text()
    raw = re.sub(r"<(script|style)\b.*?</\1>", " ", raw, flags=re.S)
    # The raw JSON document it carries would match anything: only what the page says counts.
    raw = re.sub(r"<details><summary>Raw JSON document</summary>.*?</details>", " ", raw, flags=re.S)
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", raw)))


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    d = tmp_path_factory.mktemp("consistency")
    r = run_tct("bench", "builtin:mlp", "--backend", "aot_eager", "--budget", "1.5",
                "-o", d / "r.json", "-o", d / "r.md", "-o", d / "r.html")
    assert r.rc == 0, r
    verbose = run_tct("report", d / "r.json", "-v")
    assert verbose.rc == 0, verbose
    return {"doc": json.loads((d / "r.json").read_text()), "brief": r.out, "verbose": verbose.out,
            "md": (d / "r.md").read_text(), "html": page_text(d / "r.html"), "dir": d}


def brief_figures(brief):
    """The figures of the brief report's one configuration, as printed."""
    m = re.search(r"^aot_eager  speedup ((\S+)x \[(\S+), (\S+)\])(.*)$", brief, re.M)
    assert m, brief
    dur = r"([\d.]+ (?:ns|us|ms|s))"
    per_call = re.search(rf"^  per call +eager {dur}, compiled {dur} \(medians", brief, re.M)
    compile_ = re.search(rf"^  compile +cold {dur}(?:, warm cache {dur})?", brief, re.M)
    outputs = re.search(r"^  outputs +(.+)$", brief, re.M)
    assert per_call and compile_ and outputs, brief
    return {"interval": m.group(1), "estimate": float(m.group(2)), "low": float(m.group(3)),
            "high": float(m.group(4)), "rest": m.group(5), "eager": per_call.group(1),
            "compiled": per_call.group(2), "cold": compile_.group(1), "warm": compile_.group(2),
            "outputs": outputs.group(1).strip()}


def test_each_brief_figure_is_the_documents_and_reads_the_same_everywhere(bench):
    f = brief_figures(bench["brief"])
    row = bench["doc"]["bench"]["rows"][0]
    sp = row["speedup"]
    # The brief figures are the JSON's numbers, rounded.
    assert f"{sp['estimate']:.2f}" == f"{f['estimate']:.2f}" and round(sp["low"], 2) == f["low"]
    assert round(sp["high"], 2) == f["high"]
    assert close(duration_ns(f["eager"]), row["latency"]["eager"]["median"])
    assert close(duration_ns(f["compiled"]), row["latency"]["compiled"]["median"])
    assert close(duration_ns(f["cold"]), row["compile"]["cold_ns"])
    if f["warm"]:
        assert close(duration_ns(f["warm"]), row["compile"]["warm_ns"])
    # The verdict is the stored one, in the brief line and the Markdown headline.
    words = VERDICT_WORDS[sp["verdict"]]
    assert words in f["rest"], f
    headline = bench["md"].splitlines()[0]
    assert f["interval"] in headline and words in headline, headline
    # Every other rendering of the same run prints the same figures, as the same text.
    for name in ("verbose", "md", "html"):
        text = bench[name]
        for key in ("interval", "eager", "compiled", "cold") + (("outputs",) if name != "html" else ()):
            assert f[key] in text, f"{name} lacks the brief report's {key} {f[key]!r}"
        if f["warm"]:
            assert f"warm cache {f['warm']}" in text, name
    # The HTML table prints the outputs in the same words (bench/words.cpp), escaped.
    assert f["outputs"] in htmllib.unescape(bench["html"]), f["outputs"]


def test_every_warning_of_the_document_is_in_the_full_reports(bench):
    for w in bench["doc"]["warnings"]:
        for name in ("verbose", "md"):
            assert w["message"] in bench[name], (name, w)
        assert htmllib.unescape(w["message"]) in bench["html"] or w["message"] in bench["html"], w


def test_compare_states_its_counts_once_across_renderings(bench):
    doc = bench["dir"] / "r.json"
    as_json = run_tct("compare", doc, doc, "--json")
    assert as_json.rc == 0, as_json
    cmp = as_json.json()["compare"]
    assert cmp["counts"] == {"unchanged": 1} or set(cmp["counts"]) <= {"unchanged", "no_interval"}
    text = run_tct("compare", doc, doc)
    md = run_tct("compare", doc, doc, "--markdown")
    n = cmp["counts"]
    expected = (f"PASS: {n.get('regression', 0)} regressed, {n.get('improvement', 0)} improved, "
                f"{n.get('unchanged', 0)} unchanged within noise")
    assert expected in text.out.splitlines()[0], text.out
    assert f"**{expected}" in md.out, md.out
    # The entry's speedup is the bench document's, printed as bench prints it.
    label = cmp["items"][0]["id"]
    interval = brief_figures(bench["brief"])["interval"]
    row = next(ln for ln in text.out.splitlines() if ln.split()[:1] == [label])
    assert row.count(interval) == 2, row  # before and after
