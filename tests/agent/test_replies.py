"""The agent's one list of reply fields (python/tct_agent/replies.json): what reply() holds an
op's reply to. tests/unit/test_replies.cpp holds the same lists to tct's declarations."""
import json
from pathlib import Path

import pytest

from tct_agent import replies
from tct_agent.errors import TctError

LISTS = Path(replies.__file__).with_name("replies.json")


def test_each_list_names_each_field_once():
    raw = json.loads(LISTS.read_text())
    for name, names in raw.items():
        if name.startswith("_"):
            continue
        assert len(set(names)) == len(names), name
        assert replies.FIELDS[name] == tuple(names)


def test_a_field_the_list_does_not_name_is_refused():
    assert replies.reply("bench.aoti_load", {"load_ns": 1}) == {"load_ns": 1}
    assert replies.reply("bench.memory", {}) == {}  # a field left out is "not given"
    with pytest.raises(TctError) as e:
        replies.reply("bench.aoti_load", {"load_ns": 1, "loaded_ns": 2})
    assert e.value.kind == "internal" and "loaded_ns" in e.value.message


def test_every_nested_list_belongs_to_a_reply_listed_beside_it():
    for name in replies.FIELDS:
        parts = name.split(" ")
        for k in range(1, len(parts)):
            parent = " ".join(parts[:k])
            assert parent in replies.FIELDS and parts[k] in replies.FIELDS[parent], name
