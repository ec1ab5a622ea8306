"""Assertions over a bench document, for gating a speedup in a test suite."""
from __future__ import annotations

from typing import Optional


def assert_speedup(doc: dict, at_least: float, *, backend: Optional[str] = None, mode: Optional[str] = None) -> None:
    """Every bench row (or those of `backend` / `mode`) was measured, its compiled outputs
    matched eager, and the LOWER end of its speedup's 95% interval is at least `at_least`.

    The lower end, not the estimate: a speedup whose interval reaches below the bar is not
    shown to clear it. Raises AssertionError naming each row that falls short, and why.
    """
    rows = [r for r in _bench(doc).get("rows", [])
            if (backend is None or r.get("backend") == backend) and (mode is None or r.get("mode") == mode)]
    if not rows:
        raise AssertionError(f"no bench row for backend={backend!r} mode={mode!r}")
    problems = [p for p in (_shortfall(r, at_least) for r in rows) if p]
    if problems:
        raise AssertionError("speedup below the bar:\n  " + "\n  ".join(problems))


def _bench(doc: dict) -> dict:
    # A bench document, or an audit document holding a bench section.
    if not isinstance(doc, dict) or not isinstance(doc.get("bench"), dict):
        raise AssertionError("not a tct bench or audit document (no 'bench' section)")
    return doc["bench"]


def _shortfall(row: dict, at_least: float) -> Optional[str]:
    name = row.get("label") or f"{row.get('backend')}/{row.get('mode')}"
    if row.get("status") != "ok":
        message = (row.get("error") or {}).get("message", "")
        return f"{name}: not measured ({row.get('status')}) {message}".rstrip()
    correctness = row.get("correctness") or {}
    if not correctness.get("checked"):
        return f"{name}: outputs were not checked against eager (drop no_check)"
    if correctness.get("match") is not True:
        return f"{name}: compiled outputs differ from eager"
    speedup = row.get("speedup") or {}
    low = speedup.get("low")
    if low is None:
        return f"{name}: no speedup interval (inconclusive)"
    if low < at_least:
        return (f"{name}: speedup {speedup.get('estimate'):.3f}x, 95% interval "
                f"[{low:.3f}, {speedup.get('high'):.3f}]: lower end {low:.3f} < {at_least}")
    return None
