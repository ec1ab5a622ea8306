"""tct run on real jobs: the call sites of examples/train_loop.py (its graph break, its
recompile with the guard, compile time, per-call time), the job's output and exit status
passing through, a silent fallback said first, --compare-eager, and two torchrun ranks that
compile differently. aot_eager keeps compiles short on CPU: inductor's codegen is not what
is tested here."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tct_run import CACHE, PYTHON, ROOT, TCT, run_tct

TRAIN = ROOT / "examples" / "train_loop.py"


def run_doc(tmp_path, *job, flags=(), ok=(0,)):
    from test_schema import validate  # the one validator of schema/ (draft 2020-12)

    out = tmp_path / "run.json"
    r = run_tct("run", "-o", out, "--dir", tmp_path / "run", *flags, "--", *job)
    assert r.rc in ok, r
    doc = json.loads(out.read_text())
    assert doc["exit_code"] == r.rc
    validate(doc)
    return r, doc


def only_site(doc):
    procs = doc["run"]["processes"]
    assert len(procs) == 1, procs
    assert len(procs[0]["sites"]) == 1, procs[0]["sites"]
    return procs[0]["sites"][0]


@pytest.fixture(scope="module")
def train(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("train")
    r, doc = run_doc(tmp, PYTHON, TRAIN, "--backend", "aot_eager", "--steps", "24", "--width", "64",
                     flags=("-o", tmp / "run.md", "-o", tmp / "run.html"))
    return r, doc, tmp


def test_train_loop_site_break_recompile(train):
    r, doc, _ = train
    assert "train_loop: 24 steps, compiled" in r.out  # the job's stdout is its own
    assert "tct run:" in r.err and "tct run:" not in r.out  # the report goes to stderr
    s = only_site(doc)
    assert s["kind"] == "module" and s["name"] == "MLP"
    assert s["site"]["file"].endswith("examples/train_loop.py")
    assert s["code"]["function"] == "forward"
    assert s["calls"] == 24
    assert s["compiling_calls"] >= 2  # the first call and the recompile at the shape change
    assert s["eager_calls"] == 0
    assert s["steady_calls"]["calls"] >= 18 and s["steady_calls"]["median_ns"] > 0
    assert s["steady_calls"]["p90_ns"] >= s["steady_calls"]["median_ns"]
    assert s["compile_time_ns"] > 0
    assert s["graph_breaks"] >= 1
    assert any("print" in (b["reason"] + b["kind"]).lower() for b in s["breaks"]), s["breaks"]
    assert s["recompiles"] >= 1
    guards = [g for c in s["compiles"] for g in c["recompile_reasons"]]
    assert any("size mismatch" in g for g in guards), guards
    assert s["fallbacks"] == []
    assert 0 < s["job_share"] < 1


def test_text_report_names_the_break_and_guard(train):
    r, _, tmp = train
    assert "MLP at examples/train_loop.py:" in r.err or "MLP at " in r.err, r.err
    assert "graph break at" in r.err
    assert "recompiled 1x" in r.err and "size mismatch" in r.err and "mark_dynamic" in r.err
    md = (tmp / "run.md").read_text()
    assert md.startswith("## tct run: 1 call site(s) in 1 process(es)")
    assert "graph break at `examples/train_loop.py:" in md and "fix: move the print" in md
    html = (tmp / "run.html").read_text()
    assert 'id="run"' in html and "MLP" in html and "size mismatch" in html


def test_job_failure_passes_through_and_still_reports(tmp_path):
    script = tmp_path / "crash.py"
    script.write_text("import torch, sys\n"
                      "f = torch.compile(lambda x: x * 2, backend='eager')\n"
                      "for _ in range(3): f(torch.ones(2))\n"
                      "print('before crash', flush=True)\n"
                      "sys.exit(7)\n")
    r, doc = run_doc(tmp_path, PYTHON, script, ok=(7,))
    assert "before crash" in r.out
    assert "tct: error: the command failed (exit code 7)" in r.err
    assert only_site(doc)["calls"] == 3


def test_silent_fallback_is_said_first(tmp_path):
    script = tmp_path / "limit.py"
    script.write_text("import torch\n"
                      "torch._dynamo.config.recompile_limit = 2\n"
                      "@torch.compile(backend='eager', dynamic=False)\n"
                      "def f(x):\n"
                      "    return x * 2 + 1\n"
                      "for n in range(1, 9):\n"
                      "    f(torch.ones(n))\n")
    r, doc = run_doc(tmp_path, PYTHON, script)
    s = only_site(doc)
    (fb,) = s["fallbacks"]
    assert fb["frame"]["role"] == "site"
    assert fb["cause"] == "recompile_limit" and fb["limit_value"] == 2
    assert "size mismatch" in fb["guard"]
    assert fb["eager_calls_after"] == 6 and fb["calls_after"] == 6
    assert s["eager_calls"] == 6
    report = r.err
    assert "SILENT FALLBACK" in report
    assert report.index("SILENT FALLBACK") < report.index("calls:") if "calls:" in report else True


def test_module_compile_method_is_a_site(tmp_path):
    # nn.Module.compile() calls torch.compile(self._call_impl) from inside torch: the site is
    # still the module, at the line of the user's .compile() call, and every call is timed.
    script = tmp_path / "method.py"
    script.write_text("import torch\n"
                      "class Net(torch.nn.Module):\n"
                      "    def forward(self, x):\n"
                      "        return torch.relu(x) * 2\n"
                      "net = Net()\n"
                      "net.compile(backend='eager')\n"
                      "for _ in range(7):\n"
                      "    net(torch.ones(4))\n")
    r, doc = run_doc(tmp_path, PYTHON, script)
    s = only_site(doc)
    assert s["kind"] == "module" and s["name"] == "Net", s
    assert s["site"]["file"] == str(script) and s["site"]["line"] == 6, s["site"]
    assert s["code"]["function"] == "forward"
    assert s["calls"] == 7 and s["eager_calls"] == 0
    assert s["compiling_calls"] == 1


def test_user_sitecustomize_still_runs(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text("import os\nos.environ['USER_SITE_RAN'] = 'yes'\n")
    script = tmp_path / "show.py"
    script.write_text("import os\nprint('user site:', os.environ.get('USER_SITE_RAN'))\n")
    r = run_tct("run", "--dir", tmp_path / "run", "--", PYTHON, script, env={"PYTHONPATH": str(site)})
    assert r.rc == 0, r
    assert "user site: yes" in r.out
    assert "no process of the job imported torch" in r.err


def test_short_form_script_and_module(tmp_path):
    script = tmp_path / "hello.py"
    script.write_text("import sys\nprint('args', sys.argv[1:])\n")
    r = run_tct("run", "--python", PYTHON, "--dir", tmp_path / "run", script, "--flag", "x", "-o", "y")
    assert r.rc == 0, r
    assert "args ['--flag', 'x', '-o', 'y']" in r.out  # the job's flags are the job's
    r = run_tct("run", "--python", PYTHON, "--dir", tmp_path / "run2", "-m", "hello", "--json",
                env={"PYTHONPATH": str(tmp_path)})
    assert r.rc == 0, r
    assert "args ['--json']" in r.out


def test_command_not_found_and_no_command(tmp_path):
    r = run_tct("run", "--dir", tmp_path / "run", "--", "no-such-command-tct-test")
    assert r.rc == 2, r
    assert r.err.startswith("tct: error: cannot run no-such-command-tct-test")
    r = run_tct("run")
    assert r.rc == 2, r
    assert "no command to run" in r.err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_reaches_the_job_and_records_survive(tmp_path, sig):
    script = tmp_path / "loop.py"
    script.write_text("import torch, time\n"
                      "f = torch.compile(lambda x: x + 1, backend='eager')\n"
                      "for _ in range(5): f(torch.ones(2))\n"
                      "print('ready', flush=True)\n"
                      "while True: time.sleep(0.05)\n")
    out = tmp_path / "run.json"
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=CACHE)
    p = subprocess.Popen([str(TCT), "run", "-o", str(out), "--dir", str(tmp_path / "run"), "--", PYTHON, str(script)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = p.stdout.readline()
    assert "ready" in line
    p.send_signal(sig)  # to tct alone (not from a terminal): it forwards it to the job
    _, err = p.communicate(timeout=120)
    assert p.returncode == 128 + sig, err
    doc = json.loads(out.read_text())
    assert only_site(doc)["calls"] == 5


def test_compare_eager(tmp_path):
    r, doc = run_doc(tmp_path, PYTHON, TRAIN, "--backend", "aot_eager", "--steps", "24", "--width", "64",
                     flags=("--compare-eager",))
    assert r.out.count("train_loop: 24 steps, compiled") == 2  # the eager run is forced eager by tct, not by the flag
    s = only_site(doc)
    e = s["eager"]
    assert e is not None
    assert e["eager"]["calls"] >= 18 and e["compiled"]["calls"] >= 18
    sp = e["speedup"]
    assert sp["low"] <= sp["estimate"] <= sp["high"]
    assert "one compiled and one eager run" in sp["covers"]
    assert e["verdict"] in ("faster", "slower", "no_clear_difference", "inconclusive")
    assert e["compile_cost_ns"] > 0
    assert doc["run"]["compare_eager"]["stance"] == "force_eager"
    assert "vs eager:" in r.err


TORCHRUN = ROOT / ".venv" / "bin" / "torchrun"


@pytest.mark.skipif(not TORCHRUN.exists(), reason="no torchrun in the venv")
def test_torchrun_two_ranks_names_the_diverging_rank(tmp_path):
    r, doc = run_doc(tmp_path, TORCHRUN, "--nproc-per-node", "2", "--master-port", "29533",
                     ROOT / "examples" / "ddp_ranks.py")
    ranks = sorted(p["rank"] for p in doc["run"]["processes"])
    assert ranks == [0, 1]
    by_rank = {p["rank"]: p["sites"][0] for p in doc["run"]["processes"]}
    assert by_rank[0]["calls"] == by_rank[1]["calls"] == 10
    assert by_rank[1]["recompiles"] >= 1 and by_rank[0]["recompiles"] == 0
    div = doc["run"]["divergence"]
    assert any(d["rank"] == 1 for d in div), div
    assert "RANKS DIVERGE" in r.err and "rank 1" in r.err


def test_documents_match_the_schema(train):
    from test_schema import validate  # the one validator of schema/ (draft 2020-12)

    validate(train[1])


def test_out_files_are_rewritten_while_the_job_runs(tmp_path):
    stop = tmp_path / "stop"
    script = tmp_path / "serve.py"
    script.write_text("import torch, time, os\n"
                      "f = torch.compile(lambda x: x + 1, backend='eager')\n"
                      "for _ in range(3): f(torch.ones(2))\n"
                      "print('ready', flush=True)\n"
                      f"while not os.path.exists({str(stop)!r}): time.sleep(0.1)\n")
    out = tmp_path / "run.json"
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=CACHE, TCT_RUN_FLUSH_S="1")
    p = subprocess.Popen([str(TCT), "run", "-o", str(out), "--dir", str(tmp_path / "run"), "--", PYTHON, str(script)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert "ready" in p.stdout.readline()
        deadline = time.time() + 60
        doc = None
        while time.time() < deadline:
            if out.exists():
                doc = json.loads(out.read_text())
                if doc["run"]["processes"]:
                    break
            time.sleep(0.5)
        assert doc is not None and doc["exit_code"] is None and doc["run"]["exit"] == "still running", doc
        assert only_site(doc)["calls"] == 3
    finally:
        stop.write_text("")
        p.communicate(timeout=120)
    assert p.returncode == 0
    assert json.loads(out.read_text())["exit_code"] == 0


FLUSHES_AT_EXIT = '''import threading, time, torch, tct_run_recorder
f = torch.compile(lambda x: x * 2, backend="eager")
for _ in range(20000): f(torch.ones(3))  # a record that takes milliseconds to write
def flush_forever():  # the periodic thread at its worst: always flushing, so also at exit
    while True: tct_run_recorder.flush()
threading.Thread(target=flush_forever, daemon=True).start()
time.sleep(0.2)
'''


def test_the_final_record_is_whole_while_other_flushes_run(tmp_path):
    """The periodic thread's flush and atexit's once wrote one temporary file together: the record
    kept another flush's tail, tct skipped it as unreadable and the run had no process. Here a
    thread flushes without pause until the process ends; the final record must be read whole,
    and no periodic flush may replace it."""
    script = tmp_path / "flushes.py"
    script.write_text(FLUSHES_AT_EXIT)
    for k in range(2):  # the race took the first run of two before the fix
        (tmp_path / str(k)).mkdir()
        _, doc = run_doc(tmp_path / str(k), PYTHON, script, flags=("--no-breakdown",))
        assert not [n for n in doc["run"]["notes"] if "skipped a record file" in n], doc["run"]["notes"]
        assert only_site(doc)["calls"] == 20000
        (record,) = (tmp_path / str(k) / "run" / "compiled" / "records").glob("process-*.json")
        assert json.loads(record.read_text())["final"] is True


FAKE_CUDA = '''import time, torch
class FakeEvent:  # stands for torch.cuda.Event: host clock, always complete
    def __init__(self, enable_timing=False): self.t = None
    def record(self, stream=None): self.t = time.perf_counter_ns()
    def query(self): return True
    def synchronize(self): pass
    def elapsed_time(self, other): return (other.t - self.t) / 1e6
real = torch.cuda.is_available, torch.cuda.is_initialized, torch.cuda.Event
torch.cuda.is_available, torch.cuda.is_initialized, torch.cuda.Event = (lambda: True), (lambda: True), FakeEvent
f = torch.compile(lambda x: x * 2, backend="eager")  # tct's wrapper sees CUDA in use here
torch.cuda.is_available, torch.cuda.is_initialized, torch.cuda.Event = real  # Dynamo must see the CPU
for _ in range(12): f(torch.ones(3))
'''


def test_cuda_events_time_each_call_and_feed_the_comparison(tmp_path):
    """No GPU here: torch.cuda.Event is faked, the path from events to the report is real."""
    script = tmp_path / "fake_cuda.py"
    script.write_text(FAKE_CUDA)
    r, doc = run_doc(tmp_path, PYTHON, script, flags=("--compare-eager",))
    s = only_site(doc)
    assert s["device_steady_calls"]["calls"] == s["steady_calls"]["calls"] > 0
    assert s["eager"]["clock"] == "cuda_events"
    assert "device time per call (CUDA events" in r.err
    assert "vs eager (CUDA event time)" in r.err
