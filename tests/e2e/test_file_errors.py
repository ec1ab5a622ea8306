"""The commands that read files (suite, merge, compare, report) on bad input: exit 2 and one
line `tct: error: WHAT. WHAT TO DO`, with nothing else on stdout. No torch is imported."""
import json

import pytest

from tct_run import FIXTURES, run_tct

BENCH = FIXTURES / "html_bench.json"
FILES = {
    "s.toml": '[[target]]\nspec = "builtin:mlp"\n',
    "bad.toml": "x = [\n",
    "array.json": "[1]",
    "v2.json": json.dumps({"schema": "tct/2", "command": "bench"}),
    "plain.json": json.dumps({"a": 1}),
    "broken.json": "{",
}


@pytest.fixture
def files(tmp_path, monkeypatch):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    assert run_tct("suite", "s.toml", "--list", "-o", "list.json").rc == 0
    return tmp_path


@pytest.mark.parametrize("args, what, hint", [
    (["suite", "nope.toml"], "cannot read nope.toml", "Pass the path of a suite file"),
    (["suite", "bad.toml"], "bad.toml:1:", "Fix the TOML syntax"),
    (["suite", "s.toml", "--resume"], "--resume needs the run's -o FILE.json", "Add -o FILE.json"),
    (["suite", "s.toml", "--list", "--costs", "plain.json"], "plain.json records no entry times",
     "Pass a suite document from an earlier run"),
    (["suite", "s.toml", "--list", "--shard", "0/2"], "--shard '0/2' is not I/N", "Write --shard 1/4"),
    (["merge", "broken.json"], "broken.json is not valid JSON", "Pass the files written by 'tct suite"),
    (["merge", "list.json"], "list.json is a --list output: nothing ran", "Merge the files the shards wrote"),
    (["merge", BENCH], f"{BENCH} is not a tct suite document", "Pass files written by 'tct suite"),
    (["compare", "nope.json", BENCH], "cannot read nope.json", "Write it with tct bench, audit or suite"),
    (["compare", BENCH, "list.json"], f"{BENCH} is a bench document and list.json a suite document",
     "Compare a suite with a suite"),
    (["compare", BENCH, BENCH, "--max-regression", "150%"], "--max-regression '150%' is not a percentage",
     "Write --max-regression 5%"),
    (["report", "array.json"], "array.json is not a tct document", "Save one with"),
    (["report", "plain.json"], "plain.json is not a tct document (no schema or command field)", "Save one with"),
    (["report", "v2.json"], "v2.json has schema 'tct/2'; this tct reads 'tct/1'", "Re-render it with the tct version"),
])
def test_bad_file_is_one_line_and_exit_2(files, args, what, hint):
    r = run_tct(*args, python=None)
    assert r.rc == 2, r
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tct: error: {what}"), r
    assert f". {hint}" in lines[0], r
    assert r.out == "", r  # no half-empty report before the error
