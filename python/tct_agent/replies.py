"""The field names of the replies tct decodes, one list per reply (replies.json beside this
file): an op writes its reply through `reply(NAME, {...})`, which refuses a field its list
does not name, so a field renamed here and not in tct's declaration (src/*/reply.hpp) fails
tests/unit/test_replies.cpp, and one renamed in an op alone fails the op's first test."""
from __future__ import annotations

import json
import os

from .errors import TctError

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "replies.json"), encoding="utf-8") as _f:
    FIELDS: dict[str, tuple[str, ...]] = {name: tuple(names) for name, names in json.load(_f).items()
                                          if not name.startswith("_")}


def reply(name: str, values: dict) -> dict:
    """`values`, checked against the list of `name`: every key must be listed (a field may be
    left out: tct reads a missing one as not given)."""
    names = FIELDS[name]
    unknown = [k for k in values if k not in names]
    if unknown:
        raise TctError("internal", f"the reply {name} has fields {unknown} that python/tct_agent/replies.json "
                       "does not list", "tct and its agent disagree: reinstall tct")
    return values
