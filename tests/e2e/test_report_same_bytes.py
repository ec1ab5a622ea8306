"""A saved document reads the same as the run that wrote it. A live run renders its results as
they are; `tct report` renders them read back from the document the run wrote. For each command
that writes a document, one live run per terminal report (the brief one, with its Markdown
written beside it by -o, and -v) also writes its document with -o; `tct report` of that
document with the same flag must print the very same bytes. A result's field the JSON lacks or
reads back differently, or a renderer that reads the clock or the terminal, fails here. The invocations are the cheapest that reach each
command's renderers: tiny targets, short budgets, aot_eager or eager where codegen is not
what is tested, saved fixtures where a command reads documents."""
import pytest

from tct_run import FIXTURES, PYTHON, ROOT, run_tct

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
"""
FAST_AUDIT = ["--backend", "aot_eager", "--budget", "0.3", "--warmup", "4", "--no-compile-time",
              "--no-allocator-compare"]
FAST_EXPECT = ["--calls", "3", "--profile-seconds", "1"]

# name -> (arguments after `tct`, the exit codes a run may have, extra environment).
# {tmp} is the test's folder, made before the run (a suite file, run's --dir).
CASES = {
    "probe": (["probe"], (0,), None),
    "bench": (["bench", "builtin:mlp", "--backend", "aot_eager", "--budget", "1"], (0,), None),
    "explain": (["explain", "builtin:graph_breaks", "--no-logged"], (0,), None),
    "expect": (["expect", "builtin:tiny_ops", *FAST_EXPECT], (0,), {"OMP_NUM_THREADS": "1"}),
    "audit": (["audit", "builtin:tiny_ops", *FAST_AUDIT], (0, 1), None),
    "suite": (["suite", "{tmp}/s.toml"], (0,), None),
    "compare": (["compare", FIXTURES / "html_bench.json", FIXTURES / "html_bench.json"], (0,), None),
    "trace": (["trace", FIXTURES / "traces" / "multirank"], (0,), None),
    "run": (["run", "--dir", "{tmp}/run", "--", PYTHON, ROOT / "tests" / "e2e" / "jobs" / "varying_lengths.py"],
            (0,), None),
    "startup": (["startup", "builtin:tiny_ops", "--param", "n_ops=4", "--modes", "eager", "--repeats", "2"],
                (0,), None),
    "diff": (["diff", FIXTURES / "explain" / "moe.json", FIXTURES / "explain" / "builtin.json"], (0,), None),
}
RENDERINGS = {"text": [], "verbose": ["-v"]}


@pytest.fixture(scope="module")
def xdg(tmp_path_factory):
    """One ceilings cache for expect and audit: measured once, read by the other runs."""
    return tmp_path_factory.mktemp("xdg")


@pytest.mark.parametrize("rendering", RENDERINGS)
@pytest.mark.parametrize("command", CASES)
def test_a_saved_document_renders_the_bytes_its_run_printed(command, rendering, tmp_path, xdg):
    args, codes, env = CASES[command]
    (tmp_path / "s.toml").write_text(SUITE)
    args = [str(a).replace("{tmp}", str(tmp_path)) for a in args]
    flags = RENDERINGS[rendering]
    saved, markdown = tmp_path / "saved.json", tmp_path / "live.md"
    files = ["-o", saved] + (["-o", markdown] if rendering == "text" else [])
    # Options go before `--` (run's job follows it).
    at = args.index("--") if "--" in args else len(args)
    live = run_tct(*args[:at], *flags, "--quiet", *files, *args[at:],
                   env={"XDG_CACHE_HOME": str(xdg), **(env or {})})
    assert live.rc in codes, live
    if rendering == "text":
        assert markdown.read_text() == run_tct("report", saved, "--markdown").out
    # tct run prints its terminal report on stderr (stdout is the job's): what the job printed
    # comes first, and nothing of tct's.
    printed = live.err if command == "run" else live.out
    again = run_tct("report", saved, *flags)
    assert again.rc == 0, again
    assert again.out
    if command == "run":
        assert printed.endswith(again.out), (printed, again.out)
        assert "tct" not in printed[:len(printed) - len(again.out)], printed
    else:
        assert printed == again.out
