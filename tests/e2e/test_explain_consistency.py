"""One count of each thing: for each break case, one `tct explain` run writes JSON, text,
Markdown and HTML, and every graph-break count and skipped-frame count in them (headline,
groups, "By kind", the compiled-run line, the warnings, the skipped-frame blocks) is the
same number, equal to what torch itself counts in a direct compiled call
(tests/e2e/direct_explain.py --compiled: counters["graph_break"] and counters["frames"]).
Then `tct diff` between two runs states the same numbers as the two documents. Plus a
golden file of the default terminal report."""
import html as htmllib
import json
import re
import subprocess
from pathlib import Path

import pytest

from tct_run import FIXTURES, PYTHON, run_tct

DIRECT = FIXTURES.parent / "direct_explain.py"
GOLDEN = Path(__file__).resolve().parent / "golden"

# case -> (graph breaks, skipped frames names) as torch counts them; the names are the
# frames' qualified names (co_qualname), the point of the MoE case.
CASES = {
    # one logging helper called three times: torch logs 4 breaks at the helper's print
    # (dynamo also breaks once more resuming inside it); explain alone says 3.
    "breaks_log_helper.py:make": (4, []),
    # nonzero routing in a loop over experts, inlined into Net.forward's loop: both
    # forwards are skipped (two frames), no graph break.
    "breaks_moe.py:make": (0, ["Net.forward at breaks_moe.py:26", "MoE.forward at breaks_moe.py:12"]),
    # a break in a loop of an inlined module: Model.forward breaks around it (and at its
    # own print), Block.forward is skipped when it runs on its own.
    "breaks_inlined_loop.py:make": (2, ["Block.forward at breaks_inlined_loop.py:13"]),
    # a print in a helper: torch counts the break twice (in the caller's frame, then in the
    # helper's own when dynamo traces it), at one place.
    "breaks_helper.py:make": (2, []),
}

_DIRECT = {}


def direct(case):
    """torch's own counts for every case, from one interpreter."""
    if not _DIRECT:
        cases = list(CASES) + ["breaks_moe.py:make_dense", "breaks_inlined_loop.py:make_fixed"]
        proc = subprocess.run([PYTHON, str(DIRECT), "--compiled", "2", *[str(FIXTURES / c) for c in cases]],
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        for c, line in zip(cases, [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]):
            _DIRECT[c] = json.loads(line)["compiled"]
    return _DIRECT[case]


def counts_in_text(text):
    """Every graph-break and skipped-frame count the terminal report states."""
    lines = text.splitlines()
    got = {}
    head = lines[1]
    m = re.search(r"(\d+) graph breaks? in \d+ graphs?", head)
    got["headline"] = int(m.group(1))
    m = re.search(r"SKIPPED (\d+) frames?", head)
    got["headline_skipped"] = int(m.group(1)) if m else 0
    groups = [ln for ln in lines if re.match(r"\s+\d+\. \S+:\d+ in ", ln)]
    got["groups"] = sum(int(m.group(1)) if (m := re.search(r"  x(\d+)$", g)) else 1 for g in groups)
    kinds = next((ln for ln in lines if ln.startswith("By kind: ")), None)
    got["kinds"] = sum(int(n) for n in re.findall(r" (\d+)(?:,|$| \(together)", kinds)) if kinds else 0
    if kinds and (m := re.search(r"together (\d+) graph breaks?", kinds)):
        got["kinds_total"] = int(m.group(1))
    run = next(ln for ln in lines if ln.startswith("Logged compiled run"))
    m = re.search(r"\): (\d+) graph breaks? at \d+ locations?", run)
    got["run_line"] = int(m.group(1))
    got["run_line_skipped"] = int(re.search(r"(\d+) frames? skipped", run).group(1))
    got["skipped_blocks"] = [re.match(r"SKIPPED FRAME: (\S+) at (\S+):(\d+)", ln).groups()
                             for ln in lines if ln.startswith("SKIPPED FRAME:")]
    return got


def counts_in_markdown(md):
    got = {}
    m = re.search(r"\*\*(?:torch\.compile SKIPPED (\d+) frames? .*?; )?(\d+) graph breaks? in \d+ graphs?", md)
    got["headline_skipped"] = int(m.group(1) or 0)
    got["headline"] = int(m.group(2))
    rows = [ln for ln in md.splitlines() if re.match(r"\| \d+ \| `", ln)]
    got["groups"] = sum(int(r.split(" | ")[4]) for r in rows)
    kinds = next((ln for ln in md.splitlines() if ln.startswith("By kind: ")), "")
    got["kinds"] = sum(int(n) for n in re.findall(r" (\d+)(?:,|$| \(together)", kinds))
    m = re.search(r"Frames torch.compile skipped \((\d+);", md)
    got["skipped_list"] = int(m.group(1)) if m else 0
    got["skipped_items"] = len(re.findall(r"^- `\S+ at \S+:\d+`:", md, re.M))
    return got


def counts_in_html(page):
    text = htmllib.unescape(re.sub(r"<[^>]+>", " ", page))
    text = re.sub(r"\s+", " ", text)
    got = {}
    got["facts"] = int(re.search(r"Graph breaks (\d+) in \d+ graphs", text).group(1))
    m = re.search(r"Skipped frames (\d+)", text)
    got["facts_skipped"] = int(m.group(1)) if m else 0
    m = re.search(r"Logged run backend \S+, \d+ calls: (\d+) graph breaks, \d+ recompiles, (\d+) frames skipped", text)
    got["run_line"], got["run_line_skipped"] = int(m.group(1)), int(m.group(2))
    at = page.find('<table class="breaks">')
    rows = re.findall(r'<tr><td class="num">\d+</td>.*?<td class="num">(\d+)</td>',
                      page[at:page.find("</table>", at)]) if at >= 0 else []
    got["groups"] = sum(map(int, rows))
    m = re.search(r"<strong>By kind:</strong> (.*?)</p>", page)
    got["kinds"] = sum(int(n) for n in re.findall(r" (\d+)(?:,|$)", htmllib.unescape(m.group(1)))) if m else 0
    return got


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("consistency")
    out = {}
    for case in CASES:
        stem = case.replace(".py:", "_")
        files = {ext: root / f"{stem}.{ext}" for ext in ("json", "md", "html")}
        r = run_tct("explain", FIXTURES / case, "-q", *[x for f in files.values() for x in ("-o", f)])
        assert r.rc == 0, r
        out[case] = {"text": r.out, "doc": json.loads(files["json"].read_text()), "md": files["md"].read_text(),
                     "html": files["html"].read_text(), "json_path": files["json"]}
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_every_rendering_states_one_count(runs, case):
    breaks, skipped_names = CASES[case]
    run = runs[case]
    doc = run["doc"]
    e = doc["explain"]
    torch_counts = direct(case)
    # torch's own counts are the reference, and this table's expectation
    assert (torch_counts["graph_breaks"], torch_counts["frames_skipped"]) == (breaks, len(skipped_names)), torch_counts
    # JSON: one field each, and everything that adds up to it
    assert e["counts_from"] == "compiled_run"
    assert e["graph_break_count"] == breaks
    assert sum(g["count"] for g in e["groups"]) == breaks
    assert sum(k["count"] for k in e["kinds"]) == breaks
    assert [f["title"] for f in e["skipped_frames"]] == skipped_names
    assert e["logged"]["frames_skipped"] == len(skipped_names)
    # text
    t = counts_in_text(run["text"])
    assert (t["headline"], t["groups"], t["kinds"], t["run_line"]) == (breaks,) * 4, (t, run["text"])
    assert t.get("kinds_total", breaks) == breaks
    assert (t["headline_skipped"], t["run_line_skipped"]) == (len(skipped_names),) * 2, t
    assert [f"{fn} at {Path(file).name}:{line}" for fn, file, line in t["skipped_blocks"]] == skipped_names
    for name in skipped_names:
        assert name in run["text"].splitlines()[1]
    # Markdown
    m = counts_in_markdown(run["md"])
    assert (m["headline"], m["groups"], m["kinds"]) == (breaks,) * 3, (m, run["md"])
    assert (m["headline_skipped"], m["skipped_list"], m["skipped_items"]) == (len(skipped_names),) * 3, m
    # HTML
    h = counts_in_html(run["html"])
    assert (h["facts"], h["run_line"], h["groups"], h["kinds"]) == (breaks,) * 4, h
    assert (h["facts_skipped"], h["run_line_skipped"]) == (len(skipped_names),) * 2, h
    for name in skipped_names:
        assert name in htmllib.unescape(run["html"])
    # the warnings name every skipped frame and state the same count
    skip_warnings = [w["message"] for w in doc["warnings"] if "skipped" in w["message"] and "eagerly" in w["message"]]
    if skipped_names:
        assert len(skip_warnings) == 1, doc["warnings"]
        n = len(skipped_names)
        assert f"skipped {n} frame{'s' if n > 1 else ''} and ran" in skip_warnings[0]
        for name in skipped_names:
            assert name in skip_warnings[0]
    else:
        assert skip_warnings == []
    for w in doc["warnings"]:  # a count of breaks in a warning is the run's, or says it is explain's
        for m_ in re.finditer(r"(\d+) graph break", w["message"]):
            before = w["message"][:m_.start()]
            assert int(m_.group(1)) == breaks or "explain alone says" in before[-40:], w


def test_nonzero_is_a_dynamic_shape_operator(runs):
    e = runs["breaks_moe.py:make"]["doc"]["explain"]
    for f in e["skipped_frames"]:
        assert (f["kind"], f["registry_id"]) == ("dynamic_shape_operator", "GB0036")
        assert "capture_dynamic_output_shape_ops" in f["hint"]["fix"]
    assert "[item_scalar]" not in runs["breaks_moe.py:make"]["text"]


def test_explain_alone_is_an_aside_where_it_differs(runs):
    text = runs["breaks_log_helper.py:make"]["text"]
    assert text.splitlines()[1] == ("4 graph breaks in 4 graphs; not capturable as one graph "
                                    "(explain alone says 3 graph breaks)")
    assert "explain alone" not in runs["breaks_helper.py:make"]["text"].splitlines()[1]


# (before, after) -> counts the diff states: graph breaks and skipped frames, each before -> after
DIFFS = [("breaks_moe.py:make", "breaks_moe.py:make_dense"),
         ("breaks_inlined_loop.py:make", "breaks_inlined_loop.py:make_fixed")]


@pytest.mark.parametrize("before,after", DIFFS, ids=[d[1] for d in DIFFS])
def test_diff_states_the_documents_counts(runs, tmp_path, before, after):
    after_json = tmp_path / "after.json"
    r = run_tct("explain", FIXTURES / after, "-q", "-o", after_json)
    assert r.rc == 0, r
    b, a = runs[before]["doc"]["explain"], json.loads(after_json.read_text())["explain"]
    da = direct(after)
    assert (a["graph_break_count"], len(a["skipped_frames"])) == (da["graph_breaks"], da["frames_skipped"])
    md_path, html_path = tmp_path / "diff.md", tmp_path / "diff.html"
    r = run_tct("diff", runs[before]["json_path"], after_json, "-o", md_path, "-o", html_path)
    assert r.rc == 0, r
    nb, na = b["graph_break_count"], a["graph_break_count"]
    sb, sa = len(b["skipped_frames"]), len(a["skipped_frames"])
    assert re.search(rf"graph breaks {nb} -> {na} \(", r.out), r.out
    assert f"frames dynamo skipped (ran eagerly) {sb} -> {sa} (" in r.out, r.out
    for f in b["skipped_frames"]:
        assert f"compiles now {f['title']}" in r.out
    md = md_path.read_text()
    assert f"graph breaks {nb} -> {na} (" in md and f"Frames dynamo skipped (ran eagerly) {sb} -> {sa} (" in md
    page = re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", html_path.read_text())))
    assert f"break_count {nb} -> {na}" in page and f"frames_skipped {sb} -> {sa}" in page, page[:2000]
    d = run_tct("diff", runs[before]["json_path"], after_json, "--json").json()["diff"]
    assert (d["break_count"]["before"], d["break_count"]["after"]) == (nb, na)
    assert (d["frames_skipped"]["before"], d["frames_skipped"]["after"]) == (sb, sa)
    assert d["skipped_fixed"] == [f["title"] for f in b["skipped_frames"]]


def normalize(text):
    text = text.replace(str(FIXTURES) + "/", "<fixtures>/")
    return re.sub(r"\(torch [^)]+\)", "(torch <version>)", text)


def test_golden_terminal_report(runs):
    """The default terminal report of the logging-helper case, paths and versions
    normalized; regenerate with TCT_UPDATE_GOLDEN=1 after an intended change."""
    import os
    got = normalize(runs["breaks_log_helper.py:make"]["text"])
    path = GOLDEN / "explain_log_helper.txt"
    if os.environ.get("TCT_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(got)
    assert got == path.read_text()


def test_a_document_of_the_previous_version_renders_one_count(tmp_path):
    """A saved explain document written before these fields (no skipped-frame titles, no
    call sites) still loads in tct report, and its renderings state its one count."""
    saved = FIXTURES / "html_explain.json"
    breaks = json.loads(saved.read_text())["explain"]["graph_break_count"]
    md, page = tmp_path / "r.md", tmp_path / "r.html"
    r = run_tct("report", saved, "-o", md, "-o", page)
    assert r.rc == 0, r
    t = counts_in_text(r.out)
    assert (t["headline"], t["groups"], t["kinds"], t["run_line"]) == (breaks,) * 4, t
    m = counts_in_markdown(md.read_text())
    assert (m["headline"], m["groups"], m["kinds"]) == (breaks,) * 3, m
    h = counts_in_html(page.read_text())
    assert (h["facts"], h["run_line"], h["groups"], h["kinds"]) == (breaks,) * 4, h
