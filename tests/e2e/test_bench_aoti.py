"""`tct bench --backend aoti`: torch.export + AOTInductor's package as a row beside eager and
torch.compile, timed from C++ by tct-aoti. The oracle is a plain script in a fresh process
that knows nothing of tct: it rebuilds the seeded model, loads the very .pt2 tct timed with
torch._inductor.aoti_load_package, compares its outputs with eager's and times its calls.
Speeds are compared as a ratio sanity check, never asserted as a speed."""
import json
import os
import subprocess
import textwrap

import pytest

from tct_run import FIXTURES, PYTHON, run_tct
from test_schema import validate

# Two 256-wide linears on a batch of 64: enough work per call that the Python call around the
# package (the oracle's) is small beside it, and a quick package compile.
PARAMS = ["--param", "batch=64", "--param", "width=256"]
FAST = ["--budget", "2", "--no-compile-time", "--no-memory", "--no-allocator-compare", "--json"]


@pytest.fixture(scope="module")
def aoti(tmp_path_factory):
    """One aoti row (and its package, kept for the oracle): the other tests share it."""
    keep = tmp_path_factory.mktemp("aoti")
    r = run_tct("bench", f"{FIXTURES / 'bench_targets.py'}:small", *PARAMS, "--backend", "aoti",
                "--aoti-package-dir", keep, *FAST)
    assert r.rc == 0, r
    return r.json(), keep


def _row(doc, backend):
    return next(r for r in doc["bench"]["rows"] if r["backend"] == backend)


ORACLE = textwrap.dedent("""
    import json, statistics, sys, time
    import torch
    # Threads set explicitly, as tct's agent and runner do: libtorch's default pool of the same
    # size ran this model 100x slower on a loaded 2-core machine (tools/aoti_runner/main.cpp).
    torch.set_num_threads(torch.get_num_threads())
    sys.path.insert(0, sys.argv[1])
    from bench_targets import small
    model, args = small(batch=64, width=256)
    runner = torch._inductor.aoti_load_package(sys.argv[2])
    with torch.no_grad():
        expected, actual = model(*args), runner(*args)
        for _ in range(20):
            runner(*args)
        times = []
        for _ in range(200):
            t0 = time.perf_counter_ns()
            runner(*args)
            times.append(time.perf_counter_ns() - t0)
    print(json.dumps({"match": torch.allclose(actual, expected, rtol=1e-4, atol=1e-5),
                      "max_abs_diff": float((actual - expected).abs().max()),
                      "per_call_ns": statistics.median(times)}))
""")


def test_the_aoti_row_is_timed_from_cpp_and_agrees_with_a_plain_script(aoti):
    doc, keep = aoti
    validate(doc)
    row = _row(doc, "aoti")
    assert row["status"] == "ok", row
    a = row["aoti"]
    assert a["timed_from"] == "cpp", a  # scripts/setup.sh's .venv has libtorch's headers and CMake config
    assert a["package_compile_ns"] > 0 and a["package_bytes"] > 0 and a["load_ns"] > 0, a
    assert a["package_path"] == str(keep / "model.pt2")
    assert row["correctness"]["checked"] and row["correctness"]["match"] is True, row["correctness"]
    sp = row["speedup"]
    assert sp["verdict"] in ("faster", "slower", "no_clear_difference", "inconclusive"), sp
    assert 0 < sp["low"] <= sp["estimate"] <= sp["high"], sp

    oracle = subprocess.run([PYTHON, "-c", ORACLE, str(FIXTURES), a["package_path"]], capture_output=True,
                            text=True, timeout=120)
    assert oracle.returncode == 0, oracle.stderr
    facts = json.loads(oracle.stdout.strip().splitlines()[-1])
    # The package's outputs equal eager's in the oracle's own process, as tct's check said.
    assert facts["match"], facts
    # The same package, timed from C++ by tct and from Python by the oracle: the same order of
    # magnitude (the Python call adds its own overhead; the machine is shared). Not a speed test.
    ratio = facts["per_call_ns"] / row["latency"]["compiled"]["median"]
    assert 1 / 4 < ratio < 4, (facts, row["latency"]["compiled"])


def test_the_package_line_is_in_every_rendering(aoti, tmp_path):
    doc, _ = aoti
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc))
    text = run_tct("report", path).out
    assert "package compile" in text and "timed from C++ (tct-aoti)" in text, text
    md = run_tct("report", path, "--markdown").out
    assert "timed from C++" in md, md


def test_a_model_torch_export_rejects_fails_its_row_and_the_others_still_run():
    """`if y.sum() > 0`: torch.export's own reason and a fix in the aoti row; the inductor row
    (compiled around the break) is measured; bench exits 3 for the failed row."""
    r = run_tct("bench", f"{FIXTURES / 'breaks_control_flow.py'}:make", "--backend", "inductor,aoti", *FAST)
    assert r.rc == 3, r
    doc = r.json()
    validate(doc)
    failed = _row(doc, "aoti")
    assert failed["status"] == "failed", failed
    err = failed["error"]
    assert err["stage"] == "torch.export" and err["message"].startswith("torch.export cannot take this model: "), err
    assert "data-dependent" in err["message"].lower() or "guard" in err["message"].lower(), err
    assert err["hint"], err
    assert _row(doc, "inductor")["status"] == "ok" and _row(doc, "inductor")["speedup"]["estimate"] > 0
    assert "aoti failed at torch.export" in r.err, r.err


def test_where_the_cpp_runner_cannot_be_built_the_row_is_timed_from_python_and_says_why(tmp_path):
    """tct-aoti does not build here (a `cmake` that fails, an empty runner cache; inductor needs
    no cmake, so the package is still made): the row still runs, timed from Python with
    aoti_load_package, its outputs checked against eager, and the report says why it was not
    timed from C++."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "cmake").write_text("#!/bin/sh\necho 'CMake Error: refused by the test' >&2\nexit 1\n")
    (fake / "cmake").chmod(0o755)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": f"{fake}:{os.environ['PATH']}"}
    r = run_tct("bench", f"{FIXTURES / 'bench_targets.py'}:small", "--param", "batch=8", "--param", "width=32",
                "--backend", "aoti", *FAST, env=env)
    assert r.rc == 0, r
    doc = r.json()
    validate(doc)
    row = _row(doc, "aoti")
    assert row["status"] == "ok", row
    assert row["aoti"]["timed_from"] == "python", row["aoti"]
    assert row["aoti"]["runner_note"].startswith("the C++ runner did not build against this libtorch: "), row["aoti"]
    assert "refused by the test" in row["aoti"]["runner_note"], row["aoti"]
    assert row["correctness"]["match"] is True, row["correctness"]
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc))
    text = run_tct("report", path).out
    assert "timed from Python (aoti_load_package): no C++ runner, the C++ runner did not build" in text, text
