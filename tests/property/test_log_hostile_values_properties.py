"""The property of tests/test_log_hostile_values.py: any field of any line of any
agent's fixture set to a value of the wrong type is read as a malformed line, a
record passed over or a refusal (ScenarioError), never an internal error."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tests.log_hostile_helpers import LOGS, damaged, read_and_replay

#: Every JSON Lines file and JSON document among the agents' fixtures.
FILES = sorted(
    str(p.relative_to(LOGS))
    for p in LOGS.rglob("*")
    if p.is_file() and p.suffix in (".jsonl", ".json") and p.name != "NOTE.md"
)
HOSTILE = [None, [], {}, 123, "x", True, -1, "9" * 30, 1.5, {"a": [1]}, [None], "", 10**30]


def _fields(value: object, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out: list[tuple[str | int, ...]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            out += [(*path, key), *_fields(item, (*path, key))]
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            out += [(*path, i), *_fields(item, (*path, i))]
    return out


def _value(line: str) -> dict[str, object] | None:
    """A line's value when it is an object (a fixture's own malformed lines are not)."""
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


@given(st.sampled_from(FILES), st.data())
def test_a_field_of_the_wrong_type_anywhere_is_no_internal_error(
    fixture: str, data: st.DataObject
) -> None:
    text = (LOGS / fixture).read_text("utf-8")
    try:
        whole: object = json.loads(text)
        line = None
    except ValueError:  # JSON Lines: one of its lines that is an object
        objects = [(i, v) for i, v in enumerate(map(_value, text.split("\n")), 1) if v]
        line, whole = data.draw(st.sampled_from(objects))
    fields = _fields(whole)
    if not fields:
        return
    path = data.draw(st.sampled_from(fields))
    new = data.draw(st.sampled_from(HOSTILE))
    read_and_replay(Path(fixture).name, damaged(fixture, line, path, new))
