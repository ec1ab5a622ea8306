"""The exceptions the API raises: one per tct exit code (README "Exit codes")."""
from __future__ import annotations

from typing import Any, Optional


class TctError(Exception):
    """tct failed. Carries the exit code, tct's one-line message and the partial document."""

    def __init__(self, message: str, *, exit_code: Optional[int] = None,
                 document: Optional[dict] = None, stderr: str = "", argv: Optional[list] = None):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code  # None when tct never ran or printed no document
        self.document = document    # what tct measured before failing, when it printed it
        self.stderr = stderr
        self.argv = argv or []

    @property
    def kind(self) -> Optional[str]:
        """doc["error"]["kind"] when tct printed a document with an error."""
        error = (self.document or {}).get("error") or {}
        return error.get("kind")

    @property
    def hint(self) -> Optional[str]:
        error = (self.document or {}).get("error") or {}
        return error.get("hint")


class TctCheckFailedError(TctError):
    """Exit 1: the check asked for failed (not usable, outputs differ, a gate crossed)."""


class TctUsageError(TctError):
    """Exit 2: bad usage or bad input (unknown target, bad parameter, no torch there)."""


class TctTargetError(TctError):
    """Exit 3: the target raised, crashed, hung or failed to compile."""


class TctInternalError(TctError):
    """Exit 4 or an unknown code: a bug in tct."""


class TctInterruptedError(TctError):
    """Exit 130, or tct killed by a signal."""


class TctSpawnError(TctError):
    """tct could not be found or started, or printed no JSON document."""


_BY_EXIT_CODE: dict[int, type[TctError]] = {
    1: TctCheckFailedError, 2: TctUsageError, 3: TctTargetError, 4: TctInternalError, 130: TctInterruptedError,
}


def error_for_exit(code: int, message: str, **details: Any) -> TctError:
    # A negative code is subprocess's way of saying "killed by that signal".
    cls = TctInterruptedError if code < 0 else _BY_EXIT_CODE.get(code, TctInternalError)
    return cls(message, exit_code=code, **details)
