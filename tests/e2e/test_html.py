"""The HTML report in a real headless browser (Debian's chromium): it renders, logs nothing
on the console (no error, no blocked script), every string from the user's code or from
torch is escaped (a <script> in a graph-break reason and in a file name), and a
screenshot is written (to $TCT_TEST_ARTIFACTS, else the test's tmp folder).
"""
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest

from tct_run import run_tct

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FAST_AUDIT = ["--backend", "aot_eager", "--budget", "0.3", "--warmup", "6", "--no-compile-time", "--quiet",
              "--no-allocator-compare"]
PAYLOAD = "<script>console.error('tct-xss')</script>"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed (scripts/setup.sh installs it)")


def chromium(url, *args):
    """Run headless chromium on url; returns (stdout, console lines)."""
    profile = tempfile.mkdtemp(prefix="tct-chromium-")
    try:
        proc = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
             "--enable-logging=stderr", "--v=0", *args, url],
            capture_output=True, text=True, timeout=180)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    console = [line for line in proc.stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line]
    return proc, console


def artifacts(tmp_path):
    d = Path(os.environ.get("TCT_TEST_ARTIFACTS", tmp_path))
    d.mkdir(parents=True, exist_ok=True)
    return d


def png_size(path):
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.fixture
def evil_target(tmp_path):
    """A target whose file name and graph-break reason both hold a <script> element."""
    folder = tmp_path / "<script>console.error('tct-xss')<"
    folder.mkdir()
    path = tmp_path / f"{PAYLOAD}.py"  # the '/' of '</script>' makes the folder above
    assert path.parent == folder
    path.write_text(
        "import torch\n\n\n"
        "def evil(x):\n"
        "    x = torch.sin(x) + 1\n"
        f"    torch._dynamo.graph_break(msg=\"{PAYLOAD}\")\n"
        f"    return torch.cos(x)  # {PAYLOAD}\n\n\n"
        "def make():\n"
        "    return evil, (torch.randn(8),)\n")
    return path


def test_script_in_reason_and_file_name_is_escaped(evil_target, tmp_path):
    html_path, json_path = tmp_path / "explain.html", tmp_path / "explain.json"
    r = run_tct("explain", f"{evil_target}:make", "--quiet", "-o", html_path, "-o", json_path)
    assert r.rc == 0, r
    doc = json.loads(json_path.read_text())
    group = doc["explain"]["groups"][0]
    assert PAYLOAD in group["file"]
    reasons = " ".join(b["reason"] for b in doc["explain"]["breaks"]) + json.dumps(group)
    assert "tct-xss" in reasons and "<script>" in reasons, "the break's reason should carry the payload"

    html = html_path.read_text()
    assert "<script" not in html.lower()
    assert "&lt;script&gt;console.error(&#39;tct-xss&#39;)&lt;/script&gt;.py" in html  # the file name
    proc, console = chromium(html_path.as_uri(), "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert "<script" not in dom.lower(), "a <script> element reached the DOM"
    assert "Graph breaks" in dom and "&lt;script&gt;" in dom
    assert not console, "console output:\n" + "\n".join(console)


def test_audit_report_renders_with_charts_and_a_screenshot(tmp_path):
    html_path, md_path = tmp_path / "audit.html", tmp_path / "audit.md"
    r = run_tct("audit", "builtin:tiny_ops", *FAST_AUDIT, "--raw", "-o", html_path, "-o", md_path)
    assert r.rc in (0, 1), r
    html = html_path.read_text()
    # Self-contained: no script, nothing loaded from elsewhere.
    assert "<script" not in html and "<link" not in html and not re.search(r"""src=["']?https?:""", html)
    assert "## tct audit" in md_path.read_text()
    proc, console = chromium(html_path.as_uri(), "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert dom.count("<svg") >= 3, "speedup bars, warm-up curve, latency distributions"
    for text in ("Warm-up curve", "Latency distributions", "Speed: eager against torch.compile",
                 "Graph breaks: what stops torch.compile", "Should a gain be expected?", "Environment",
                 "How this audit ran", "aot_eager"):
        assert text in dom, text
    assert not console, "console output:\n" + "\n".join(console)

    shot = artifacts(tmp_path) / "audit-report.png"
    shot.unlink(missing_ok=True)
    proc, console = chromium(html_path.as_uri(), f"--screenshot={shot}", "--window-size=1280,2000", "--hide-scrollbars")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert shot.exists() and shot.stat().st_size > 20_000
    assert png_size(shot) == (1280, 2000)
    assert not console, "console output:\n" + "\n".join(console)


def test_report_rerenders_a_saved_document_identically(tmp_path):
    if not re.search(r"^\s+report\s", run_tct("--help", python=None).out, re.M):
        pytest.skip("tct report is not registered in this build")
    saved = tmp_path / "explain.json"
    first = tmp_path / "first.html"
    r = run_tct("explain", "builtin:tiny_ops", "--quiet", "--no-logged", "-o", saved, "-o", first)
    assert r.rc == 0, r
    again = tmp_path / "again.html"
    r = run_tct("report", saved, "-o", again, python=None)
    assert r.rc == 0, r
    assert again.read_text() == first.read_text()
    assert json.loads(saved.read_text())["command"] == "explain"
    # Its .json is the document as saved, byte for byte (report's own exit code not stamped in).
    copy = tmp_path / "copy.json"
    assert run_tct("report", saved, "-o", copy, python=None).rc == 0
    assert copy.read_bytes() == saved.read_bytes()
    r = run_tct("report", tmp_path / "missing.json", python=None)
    assert r.rc == 2 and "cannot read" in r.err
