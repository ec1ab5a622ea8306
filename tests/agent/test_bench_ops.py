"""The bench ops and timing primitives, called in-process (no tct binary)."""
from pathlib import Path

import pytest
import torch

from tct_agent import timing
from tct_agent.errors import TctError
from tct_agent.ops import bench
from tct_agent.ops.target import op_load
from tct_agent.session import Session

FIXTURE = str(Path(__file__).resolve().parents[1] / "e2e" / "fixtures" / "bench_targets.py")


@pytest.fixture
def session():
    s = Session()
    op_load({"target": "builtin:mlp", "params": {"batch": 2, "width": 16, "depth": 1}}, s)
    return s


def test_clock_resolution_is_positive():
    c = timing.clock_resolution_ns(2000)
    assert c["resolution_ns"] > 0
    assert c["declared_resolution_ns"] > 0


def test_time_each_and_block_return_ns():
    calls = []
    times = timing.time_each(lambda: calls.append(1), 5)
    assert len(times) == 5 and len(calls) == 5 and all(t >= 0 for t in times)
    seen = []
    block = timing.time_block(lambda *a, **k: seen.append((a, k)), (1, 2), {"x": 3}, samples=4, calls_per_sample=10)
    assert len(block) == 4 and all(t > 0 for t in block)
    assert seen == [((1, 2), {"x": 3})] * 40  # a tight loop of the bare call


def test_time_block_warms_up_untimed_first():
    calls = []
    block = timing.time_block(lambda: calls.append(1), (), {}, samples=2, calls_per_sample=3, warmup_ns=2e6)
    assert len(block) == 2 and len(calls) > 6  # 6 timed calls, the rest the 2 ms warm-up


def test_time_each_stops_at_max_ns():
    times = timing.time_each(lambda: sum(range(1000)), 1000, max_ns=1)
    assert 3 <= len(times) < 1000


def test_env_lists_backends_modes_clock(session):
    env = bench.op_env({}, session)
    assert "inductor" in env["backends"] and "aot_eager" in env["backends"]
    assert "default" in env["modes"] and "max-autotune" in env["modes"]
    assert env["clock"]["resolution_ns"] > 0
    assert env["device_type"] == "cpu"


def test_eager_compile_measure_check(session):
    warm = bench.op_eager_warmup({"n": 3}, session)
    assert len(warm["times_ns"]) == 3
    bench.op_compile({"key": "k", "backend": "aot_eager", "mode": "default", "dynamic": "auto",
                      "fullgraph": False}, session)
    first = bench.op_first_calls({"key": "k", "n": 4, "backend": "aot_eager"}, session)
    assert len(first["times_ns"]) == 4
    assert first["times_ns"][0] > first["times_ns"][-1]  # the first call compiles
    assert first["counters"]["unique_graphs"] >= 1
    blk = bench.op_time_block({"which": "k", "samples": 3, "calls_per_sample": 2}, session)
    assert len(blk["samples_ns"]) == 3 and blk["frames_compiled"] == 0
    eag = bench.op_time_block({"which": "eager", "samples": 2, "calls_per_sample": 1,
                               "eager_via": "stance", "key": "k"}, session)
    assert len(eag["samples_ns"]) == 2
    chk = bench.op_check({"key": "k"}, session)
    assert all(f["equal"] for f in chk["eager_vs_eager"])
    assert chk["compiled_vs_eager"][0]["kind"] == "tensor"
    counters = bench.op_counters({}, session)
    assert counters["frames_total"] >= 1 and isinstance(counters["compile_times_ns"], dict)
    mem = bench.op_memory({"which": "k", "calls": 2}, session)
    assert mem["kind"] == "rss" and mem["peak_bytes"] > 0


def test_compile_failure_names_the_stage():
    session = Session()
    op_load({"target": f"{FIXTURE}:relu_fn"}, session)
    bench.op_compile({"key": "bad", "backend": "relu_compile_error_TESTING_ONLY"}, session)
    with pytest.raises(TctError) as info:
        bench.op_first_calls({"key": "bad", "n": 2, "backend": "relu_compile_error_TESTING_ONLY"}, session)
    assert info.value.kind == "compile_failed"
    assert "relu_compile_error_TESTING_ONLY" in info.value.stage


def test_eager_raise_is_target_raised():
    s = Session()
    s.target = type("T", (), {"call": staticmethod(lambda fn=None: 1 / 0), "device": "cpu"})()
    with pytest.raises(TctError) as info:
        bench.op_eager_warmup({"n": 2}, s)
    assert info.value.kind == "target_raised" and info.value.stage == "first_call"


def test_unknown_compiled_key_is_internal(session):
    with pytest.raises(TctError) as info:
        bench.op_time_block({"which": "nope"}, session)
    assert info.value.kind == "internal"


def test_eager_memory_is_above_the_post_load_baseline_without_extra_calls(session):
    calls = []
    loaded = session.target
    original = loaded.call

    def counting(fn=None):
        calls.append(fn)
        return original(fn)
    loaded.call = counting
    warm = bench.op_eager_warmup({"n": 4, "memory": True}, session)
    assert len(calls) == 4  # the warm-up calls only
    mem = warm["memory"]
    assert mem["kind"] == "rss" and mem["peak_bytes"] >= mem["baseline_bytes"] > 0
    assert "first 4" in mem["method"]
    assert "memory" not in bench.op_eager_warmup({"n": 3}, session)


def test_memory_mark_and_peak(session):
    mark = bench.op_memory_mark({}, session)
    assert mark["kind"] == "rss" and mark["baseline_bytes"] > 0
    bench.op_eager_warmup({"n": 2}, session)
    peak = bench.op_memory_peak({"over": "two calls"}, session)
    assert peak["peak_bytes"] >= peak["baseline_bytes"] and peak["current_bytes"] > 0
    assert "two calls" in peak["method"]


def test_block_enters_grad_mode_once_and_calls_the_target_bare():
    """The timed loop calls fn(*args) itself, under no_grad entered around the block; the
    floor runs the same loop with an empty callable (the target is not called)."""
    s = Session()
    op_load({"target": f"{FIXTURE}:relu_fn"}, s)
    grad_modes = []
    original = s.target.fn

    def spy(*args, **kwargs):
        grad_modes.append(torch.is_grad_enabled())
        return original(*args, **kwargs)
    s.target.fn = spy
    blk = bench.op_time_block({"which": "eager", "samples": 2, "calls_per_sample": 3}, s)
    assert len(blk["samples_ns"]) == 2 and grad_modes == [False] * 6
    assert blk["involuntary_switches"] >= 0 and blk["wall_ns"] > 0
    floor = bench.op_time_block({"which": "floor", "samples": 2, "calls_per_sample": 3}, s)
    assert len(floor["samples_ns"]) == 2 and len(grad_modes) == 6
    assert torch.is_grad_enabled()  # restored after the block


class _FakeCuda:
    """Records what the timing code asks of torch.cuda, to check device indices without a GPU."""

    def __init__(self):
        self.log = []
        fake = self

        class Event:
            def __init__(self, enable_timing=False):
                assert enable_timing
                self.t = None

            def record(self, stream=None):
                fake.log.append(("record", stream))
                self.t = len(fake.log)

            def synchronize(self):
                fake.log.append(("event_sync",))

            def elapsed_time(self, end):
                return float(end.t - self.t)
        self.Event = Event

    def synchronize(self, device=None):
        self.log.append(("synchronize", device))

    def current_device(self):
        return 0

    def current_stream(self, device=None):
        return f"stream{device}"

    def device(self, index):
        import contextlib
        self.log.append(("device", index))
        return contextlib.nullcontext()

    def reset_peak_memory_stats(self, device=None):
        self.log.append(("reset_peak", device))

    def memory_allocated(self, device=None):
        self.log.append(("allocated", device))
        return 100

    def max_memory_allocated(self, device=None):
        self.log.append(("max_allocated", device))
        return 150


def test_cuda_paths_use_the_device_index_and_no_sync_inside_the_block(monkeypatch):
    fake = _FakeCuda()
    monkeypatch.setattr(torch, "cuda", fake)
    timing.synchronizer("cuda:1")()
    assert fake.log == [("synchronize", 1)]
    fake.log.clear()
    calls = []
    out = timing.time_block(lambda: calls.append(len(fake.log)), (), {}, samples=3, calls_per_sample=2,
                            device="cuda:1")
    assert len(out) == 3 and len(calls) == 6
    kinds = [e[0] for e in fake.log]
    # One synchronize before the block, one event before the first sample and one after
    # each sample, all on device 1's stream, one wait on the last event: nothing else.
    assert kinds == ["device", "synchronize", "record", "record", "record", "record", "event_sync"]
    assert fake.log[1] == ("synchronize", 1)
    assert all(e[1] == "stream1" for e in fake.log if e[0] == "record")
    fake.log.clear()
    peak = bench._PeakMemory("cuda:1")
    peak.start()
    result = peak.stop("a test")
    assert {e[1] for e in fake.log if len(e) > 1} == {1}
    assert result["increase_bytes"] == 50 and result["kind"] == "cuda"


def test_counters_report_cache_lookups_and_cudagraph_skips():
    c = bench._dynamo_counters()
    for k in ("fxgraph_cache_hit", "fxgraph_cache_miss", "autograd_cache_hit", "cudagraph_skips"):
        assert isinstance(c[k], int)


def test_exit_op_ends_the_agent_at_once():
    """bench.exit: no reply, exit code 0, atexit handlers run, no interpreter teardown."""
    import json
    import subprocess
    import sys
    code = ("import atexit, sys; sys.path.insert(0, sys.argv.pop(1)); "
            "atexit.register(lambda: sys.stderr.write('ATEXIT-RAN')); "
            "from tct_agent.__main__ import main; main()")
    p = subprocess.run([sys.executable, "-c", code, str(Path(bench.__file__).resolve().parents[2])],
                       input=json.dumps({"id": 1, "op": "bench.exit", "params": {}}) + "\n"
                       + json.dumps({"id": 2, "op": "shutdown"}) + "\n",
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    assert [m["type"] for m in lines] == ["hello"]  # no reply to bench.exit
    assert "ATEXIT-RAN" in p.stderr


# In a fresh interpreter: how many bytes glibc maps afresh for one 4 MiB tensor, before and
# after settle_allocator (mallinfo2's hblkhd: bytes in mmapped blocks).
_MAPPED_BY_4MIB = """
import ctypes, sys
sys.path.insert(0, sys.argv[1])
import torch
from tct_agent import timing
class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]
libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = Info
def mapped():
    before = libc.mallinfo2().hblkhd
    t = torch.empty(4 << 20, dtype=torch.uint8)
    grew = libc.mallinfo2().hblkhd - before
    del t
    return grew
none = mapped()
timing.settle_allocator()
print(none, mapped())
"""


def test_settle_allocator_puts_big_blocks_on_the_heap():
    """A fresh process maps each 4 MiB block anew (page faults on every eager call); once
    settled, glibc serves it from the heap. Measured by glibc itself, not by timing."""
    import platform
    import subprocess
    import sys
    if platform.system() != "Linux" or "glibc" not in " ".join(platform.libc_ver()):
        pytest.skip("glibc's mmap threshold only")
    p = subprocess.run([sys.executable, "-c", _MAPPED_BY_4MIB, str(Path(bench.__file__).resolve().parents[2])],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    none, settled = (int(v) for v in p.stdout.split())
    assert none >= 4 << 20 and settled == 0, (none, settled)


# A fresh interpreter loads a target with TCT_SETTLE_ALLOCATOR as tct sets it, then reports
# the allocator facts bench.env and bench.allocator return.
_FACTS_AFTER_LOAD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from tct_agent.ops.bench import op_allocator
from tct_agent.ops.target import op_load
from tct_agent.session import Session
s = Session()
op_load({"target": "builtin:mlp", "params": {"batch": 2, "width": 16, "depth": 1}}, s)
print(json.dumps(op_allocator({}, s)))
"""


@pytest.mark.parametrize("settle, preload, kind", [("1", None, None), ("0", None, None),
                                                   ("0", "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4",
                                                    "tcmalloc")])
def test_allocator_facts_follow_the_environment(settle, preload, kind):
    """--allocator reaches the agent as TCT_SETTLE_ALLOCATOR and LD_PRELOAD; the agent reports
    the allocator library mapped into it (/proc/self/maps) and whether it settled."""
    import json
    import os
    import subprocess
    import sys
    if preload and not os.path.exists(preload):
        pytest.skip("scripts/setup.sh installs libtcmalloc-minimal4")
    env = dict(os.environ, TCT_SETTLE_ALLOCATOR=settle)
    env.pop("LD_PRELOAD", None)
    if preload:
        env["LD_PRELOAD"] = preload
    p = subprocess.run([sys.executable, "-c", _FACTS_AFTER_LOAD, str(Path(bench.__file__).resolve().parents[2])],
                       capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    facts = json.loads(p.stdout.splitlines()[-1])
    assert facts["settled"] is (settle == "1")
    assert facts["maps_readable"] is True
    assert facts["ld_preload"] == preload
    assert [m["kind"] for m in facts["mapped"]] == ([kind] if kind else [])
