"""`tct trace` against tlparse, the reference reader of TORCH_TRACE logs (pytorch/tlparse, the
PyPI wheel in .venv), on every log the tests hold and on a two-rank gloo job generated here
with torch 2.13 (.venv) and 2.14.1 (.venv-torch2.14): per rank the compile ids, failures,
restarts, recompile reasons and graph breaks per compile; across ranks the findings both
report (compile ids that differ, collective schedules, cache hits and misses, tensor metadata,
graph execution order). Where the two disagree, DISAGREE says which is right and why: the
test fails on any other difference, and on an entry of DISAGREE that no longer differs."""
import gzip
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tct_run import FIXTURES, ROOT, run_tct

TLPARSE = Path(sys.executable).with_name("tlparse")
TRACES = FIXTURES / "traces"
# The logs the tests hold: tct's own fixtures (torch 2.13, and a hand-written torch 2.6 one)
# and logs from tlparse's tests (tests/e2e/fixtures/traces/tlparse/README.md).
HELD = ["reset", "aoti", "multirank", "old_restart_breaks", "tlparse/multi_rank_schedule", "tlparse/comp_failure.log.gz",
        "tlparse/export.log.gz"]
# The two-rank job's interpreters (tests/e2e/fixtures/make_trace.py job).
TORCHES = {"torch2.13": ROOT / ".venv" / "bin" / "python", "torch2.14": ROOT / ".venv-torch2.14" / "bin" / "python"}

# (case, fact, rank or None) -> why the tools differ there, and which is right.
DISAGREE = {
    ("multirank", "collective_schedule", 4):
        "rank 4 compiled from a cache another run filled: inductor logs no collective schedule on a cache hit "
        "(torch/_inductor/debug.py), so tlparse groups rank 4 apart for lacking one. tct compares a graph's "
        "schedule only where both ranks logged it; rank 4 ran the same code, and its cache hits are reported "
        "(cache). tct is right: there is no hang to expect from rank 4.",
}


def gunzip_into(src, out):
    """A log or a folder of logs, uncompressed (tlparse reads no gzip), under out."""
    out.mkdir(parents=True, exist_ok=True)
    for log in [src] if src.is_file() else sorted(src.glob("*.log*")):
        data = gzip.decompress(log.read_bytes()) if log.suffix == ".gz" else log.read_bytes()
        (out / log.name.removesuffix(".gz")).write_bytes(data)
    return out


def run_tlparse(logs, out):
    """tlparse's report of a folder of logs: one folder per rank (rank_N/) when there are several."""
    many = len(list(logs.iterdir())) > 1
    args = [TLPARSE, logs if many else next(logs.iterdir()), "-o", out, "--overwrite", "--no-browser"]
    proc = subprocess.run([str(a) for a in args] + (["--all-ranks-html"] if many else []), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return out


def without_attempt(compile_id):
    return re.sub(r"_\d+$", "", compile_id)


def reasons(text):
    """A recompile_reasons payload: a JSON list, or one reason written as it is (torch 2.13)."""
    try:
        value = json.loads(text)
    except ValueError:
        return [text]
    return value if isinstance(value, list) else [text]


def tlparse_rank(rank_dir):
    """Per rank, what tlparse reports: from compile_directory.json, its artifacts and
    failures_and_restarts.html."""
    directory = json.loads((rank_dir / "compile_directory.json").read_text())
    compiles, breaks, recompiles = set(), Counter(), {}
    for key, entry in directory.items():
        cid = without_attempt(key.strip("[]"))
        if "-" in cid:  # records with no compile id: "[-/-]"
            continue
        compiles.add(cid)
        for a in entry["artifacts"]:
            if a["name"].startswith("dynamo_graph_break_reason_"):
                breaks[cid] += 1
            elif a["name"].startswith("recompile_reasons_"):
                recompiles.setdefault(cid, []).extend(reasons((rank_dir / a["url"]).read_text()))
    failures, restarts = set(), set()
    page = (rank_dir / "failures_and_restarts.html").read_text()
    for cid, fail_type, restart in re.findall(
            r"\[([^\]]*)\]</a>\s*</td>\s*<td>(?:<pre>([^<]*)</pre>|\s*(RestartAnalysis)\s*)</td>", page):
        if restart:
            restarts.add(without_attempt(cid))
        else:
            failures.add((without_attempt(cid), fail_type))
    return {"compile_ids": sorted(compiles), "failures": sorted(failures), "restarts": sorted(restarts),
            "recompile_reasons": recompiles, "graph_breaks": dict(breaks)}


def tct_rank(rank):
    """The same facts from `tct trace --json`: compiles keyed by torch's compile id (tlparse
    files a compile after torch._dynamo.reset() under the same id), graph breaks as logged
    (not those tct infers from older torch's restart reasons)."""
    compiles, breaks, recompiles, failures, restarts = set(), Counter(), {}, set(), set()
    for c in rank["compiles"]:
        cid = c["torch_compile_id"]
        compiles.add(cid)
        if c["graph_breaks"] - c["graph_breaks_from_restarts"]:
            breaks[cid] += c["graph_breaks"] - c["graph_breaks_from_restarts"]
        if c["recompile_reasons"]:
            recompiles.setdefault(cid, []).extend(c["recompile_reasons"])
        if c["fail_type"]:
            failures.add((cid, c["fail_type"]))
        if c["restart_reasons"]:
            restarts.add(cid)
    return {"compile_ids": sorted(compiles), "failures": sorted(failures), "restarts": sorted(restarts),
            "recompile_reasons": recompiles, "graph_breaks": dict(breaks)}


def groups_after(page, heading):
    """The rank groups tlparse lists under a heading of its multi-rank page ("Ranks: 0, 2")."""
    at = page.find(heading)
    if at < 0:
        return []
    block = page[at:page.find("</ul>", at)]
    return [{int(r) for r in g.split(",")} for g in re.findall(r"<li>Ranks: ([\d, ]+)</li>", block)]


def odd_ranks(groups):
    """The ranks outside the largest group (ties: the group of the lowest rank)."""
    if len(groups) < 2:
        return set()
    largest = max(groups, key=lambda g: (len(g), -min(g)))
    return set().union(*groups) - largest


def tlparse_findings(out):
    page = (out / "index.html").read_text()
    return {
        "compile_ids": "Diverging Compilation IDs detected" in page,
        "collective_schedule": odd_ranks(groups_after(page, "Diverging collective operation sequences")),
        "cache": odd_ranks(groups_after(page, "Diverging Cache hit/miss patterns")),
        "tensor_meta": odd_ranks(groups_after(page, "divergent inductor tensor metadata")),
        "graph_execution_order": "Graph execution order differs across ranks" in page,
    }


def tct_findings(trace):
    d = trace["divergence"]
    ranks = lambda what: {x["rank"] for x in d if x["what"] == what}
    # tlparse's "Diverging Compilation IDs" is tct's two findings of it: a rank compiled other
    # frames (compile_ids), or recompiled one another number of times (recompiles). A rank that
    # hit or filled a shared cache otherwise is a note in tct (cache_notes), not a divergence:
    # it changes how long the rank compiles, not what it runs.
    return {"compile_ids": bool(ranks("compile_ids") | ranks("recompiles")),
            "collective_schedule": ranks("collective_schedule"),
            "cache": {x["rank"] for x in trace.get("cache_notes", [])}, "tensor_meta": ranks("tensor_meta"),
            "graph_execution_order": bool(ranks("graph_execution_order"))}


def compare(case, logs, tmp_path):
    """Both tools on one folder of logs; returns the differences not explained in DISAGREE."""
    r = run_tct("trace", logs, "--json")
    assert r.rc == 0, r
    trace = r.json()["trace"]
    out = run_tlparse(logs, tmp_path / "tl_out")
    found, explained = [], set()

    def differ(fact, rank, ours, theirs):
        if ours == theirs:
            return
        if (case, fact, rank) in DISAGREE:
            explained.add((case, fact, rank))
        else:
            found.append(f"{case} {fact} rank {rank}: tct {ours!r}, tlparse {theirs!r}")

    several = len(trace["ranks"]) > 1
    for rank in trace["ranks"]:
        theirs = tlparse_rank(out / f"rank_{rank['rank']}" if several else out)
        ours = tct_rank(rank)
        for fact in ours:
            differ(fact, rank["rank"], ours[fact], theirs[fact])
        assert rank["read"]["damaged"] == 0, (case, rank["read"])
    if several:
        ours, theirs = tct_findings(trace), tlparse_findings(out)
        for fact in ours:
            if isinstance(ours[fact], set):
                for rank in sorted(ours[fact] | theirs[fact]):
                    differ(fact, rank, rank in ours[fact], rank in theirs[fact])
            else:
                differ(fact, None, ours[fact], theirs[fact])
    stale = {k for k in DISAGREE if k[0] == case} - explained
    assert not stale, f"DISAGREE entries that no longer differ: {stale}"
    return found, trace


@pytest.mark.parametrize("case", HELD)
def test_held_logs_agree_with_tlparse(case, tmp_path):
    logs = gunzip_into(TRACES / case, tmp_path / "logs")
    found, _ = compare(case, logs, tmp_path)
    assert not found, "\n".join(found)


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    """The two-rank gloo job (make_trace.py job) under each torch, all four processes at once."""
    base = tmp_path_factory.mktemp("jobs")
    procs = []
    for name, python in TORCHES.items():
        if not python.exists():
            continue
        for rank in (0, 1):
            env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", TCT_INIT_FILE=str(base / f"{name}.init"),
                       TORCH_TRACE=str(base / name))
            procs.append((name, subprocess.Popen([str(python), str(FIXTURES / "make_trace.py"), "job"], env=env,
                                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)))
    for name, proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, f"{name}: {err[-3000:]}"
    return base


@pytest.mark.parametrize("torch", list(TORCHES))
def test_generated_job_agrees_with_tlparse(jobs, torch, tmp_path):
    logs = jobs / torch
    if not logs.exists():
        pytest.skip(f"{TORCHES[torch]} missing (TCT_SKIP_TORCH2_14=1?)")
    found, trace = compare(torch, logs, tmp_path)
    assert not found, "\n".join(found)
    # What the job did, as both tools read it: only rank 1 recompiled (its second batch
    # differs: the frame and the resume functions after its graph breaks), the broken backend
    # failed, and the compile ids diverge.
    r0, r1 = trace["ranks"]
    assert r0["recompiles"] == [] and len(r1["recompiles"]) >= 1
    assert any(c["fail_type"] == "BackendCompilerFailed" for c in r0["compiles"])
    assert r0["dynamo_resets"] == 1 and {d["rank"] for d in trace["divergence"]} == {1}
