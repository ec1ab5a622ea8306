"""Helpers of the end-to-end tests: run the real tct binary against the real torch in the venv."""
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TCT = Path(os.environ.get("TCT_BIN", ROOT / "build" / "tct"))
PYTHON = os.environ.get("TCT_TEST_PYTHON", str(ROOT / ".venv" / "bin" / "python"))
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# One inductor cache for the whole test session: compiles on 2 cores are slow.
CACHE = os.path.join(tempfile.gettempdir(), "tct-test-inductor-cache")


# A progress line, as tct writes one per phase when stderr is not a terminal.
PROGRESS = re.compile(r"^tct: \[\s*[\d.]+s\] ")


class Result:
    """err: stderr less tct's progress lines (kept in .progress), so a test reads the report
    and the error line as a user scrolling past the phases would."""

    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        lines = (proc.stderr or "").splitlines(keepends=True)
        self.progress = [l for l in lines if PROGRESS.match(l)]
        self.err = "".join(l for l in lines if not PROGRESS.match(l))

    def json(self):
        return json.loads(self.out)

    def __repr__(self):
        return f"rc={self.rc}\n--- stdout\n{self.out}\n--- stderr\n{self.err}"


def run_tct(*args, env=None, timeout=600, python=PYTHON, input=None):
    """Run the binary; --python is added unless the test passes its own interpreter choice."""
    full_env = dict(os.environ)
    full_env.setdefault("TORCHINDUCTOR_CACHE_DIR", CACHE)
    full_env.pop("TCT_PYTHON", None)
    if env:
        full_env.update(env)
    argv = [str(TCT), *map(str, args)]
    if python and "--python" not in args and len(args) > 0 and args[0] not in ("diff", "report", "run", "job"):
        argv += ["--python", python]
    proc = subprocess.run(argv, capture_output=True, text=True, env=full_env, timeout=timeout, input=input)
    return Result(proc)


