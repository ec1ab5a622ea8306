"""tct diff end to end: two real audits of a file edited between them (lines shifted, one
break fixed, one added), plus bad inputs."""
import json

import pytest

from tct_run import FIXTURES, run_tct

BEFORE = '''import torch


def f(x):
    y = x * 2
    print("debug")
    z = y.sum().item()
    return y + z


def make():
    return f, (torch.randn(4),)
'''

# Three comment lines push everything down; the print is gone, a numpy call is new.
AFTER = '''import numpy as np
import torch
# a comment
# another
# and one more


def f(x):
    y = x * 2
    z = y.sum().item()
    w = np.interp(y.numpy(), [0.0, 1.0], [1.0, 0.0])
    return y + z + torch.as_tensor(w)


def make():
    return f, (torch.randn(4),)
'''


@pytest.fixture(scope="module")
def audits(tmp_path_factory):
    root = tmp_path_factory.mktemp("diff")
    paths = {}
    for name, src in (("before", BEFORE), ("after", AFTER), ("clean", "import torch\n\ndef f(x):\n    return x + 1\n\n"
                                                                     "def make():\n    return f, (torch.randn(2),)\n")):
        (root / name).mkdir()
        (root / name / "model.py").write_text(src)
        out = root / f"{name}.json"
        r = run_tct("explain", root / name / "model.py:make", "-q", "--no-logged", "-o", out)
        assert r.rc == 0, r
        paths[name] = out
    return paths


def test_fixed_added_unchanged(audits):
    r = run_tct("diff", audits["before"], audits["after"], "--json")
    assert r.rc == 0, r
    d = r.json()["diff"]
    assert [b["kind"] for b in d["fixed"]] == ["print_logging"]
    assert [b["kind"] for b in d["added"]] == ["numpy"]
    assert len(d["unchanged"]) == 1
    u = d["unchanged"][0]
    assert u["kind"] == "item_scalar" and u["line_shift"] == 3
    assert d["break_count"] == {"before": 2, "after": 2, "delta": 0}
    for key in ("before", "after", "graph_count", "op_count"):
        assert key in d


def test_text_and_markdown(audits):
    r = run_tct("diff", audits["before"], audits["after"])
    assert r.rc == 0, r
    assert "1 fixed, 1 added, 1 unchanged" in r.out
    assert "(was line 7)" in r.out
    r = run_tct("diff", audits["before"], audits["after"], "--markdown")
    assert "| fixed |" in r.out and "| **added** |" in r.out


def test_exit_1_when_breaks_increase(audits):
    r = run_tct("diff", audits["clean"], audits["before"])
    assert r.rc == 1, r
    assert r.err.startswith("tct: error: graph breaks went up from 0 to "), r
    assert "More graph breaks after than before" in r.out
    r = run_tct("diff", audits["before"], audits["clean"])
    assert r.rc == 0, r
    assert "2 fixed" in r.out


def test_bad_files(audits, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"schema": "tct/1", "command": "probe", "probe": {}}))
    for args, text in (((tmp_path / "missing.json", audits["after"]), "cannot read"),
                       ((bad, audits["after"]), "is not valid JSON"),
                       ((audits["before"], other), "not a tct explain audit")):
        r = run_tct("diff", *args)
        assert r.rc == 2, r
        first = r.err.strip().splitlines()[0]
        assert first.startswith("tct: error:") and text in first, r
    r = run_tct("diff", audits["before"])
    assert r.rc == 2


def test_a_newly_skipped_frame_is_named_as_the_failure():
    # Saved documents of this version (no torch needed): the breaks went down from 3 to 0
    # only because dynamo now skips the frames they were in.
    saved = FIXTURES / "explain"
    r = run_tct("diff", saved / "builtin.json", saved / "moe.json")
    assert r.rc == 1, r
    assert r.err.startswith("tct: error: torch.compile skips 2 frame(s) now, 0 before"), r
    assert "A frame dynamo compiled before is skipped now." in r.out
    assert "skipped now MoE.forward at breaks_moe.py:12" in r.out
    r = run_tct("diff", saved / "moe.json", saved / "builtin.json")
    assert r.rc == 0 and "A skipped frame is fixed" in r.out, r
