"""tct run on small jobs written apart from examples/ and from each other (tests/e2e/jobs/),
each fact checked against an independent record of the same run: torch's own recompile-limit
warning on the job's stderr, the trace's compilation_metrics records read here directly, and
what the job itself printed. backend="eager"/"aot_eager": compile time is not what is tested."""
import glob
import json
import os

import pytest

from tct_run import PYTHON, ROOT, run_tct

JOBS = ROOT / "tests" / "e2e" / "jobs"


def run_job(tmp, job, *job_args, flags=(), rc=0):
    from test_schema import validate

    tmp.mkdir(parents=True, exist_ok=True)
    out = tmp / "run.json"
    r = run_tct("run", "-o", out, "--dir", tmp / "run", *flags, "--", PYTHON, JOBS / job, *job_args)
    assert r.rc == rc, r
    doc = json.loads(out.read_text())
    validate(doc)
    return r, doc


def only_site(doc):
    (proc,) = doc["run"]["processes"]
    (site,) = proc["sites"]
    return site


def trace_metrics(trace_dir):
    """Every compilation_metrics record of the run's logs, read without tct: compile id ->
    the record's fields."""
    out = {}
    for path in glob.glob(os.path.join(trace_dir, "**", "*.log"), recursive=True):
        with open(path) as f:
            for line in f:
                if "compilation_metrics" not in line or "{" not in line:
                    continue
                meta = json.loads(line[line.index("{"):])
                m = meta.get("compilation_metrics")
                if isinstance(m, dict) and m.get("compile_id"):
                    out[m["compile_id"]] = m
    return out


def report(r):
    """tct's own report: what it printed on stderr after the job's output."""
    return r.err[r.err.index("tct run:"):]


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    # --fail-on-fallback: the job succeeds, tct exits 1 for the fallback, the report is whole.
    r, doc = run_job(tmp, "serve_banned_tokens.py", "--requests", "10", "--steps", "3",
                     flags=("--fail-on-fallback",), rc=1)
    return r, doc, trace_metrics(doc["run"]["trace_dir"])


def test_resume_frame_fallback_is_said_first(serve):
    r, doc, metrics = serve
    # The oracle: torch's own warning, and the trace's record of the refused compile.
    assert "hit config.recompile_limit (8)" in r.err and "torch_dynamo_resume_in_forward_at_19" in r.err
    refused = [m for m in metrics.values() if m.get("fail_type") and "recompile limit" in (m.get("fail_reason") or "")]
    assert refused, metrics.keys()
    s = only_site(doc)
    (fb,) = s["fallbacks"]
    assert fb["frame"]["role"] == "after_break" and fb["frame"]["break_line"] == 19
    assert fb["frame"]["frame"] == refused[0]["compile_id"].split("/")[0]
    assert fb["cause"] == "recompile_limit" and fb["limit_value"] == 8
    assert fb["at_call"] is not None and fb["calls_after"] > 0
    assert fb["guard"] == "banned[0] == ..." and fb["kind"] == "python_value"
    assert fb["eager_calls_after"] is None  # the frame before the break still ran compiled
    text = report(r)
    assert "SILENT FALLBACK" in "\n".join(text.splitlines()[:5])
    assert "the code after the graph break at tests/e2e/jobs/serve_banned_tokens.py:19" in text or \
        "the code after the graph break at" in text
    assert "SILENT FALLBACK" in r.err and "1 SILENT FALLBACK" not in doc.get("summary", "")
    assert "1 silent fallback(s) to eager (--fail-on-fallback)" in r.err
    assert doc["error"]["kind"] == "silent_fallback" and doc["exit_code"] == 1


def test_seven_recompiles_are_one_line_with_their_fix(serve):
    r, doc, metrics = serve
    s = only_site(doc)
    frame = s["fallbacks"][0]["frame"]["frame"]
    recompiled = [m for cid, m in metrics.items()
                  if cid.split("/")[0] == frame and m.get("recompile_reason") and not m.get("fail_type")]
    (g,) = [g for g in s["recompile_groups"] if g["frame"]["frame"] == frame]
    assert g["count"] == len(recompiled) == 7
    assert g["limit"] == 8 and g["cause"] == "python_value"
    assert g["values"] == [str(5 * i) for i in range(8)]  # the 8 compiled entries' values
    assert "list (or tuple) of ints" in g["why"] and "tensor" in g["fix"]
    text = report(r)
    assert text.count("recompiled 7x (limit 8)") == 1
    assert "guard failed" not in text and "User stack trace" not in text and "run_node" not in text
    assert len(text.strip().splitlines()) <= 25, text
    # -v keeps torch's own text (first lines), the JSON all of it.
    assert any("banned[0] == 30" in reason for c in s["compiles"] for reason in c["recompile_reasons"])


def test_nested_frame_fallback(tmp_path):
    r, doc = run_job(tmp_path, "nested_scale_fallback.py")
    assert "hit config.recompile_limit (4)" in r.err  # torch's own word
    s = only_site(doc)
    assert s["fallbacks"], report(r)
    fb = s["fallbacks"][0]
    assert fb["frame"]["role"] in ("nested", "after_break") and "rescale" in fb["frame"]["function"]
    assert fb["cause"] == "recompile_limit" and fb["limit_value"] == 4
    # Every compile in the trace is one of this site's (the job has one site).
    metrics = trace_metrics(doc["run"]["trace_dir"])
    assert {c["compile_id"] for c in s["compiles"]} == set(metrics)
    assert "SILENT FALLBACK" in report(r)


def test_int_module_attribute_falls_back_whole(tmp_path):
    r, doc = run_job(tmp_path, "int_attribute_counter.py")
    assert "hit config.recompile_limit (5)" in r.err
    s = only_site(doc)
    (fb,) = s["fallbacks"]
    assert fb["frame"]["role"] == "site" and fb["limit_value"] == 5
    # 9 calls, 5 compiled entries: the calls after the fifth ran no compiled graph at all.
    assert fb["eager_calls_after"] == fb["calls_after"] == 4
    assert s["eager_calls"] == 4
    (g,) = s["recompile_groups"]
    assert g["cause"] == "module_attribute" and "allow_unspec_int_on_nn_module" in g["fix"]


def test_shape_changes_recompile_once_no_fallback(tmp_path):
    r, doc = run_job(tmp_path, "varying_lengths.py")
    s = only_site(doc)
    assert s["fallbacks"] == []
    metrics = trace_metrics(doc["run"]["trace_dir"])
    recompiles = [m for m in metrics.values() if m.get("recompile_reason")]
    assert sum(g["count"] for g in s["recompile_groups"]) == len(recompiles) >= 1
    assert {g["cause"] for g in s["recompile_groups"]} == {"size"}
    assert "mark_dynamic" in s["recompile_groups"][0]["fix"]
    # What dynamic=True or mark_dynamic costs on the job's shapes is not known from this run: the fix
    # says it is untried and which command measures it.
    assert s["recompile_groups"][0]["fix_terms"]["untried"] is True
    assert "tct has not tried it on your inputs (tct job --shape-fixes measures it)" in r.err, r.err
    assert "SILENT FALLBACK" not in r.err


def test_training_step_in_library_frames(tmp_path):
    pytest.importorskip("transformers")
    r, doc = run_job(tmp_path, "finetune_tiny_gpt2.py")
    assert "trained 12 steps" in r.out
    s = only_site(doc)
    # Every compile the trace holds belongs to the site, whatever frame of transformers it was.
    metrics = trace_metrics(doc["run"]["trace_dir"])
    assert {c["compile_id"] for c in s["compiles"]} == set(metrics)
    # The frames compiled during the site's calls: their time is inside those calls.
    trace_s = sum(m.get("entire_frame_compile_time_s") or 0 for m in metrics.values())
    assert abs(s["compile_time_ns"] / 1e9 - trace_s) < 0.01 + 0.01 * trace_s
    assert s["compiling_calls_ns"] >= 0.9 * s["compile_time_ns"]
    # The backward runs in loss.backward(): said, not hidden in the per-call figure.
    assert s["backward_outside"] is True
    assert "forward alone" in report(r)
    # A break inside transformers names the user's handles, not an edit of the library.
    lib = [b for b in s["breaks"] if "site-packages/transformers" in b["file"]]
    assert lib, s["breaks"]
    assert all("ignore_logging_functions" in b["fix"] for b in lib if b["kind"] == "print_logging")
    # Each cause's fix once, however many frames recompiled for it.
    assert report(r).count("mark_dynamic") <= 1


def test_threads_reaches_the_job_and_every_run(tmp_path):
    # Whether a busy machine stalls calls is the machine's to decide, not a test's (the rule and
    # its warning: unit test RunAnalysis.StalledCallsAreNamedWithTheirFix). What --threads must do
    # is deterministic: reach the job, every run of it, and the document.
    r, doc = run_job(tmp_path / "default", "matmul_service.py", flags=("--compare-eager",))
    assert doc["run"]["threads"] is None and doc["run"]["contention"]["torch_threads"] >= 1
    # Progress between the job's runs, a line per phase off a terminal.
    assert any("eager run 1/1" in line for line in r.progress), r.progress
    # The oracle for --threads: what the job itself printed, in the compiled and the eager run.
    r1, doc1 = run_job(tmp_path / "one", "matmul_service.py", flags=("--compare-eager", "--threads", "1"))
    assert "threads 1 total" in r1.out
    assert doc1["run"]["threads"] == 1 and doc1["run"]["contention"]["torch_threads"] == 1
    assert "--threads 1 in every run" in report(r1)
