"""tct trace on real TORCH_TRACE logs: a directory of per-rank logs where one rank
differs (its data makes it recompile) names that rank and the difference; one log, gzip
input, damaged logs and bad paths."""
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from test_schema import validate
from tct_run import FIXTURES, PYTHON, run_tct


def real_trace(tmp_dir, variant):
    """The log torch writes with TORCH_TRACE set, for make_trace.py's variant."""
    out = tmp_dir / f"raw_{variant}"
    env = dict(os.environ, TORCH_TRACE=str(out))
    proc = subprocess.run([PYTHON, str(FIXTURES / "make_trace.py"), variant], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    (log,) = out.iterdir()
    return log


def rehash(text):
    """The log with each payload's has_payload recomputed (torch: the MD5 of the payload
    lines, without their tab, joined by newlines): for tests that edit a log as if torch
    had written it so."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        j = i + 1
        while j < len(lines) and lines[j].startswith("\t"):
            j += 1
        m = re.search(r'"has_payload": "([0-9a-f]{32})"', lines[i])
        if m:
            digest = hashlib.md5("\n".join(l[1:] for l in lines[i + 1:j]).encode()).hexdigest()
            lines[i] = lines[i][:m.start(1)] + digest + lines[i][m.end(1):]
        i = j
    return "\n".join(lines)


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    """A 4-rank TORCH_TRACE directory as torchrun writes it: ranks 0-2 alike, rank 3 differs."""
    base = tmp_path_factory.mktemp("trace")
    same, differs = real_trace(base, "same"), real_trace(base, "differs")
    job = base / "job"
    job.mkdir()
    for rank in range(3):
        shutil.copy(same, job / f"dedicated_log_torch_trace_rank_{rank}_ab12.log")
    shutil.copy(differs, job / "dedicated_log_torch_trace_rank_3_cd34.log")
    return job


def test_divergent_rank_is_named(job):
    r = run_tct("trace", job, "--json")
    assert r.rc == 0, r
    doc = r.json()
    validate(doc)
    t = doc["trace"]
    assert [x["rank"] for x in t["ranks"]] == [0, 1, 2, 3]
    assert t["divergence"] and {d["rank"] for d in t["divergence"]} == {3}
    whats = {d["what"] for d in t["divergence"]}
    assert {"compile_ids", "recompiles"} <= whats
    assert all(d["compared_with"] == ["rank 0", "rank 1", "rank 2"] for d in t["divergence"])
    r0, r3 = t["ranks"][0], t["ranks"][3]
    # what the compiled run did, per rank
    assert [g["kind"] for g in r0["graph_breaks"]] == ["print_logging", "data_dependent_control_flow"]
    assert all(g["file"].endswith("make_trace.py") and g["hint"]["fix"] for g in r0["graph_breaks"])
    assert r0["recompiles"] == [] and r0["compiles"][0]["function"] == "step"
    assert r0["compile_time_ns"]["entire_frame"] > 0
    guards = [g for rc in r3["recompiles"] for g in rc["guard_failures"]]
    assert any("size mismatch at index 0. expected 4, actual 6" in g for g in guards)
    assert r3["recompiles"][0]["kind"] == "dynamic_shape_recompile"
    assert all(x["read"]["garbled"] == 0 and x["read"]["truncated"] == 0 for x in t["ranks"])


def test_ranks_under_different_roots_do_not_diverge(job, tmp_path):
    """The same job checked out at two places (/a/job vs /b/job): alike, and named readably."""
    log = (job / "dedicated_log_torch_trace_rank_0_ab12.log").read_text()
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "dedicated_log_torch_trace_rank_0_a.log").write_text(log)
    # As torch would have written it there: payloads and their MD5s (has_payload) alike.
    (moved / "dedicated_log_torch_trace_rank_1_b.log").write_text(rehash(log.replace(str(FIXTURES), "/elsewhere/job")))
    r = run_tct("trace", moved, "--json")
    assert r.rc == 0, r
    t = r.json()["trace"]
    assert t["divergence"] == []
    assert [x["root"] for x in t["ranks"]] == [str(FIXTURES) + "/", "/elsewhere/job/"]
    for rank in t["ranks"]:
        assert {g["file"] for g in rank["graph_breaks"]} == {"make_trace.py"}
        assert rank["compiles"][0]["file"] == "make_trace.py"


def test_text_says_which_rank_diverges(job, tmp_path):
    r = run_tct("trace", job, "-o", tmp_path / "t.html", "-o", tmp_path / "t.md")
    assert r.rc == 0, r
    assert "RANKS DIVERGE" in r.out
    assert "rank 3 recompiled 3 time(s), rank 0, rank 1, rank 2 0 time(s)" in r.out
    assert "guard failed: 0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6" in r.out
    assert "Ranks diverge" in (tmp_path / "t.html").read_text()
    md = (tmp_path / "t.md").read_text()
    assert "**Ranks diverge**" in md and md.startswith("## tct trace: 4 log(s); ranks diverge")


def test_alike_ranks_gzip_and_damage(job, tmp_path):
    same = job / "dedicated_log_torch_trace_rank_0_ab12.log"
    alike = tmp_path / "alike"
    alike.mkdir()
    data = same.read_bytes()
    (alike / "dedicated_log_torch_trace_rank_0_x.log.gz").write_bytes(gzip.compress(data))
    # rank 1: garbage line in the middle and cut off mid-record at the end
    cut = data[: len(data) - 50]
    mid = cut.index(b"\nV", len(cut) // 2)
    (alike / "dedicated_log_torch_trace_rank_1_x.log").write_bytes(cut[:mid] + b"\nV1130 18:15:52.398000 1 x.py:1] {not json\n" + cut[mid + 1:])
    r = run_tct("trace", alike, "--json")
    assert r.rc == 0, r
    t = r.json()["trace"]
    assert t["ranks"][0]["read"]["garbled"] == 0 and t["ranks"][1]["read"]["garbled"] == 1
    assert t["ranks"][1]["read"]["truncated"] == 1
    assert any("damaged" in w["message"] for w in r.json()["warnings"])
    strict = run_tct("trace", alike, "--strict")
    assert strict.rc == 2 and strict.err.startswith("tct: error: ")


def test_bad_paths(tmp_path):
    r = run_tct("trace", tmp_path / "nope")
    assert r.rc == 2 and r.err.startswith("tct: error: ") and "does not exist" in r.err
    r = run_tct("trace", tmp_path)
    assert r.rc == 2 and "holds no trace logs" in r.err
    (tmp_path / "x.log").write_text("hello\nworld\n")
    r = run_tct("trace", tmp_path / "x.log")
    assert r.rc == 2 and "is not a TORCH_TRACE log" in r.err


# --- Logs of every torch, and every rank (issue 26): fixtures with their expected facts ---

TRACES = FIXTURES / "traces"


def facts(trace):
    """What expected.json files state, from `tct trace --json`'s trace section."""
    ranks = []
    for r in trace["ranks"]:
        ranks.append({
            "rank": r["rank"],
            "compile_count": r["compile_count"],
            "compile_ids": [c["compile_id"] for c in r["compiles"]],
            "dynamo_resets": r["dynamo_resets"],
            "recompiles": [x["compile_id"] for x in r["recompiles"]],
            "graph_break_count": r["graph_break_count"],
            "graph_break_kinds": sorted({g["kind"] for g in r["graph_breaks"]}),
            "graph_breaks_from_restarts": sum(c["graph_breaks_from_restarts"] for c in r["compiles"]),
            "compiles_without_id": [u["kind"] for u in r["compiles_without_id"]],
            "damaged": r["read"]["damaged"],
        })
    divergence = sorted({(d["rank"], d["what"], d["compile_id"]) for d in trace["divergence"]}, key=str)
    return ranks, [list(d) for d in divergence]


def read_trace(path, *extra):
    r = run_tct("trace", path, "--json", *extra)
    assert r.rc == 0, r
    doc = r.json()
    validate(doc)
    return doc


def check_expected(case_dir, trace):
    expected = json.loads((case_dir / "expected.json").read_text())
    ranks, divergence = facts(trace)
    assert len(ranks) == len(expected["ranks"])
    for got, want in zip(ranks, expected["ranks"]):
        for key, value in want.items():
            assert got[key] == value, (case_dir.name, key, got)
    if "divergence" in expected:
        assert divergence == expected["divergence"]


@pytest.mark.parametrize("case", ["reset", "aoti", "multirank", "old_restart_breaks", "unresumable"])
def test_fixture_logs_read_as_expected(case):
    check_expected(TRACES / case, read_trace(TRACES / case)["trace"])


def gunzipped(case, tmp_path):
    """The case's logs, uncompressed, into tmp_path (for tests that alter them)."""
    out = tmp_path / case
    out.mkdir()
    for log in sorted((TRACES / case).glob("*.log*")):
        data = gzip.decompress(log.read_bytes()) if log.suffix == ".gz" else log.read_bytes()
        (out / log.name.removesuffix(".gz")).write_bytes(data)
    return out


def test_last_line_without_newline_reads_clean(tmp_path):
    """The writer's last record, whole, in a file that lost its final newline."""
    logs = gunzipped("reset", tmp_path)
    (log,) = logs.iterdir()
    data = log.read_bytes()
    assert data.endswith(b"\n")
    log.write_bytes(data.rstrip(b"\n"))
    r = run_tct("trace", logs, "--json", "--strict")
    assert r.rc == 0, r
    assert not any("damaged" in w["message"] for w in r.json().get("warnings", []))
    check_expected(TRACES / "reset", r.json()["trace"])
    assert "damaged" not in run_tct("trace", logs).out


def test_payload_missing_a_line_is_read_as_edited(tmp_path):
    """A line dropped from an inductor_collective_schedule payload: its JSON still parses
    (a list lost an entry), so it is read and used, as tlparse reads it; its MD5 differs, a
    note, not damage. --strict fails on it, as tlparse --strict does."""
    logs = gunzipped("multirank", tmp_path)
    for other in logs.iterdir():  # ranks 1 and 2 alike (two runs of the default), rank 0 edited
        if "_base" not in other.name:
            other.unlink()
    shutil.copy(logs / "dedicated_log_torch_trace_rank_1_base.log", logs / "dedicated_log_torch_trace_rank_2_base.log")
    log = logs / "dedicated_log_torch_trace_rank_0_base.log"
    lines = log.read_text().split("\n")
    at = next(i for i, l in enumerate(lines) if '"inductor_collective_schedule"' in l)
    assert lines[at + 2].startswith('\t"torch.ops._c10d_functional.')
    del lines[at + 2]
    log.write_text("\n".join(lines))
    doc = read_trace(logs)
    r0 = doc["trace"]["ranks"][0]
    assert r0["read"]["damaged"] == 0 and r0["read"]["edited_payloads"] == 1
    assert r0["read"]["edited_at"] == [{"log": str(log), "line": at + 1, "record": "inductor_collective_schedule",
                                        "what": "MD5 differs"}]
    assert all(r["read"]["damaged"] == 0 and r["read"]["edited_payloads"] == 0 for r in doc["trace"]["ranks"][1:])
    assert not any("damaged" in w["message"] for w in doc.get("warnings", []))
    # The schedule as it now reads: rank 0 issues one collective fewer than its peers.
    assert [0, "collective_schedule", "0/0"] in facts(doc["trace"])[1]
    assert "note: 1 payload(s) edited after they were written: MD5 differs" in run_tct("trace", logs).out
    strict = run_tct("trace", logs, "--strict")
    assert strict.rc == 2 and strict.err.startswith("tct: error: 1 payload(s) edited after they were written")


def test_crlf_copy_reads_like_the_original(tmp_path):
    """A log saved with Windows line ends ("\\r\\n" after every line) reads exactly like the
    original: the same records, payloads and MD5s; only its size differs."""
    logs = gunzipped("multirank", tmp_path)
    crlf = tmp_path / "crlf"
    crlf.mkdir()
    for log in logs.iterdir():
        (crlf / log.name).write_bytes(log.read_bytes().replace(b"\n", b"\r\n"))
    original, copy = read_trace(logs, "--strict")["trace"], read_trace(crlf, "--strict")["trace"]

    def comparable(trace):
        for rank in trace["ranks"]:
            rank["files"] = [Path(f).name for f in rank["files"]]
            del rank["read"]["bytes"]
        for d in trace["divergence"]:
            d["log"] = Path(d["log"]).name
        del trace["path"]
        return trace

    assert original["ranks"][0]["read"]["verified_payloads"] > 0
    assert comparable(copy) == comparable(original)


def test_schedule_edit_names_rank_graph_and_collective(tmp_path):
    """Two ranks alike and a third whose collective schedule was edited (two collectives
    swapped, its MD5 left as it was): the classic cause of a hang, named with the rank, the
    graph and the first collective that differs."""
    logs = gunzipped("multirank", tmp_path)
    for log in logs.iterdir():
        if "_base" not in log.name:
            log.unlink()
    text = (logs / "dedicated_log_torch_trace_rank_0_base.log").read_text()
    lines = text.split("\n")
    at = next(i for i, l in enumerate(lines) if '"inductor_collective_schedule"' in l and '"frame_id": 0' in l)
    first = lines[at + 1: lines.index("\t]", at)]
    ops = [json.loads(l[1:].rstrip(",")) for l in first[1:]]
    k = next(i for i in range(1, len(ops)) if ops[i] != ops[0])  # swap the first two that differ
    lines[at + 2], lines[at + 2 + k] = lines[at + 2 + k], lines[at + 2]
    (logs / "dedicated_log_torch_trace_rank_2_edit.log").write_text("\n".join(lines))
    t = read_trace(logs)["trace"]
    (d,) = t["divergence"]
    assert (d["rank"], d["what"], d["compile_id"]) == (2, "collective_schedule", "0/0")
    assert d["first_difference"] == {"position": 1, "op": ops[k], "reference_op": ops[0]}
    assert d["compared_with"] == ["rank 0", "rank 1"]
    assert f"rank 2 issues other collectives in graph 0/0 than rank 0, rank 1: #1 is {ops[k]}, not {ops[0]}" in d["message"]
    assert t["ranks"][2]["read"]["edited_payloads"] == 1 and t["ranks"][2]["read"]["damaged"] == 0


def test_reset_text_and_aoti_text():
    out = run_tct("trace", TRACES / "reset").out
    assert "torch._dynamo.reset() 1 time(s)" in out and "0/0 (after reset 1)" in out
    out = run_tct("trace", TRACES / "aoti").out
    assert "1 compile(s) without a compile id: 1 aot_inductor (AOT Inductor" in out
    assert "aot_inductor from main_aoti at make_trace.py:" in out


def test_multirank_checks_name_rank_and_graph(tmp_path):
    r = run_tct("trace", TRACES / "multirank", "-o", tmp_path / "t.html")
    assert r.rc == 0, r
    assert "All ranks compiled alike" not in r.out and "RANKS DIVERGE" in r.out
    assert "rank 2 issues 4 collective(s) in graph 0/0 where rank 0, rank 1 issue 6: #9 is " in r.out
    assert "rank 3 ran its compiled graphs in another order than rank 0, rank 1: call #3 ran graph 1/0, not 0/0" in r.out
    assert "rank 4 had other cache hits and misses in graph 0/0 than rank 0, rank 1" in r.out
    assert "rank 5's tensor metadata differs in graph 0/0 from rank 0, rank 1's" in r.out
    assert "rank 2 issues 4 collective(s)" in (tmp_path / "t.html").read_text()


def test_alike_ranks_say_what_was_compared(tmp_path):
    logs = gunzipped("multirank", tmp_path)
    for log in logs.iterdir():
        if "rank_0_" not in log.name and "rank_1_" not in log.name:
            log.unlink()
    r = run_tct("trace", logs)
    assert r.rc == 0, r
    assert "All ranks compiled alike" in r.out and "collective schedules" in r.out


def test_empty_files_in_a_trace_folder_are_no_logs(tmp_path):
    """A folder others write into (tlparse's multi_rank_messy_input): empty files beside the
    rank logs are not logs (torch opens its log at the first record), so they neither count
    as ranks nor diverge."""
    logs = gunzipped("multirank", tmp_path)
    for log in logs.iterdir():
        if "_base" not in log.name:
            log.unlink()
    (logs / "another.log").write_bytes(b"")
    (logs / "some_other_file.txt").write_bytes(b"")
    t = read_trace(logs)["trace"]
    assert [r["rank"] for r in t["ranks"]] == [0, 1] and t["divergence"] == []


def test_two_logs_of_one_rank_are_two_processes(tmp_path):
    """A job restarted into the same TORCH_TRACE folder: rank 0 has two logs, each its own
    compiles (not merged into one 0/0)."""
    logs = tmp_path / "restarted"
    logs.mkdir()
    (log,) = (TRACES / "reset").glob("*.gz")
    for name in ("dedicated_log_torch_trace_rank_0_aaaa.log.gz", "dedicated_log_torch_trace_rank_0_bbbb.log.gz"):
        shutil.copy(log, logs / name)
    (rank,) = read_trace(logs)["trace"]["ranks"]
    assert rank["compile_count"] == 14 and rank["dynamo_resets"] == 2
    ids = [c["compile_id"] for c in rank["compiles"]]
    assert "0/0" in ids and "0/0 (log 2)" in ids and "0/0 (after reset 1) (log 2)" in ids
    assert [c["log"] for c in rank["compiles"]].count(1) == 7
