"""The agent's side of the JSON-lines protocol (docs/ARCHITECTURE.md).

The protocol stream is a private duplicate of the process's original stdout. fd 1 and
sys.stdout are pointed at stderr before any user code is imported, so a print() in the
user's model, or a C extension writing to fd 1, can never corrupt the stream.
"""
from __future__ import annotations

import json
import math
import os
import sys

PROTOCOL_VERSION = 1
AGENT_VERSION = "0.1.0"


_current = None


def progress(message: str) -> None:
    """Send a progress event for the request being served (a no-op outside the agent)."""
    if _current is not None:
        _current.progress(message)


class Channel:
    def __init__(self) -> None:
        global _current
        _current = self
        sys.stdout.flush()
        private_fd = os.dup(1)
        os.dup2(2, 1)  # anything written to fd 1 from now on lands on stderr
        sys.stdout = sys.stderr
        self._out = os.fdopen(private_fd, "w", encoding="utf-8", buffering=1)
        self._in = sys.stdin
        self.request_id = None  # the request being served, for progress events

    def send(self, message: dict) -> None:
        self._out.write(json.dumps(message, default=_jsonable, allow_nan=False) + "\n")
        self._out.flush()

    def progress(self, message: str) -> None:
        self.send({"type": "progress", "id": self.request_id, "message": message})

    def requests(self):
        for line in self._in:
            line = line.strip()
            if line:
                yield json.loads(line)


def _jsonable(value):
    """Fallback for json.dumps: numbers torch hands back that json does not know."""
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (set, tuple)):
        return list(value)
    return repr(value)


def finite(x):
    """JSON has no NaN/Inf: map them to None so the C++ side sees 'unknown', not a lie."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None
