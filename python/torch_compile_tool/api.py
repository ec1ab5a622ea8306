"""Run the tct binary with --json and return its document.

Options map to flags one to one: `budget=2` is `--budget=2`, `no_check=True` is `--no-check`,
False or None leave the flag out, a list repeats it, and `param={"batch": 64}` is
`--param=batch=64` (values as JSON literals, as tct reads them). The flags a command
accepts are read from the binary's own `--help`, so an unknown option is an error before
anything runs, and the API never lags behind the binary it drives.
"""
from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, Optional, Sequence

from .errors import TctError, TctSpawnError, error_for_exit

SCHEMA = "tct/1"
DISTRIBUTION = "torch-compile-tool"
# The API reads stdout as one JSON document; these flags would change what stdout holds.
_RESERVED = {"json", "markdown", "help"}


def find_binary() -> str:
    """$TCT_BIN, else the tct installed with this package, else `tct` on PATH."""
    if os.environ.get("TCT_BIN"):
        binary = os.environ["TCT_BIN"]
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            raise TctSpawnError(f"tct binary not found or not executable: {binary} (from $TCT_BIN). "
                                "Point TCT_BIN at the tct binary, or unset it to use the installed one")
        return binary
    installed = _installed_binary()
    if installed:
        return installed
    on_path = shutil.which("tct")
    if on_path:
        return on_path
    raise TctSpawnError("tct binary not found. pip install torch-compile-tool, or set TCT_BIN to the binary")


def _installed_binary() -> Optional[str]:
    # The wheel's own record of where pip put bin/tct: right for venvs, --user and --prefix.
    try:
        files = metadata.distribution(DISTRIBUTION).files or []
    except metadata.PackageNotFoundError:
        return None
    for f in files:
        if f.name == "tct" and f.parent.name == "bin":
            path = Path(f.locate())
            if os.access(path, os.X_OK):
                return str(path)
    return None


@functools.lru_cache(maxsize=None)
def _flags_of(binary: str, command: str, _mtime: float) -> frozenset:
    """Long flag names `tct COMMAND --help` lists (its "  -o,--out TEXT" lines)."""
    try:
        out = subprocess.run([binary, command, "--help"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise TctSpawnError(f"cannot run {binary}: {e}. pip install torch-compile-tool, or set TCT_BIN") from e
    if out.returncode != 0:
        raise TctSpawnError(f"{binary} {command} --help failed (exit {out.returncode}): {out.stderr.strip()}. "
                            "Check that it is tct and of this package's version: pip install -U torch-compile-tool")
    return frozenset(re.findall(r"^  (?:-\w,)?--([a-z0-9][a-z0-9-]*)", out.stdout, re.MULTILINE))


def allowed_options(command: str, binary: Optional[str] = None) -> set:
    """The keyword options `command` accepts: tct's flags, with '-' spelled '_'."""
    binary = binary or find_binary()
    flags = _flags_of(binary, command, os.path.getmtime(binary))
    return {f.replace("-", "_") for f in flags} - _RESERVED


def to_argv(command: str, options: dict, binary: Optional[str] = None) -> list:
    """Keyword options -> tct flags; raises TypeError for an option tct does not have."""
    allowed = allowed_options(command, binary)
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise TypeError(f"{command}() got unknown option(s) {', '.join(unknown)}; "
                        f"tct {command} accepts: {', '.join(sorted(allowed))}")
    argv = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if key == "param" and isinstance(value, dict):
            argv += [f"{flag}={name}={json.dumps(v)}" for name, v in value.items()]
            continue
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if v is None or v is False:
                continue
            # --flag=value: a value that starts with '-' is never taken for a flag.
            argv.append(flag if v is True else f"{flag}={v}")
    return argv


def run(command: str, *positional: str, **options: Any) -> dict:
    """`tct COMMAND POSITIONAL... FLAGS --json`: the document, or a TctError subclass.

    Without `python=` or $TCT_PYTHON, the target runs in this interpreter (sys.executable):
    the torch you import here is the torch tct measures.
    """
    binary = find_binary()
    if options.get("python") is None and not os.environ.get("TCT_PYTHON") and "python" in allowed_options(command, binary):
        options["python"] = sys.executable
    # A job's own words (tct job: everything after "--") come after tct's flags.
    words = list(map(str, positional))
    own, job = (words[:words.index("--")], words[words.index("--"):]) if "--" in words else (words, [])
    argv = [binary, command, *own, *to_argv(command, options, binary), "--json", *job]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True)
    except OSError as e:
        raise TctSpawnError(f"cannot run {binary}: {e}. pip install torch-compile-tool, or set TCT_BIN",
                            argv=argv) from e
    document = _parse(proc.stdout)
    if proc.returncode != 0:
        raise error_for_exit(proc.returncode, _message(proc, document, command),
                             document=document, stderr=proc.stderr, argv=argv)
    if document is None:
        raise TctSpawnError(f"tct {command} exited 0 without a JSON document on stdout. This is a bug in tct: "
                            "please report it with the command (e.argv)",
                            exit_code=0, stderr=proc.stderr, argv=argv)
    if document.get("schema") != SCHEMA:
        raise TctError(f"{binary} writes schema {document.get('schema')!r}; this torch_compile_tool reads "
                            f"{SCHEMA!r}. Install matching versions: pip install -U torch-compile-tool",
                            exit_code=0, document=document, stderr=proc.stderr, argv=argv)
    return document


def _parse(stdout: str) -> Optional[dict]:
    try:
        doc = json.loads(stdout)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def _message(proc: subprocess.CompletedProcess, document: Optional[dict], command: str) -> str:
    """tct's own one-line message: its `tct: error:` line, else the document's error."""
    for line in proc.stderr.splitlines():
        if line.startswith("tct: error: "):
            return line[len("tct: error: "):]
    error = (document or {}).get("error") or {}
    if error.get("message"):
        return error["message"]
    if proc.returncode < 0:
        return f"tct {command} was killed by signal {-proc.returncode}"
    if proc.returncode == 1:
        return f"the check tct {command} was asked for failed (see the document)"
    return f"tct {command} exited with code {proc.returncode}"


def probe(**options: Any) -> dict:
    """`tct probe`: can torch.compile run here? (verdict in doc["probe"]["verdict"])."""
    return run("probe", **options)


def bench(target: str, **options: Any) -> dict:
    """`tct bench TARGET`: eager against compiled, the speedup with a 95% interval."""
    return run("bench", _target(target), **options)


def explain(target: str, **options: Any) -> dict:
    """`tct explain TARGET`: graph breaks, where, and what to change."""
    return run("explain", _target(target), **options)


def expect(target: str, **options: Any) -> dict:
    """`tct expect TARGET`: overhead, memory or compute bound, and the gain to expect."""
    return run("expect", _target(target), **options)


def audit(target: str, **options: Any) -> dict:
    """`tct audit TARGET`: probe, explain, expect and bench in one document."""
    return run("audit", _target(target), **options)


def startup(target: str, **options: Any) -> dict:
    """`tct startup TARGET`: time to the first output of a fresh process, per start mode."""
    return run("startup", _target(target), **options)


def job(command: Sequence[str], **options: Any) -> dict:
    """`tct job -- COMMAND...`: the job run unchanged each way (eager, compiled with empty, warm or
    shipped caches, thread counts), and which way is best for it (doc["job"]["decision"])."""
    if isinstance(command, str) or not command:
        raise TypeError(f"command must be a non-empty list of words such as ['python', 'serve.py'], not {command!r}")
    return run("job", "--", *map(str, command), **options)


def _target(target: Any) -> str:
    if not isinstance(target, str) or not target:
        raise TypeError(f"target must be a non-empty string such as 'builtin:mlp' or 'model.py:make', "
                        f"not {target!r}")
    return target
