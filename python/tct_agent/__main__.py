"""Entry point: `python -m tct_agent`. Handshake, then serve requests until shutdown/EOF."""
from __future__ import annotations

import importlib
import os
import platform
import sys

from .errors import TctError, internal_error
from .protocol import AGENT_VERSION, PROTOCOL_VERSION, Channel
from .session import Session

def _torch_metadata():
    """torch's version from package metadata: no import, so the handshake stays fast."""
    try:
        from importlib import metadata
        return {"version": metadata.version("torch")}, None
    except Exception as exc:  # PackageNotFoundError, or a broken install
        return None, f"{type(exc).__name__}: {exc}"


def hello() -> dict:
    torch, torch_error = _torch_metadata()
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "agent_version": AGENT_VERSION,
        "python": {
            "version": platform.python_version(),
            "executable": sys.executable,
            "implementation": platform.python_implementation(),
        },
        "torch": torch,
        "torch_error": torch_error,
    }


def _handler(op: str):
    """`group.name` -> tct_agent.ops.group.op_name; `probe` -> tct_agent.ops.probe.op_probe."""
    group, _, name = op.partition(".")
    if not group.isidentifier() or (name and not name.isidentifier()):
        raise TctError("internal", f"malformed op '{op}'")
    try:
        module = importlib.import_module(f"tct_agent.ops.{group}")
    except ModuleNotFoundError as exc:
        if exc.name == f"tct_agent.ops.{group}":
            raise TctError("internal", f"unknown op '{op}'",
                           "tct and its agent disagree: reinstall tct") from None
        raise
    fn = getattr(module, f"op_{name or group}", None)
    if fn is None:
        raise TctError("internal", f"unknown op '{op}'", "tct and its agent disagree: reinstall tct")
    return fn


def _apply_placement() -> None:
    """--cpus, before torch is imported: OpenMP sizes its pool from the affinity mask it starts
    with. tct checked the list; --threads reaches torch through OMP_NUM_THREADS already."""
    cpus = os.environ.get("TCT_CPUS")
    if cpus and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {int(c) for c in cpus.split(",")})


def main() -> None:
    _apply_placement()
    chan = Channel()
    chan.send(hello())
    session = Session()
    for request in chan.requests():
        rid = request.get("id")
        op = request.get("op", "")
        if op == "shutdown":
            break
        chan.request_id = rid
        try:
            result = _handler(op)(request.get("params") or {}, session)
            chan.send({"type": "result", "id": rid, "result": result})
        except TctError as exc:
            chan.send({"type": "error", "id": rid, "error": exc.to_json()})
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit from user code included: report, keep serving
            chan.send({"type": "error", "id": rid, "error": internal_error(exc)})


if __name__ == "__main__":
    main()
