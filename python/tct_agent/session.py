"""State one agent process keeps between requests, so later requests reuse earlier work."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import TctError


@dataclass
class Session:
    target: Any = None          # tct_agent.target.LoadedTarget once `target.load` ran
    compiled: dict = field(default_factory=dict)  # compile config key -> compiled callable
    scratch: dict = field(default_factory=dict)   # per-op-group state, keyed by group name

    def loaded_target(self):
        """The target `target.load` stored; an op that needs one before that is a tct bug."""
        if self.target is None:
            raise TctError("internal", "an op ran before target.load", "tct and its agent disagree: reinstall tct")
        return self.target
