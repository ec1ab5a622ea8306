"""Structured errors the agent sends back instead of crashing.

The C++ side maps `kind` to an exit code in one place (src/agent/agent_error.cpp):
  bad_target, bad_param, unsupported  -> 2 (bad usage or input)
  target_raised, compile_failed, nondeterministic -> 3 (the target failed)
  internal (anything unexpected)      -> 4
"""
from __future__ import annotations

import traceback as _tb


class TctError(Exception):
    """An error with a kind, a one-line message and a hint that says what to do."""

    def __init__(self, kind: str, message: str, hint: str = "", *, stage: str | None = None,
                 cause: BaseException | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.hint = hint
        self.stage = stage
        self.cause = cause

    def to_json(self) -> dict:
        exc = self.cause if self.cause is not None else self
        tb = "".join(_tb.format_exception(type(exc), exc, exc.__traceback__))
        out = {"kind": self.kind, "message": self.message, "hint": self.hint, "traceback": tb}
        if self.stage:
            out["stage"] = self.stage
        return out


def internal_error(exc: BaseException) -> dict:
    """Any exception the agent did not expect: reported, never crashing the loop."""
    tb = "".join(_tb.format_exception(type(exc), exc, exc.__traceback__))
    return {"kind": "internal", "message": f"{type(exc).__name__}: {exc}",
            "hint": "this is a bug in tct's agent; rerun with --verbose and report the traceback",
            "traceback": tb}
