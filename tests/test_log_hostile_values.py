"""A log record whose fields hold the wrong JSON type (a list where a text is due, a
number where a list is due) is a malformed line or a record passed over, never an
internal error: each agent's reader met such a value with a dict or set lookup
(``unhashable type: 'list'``) or a loop over a number (the seventh walk, found by
setting every field of the fixtures' first lines to each hostile value in turn)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.replay.logs import read_sessions
from budgetcore.replay.logs.session import run_session
from budgetcore.replay.output import write_sessions

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"


def _set(value: Any, path: tuple[str | int, ...], new: object) -> Any:
    out = copy.deepcopy(value)
    here = out
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = new
    return out


def damaged(fixture: str, line: int | None, path: tuple[str | int, ...], new: object) -> bytes:
    """The fixture file with one field set to ``new``: on line ``line`` (from 1) of a
    JSON Lines file, or in the one document (``line`` None)."""
    text = (LOGS / fixture).read_text("utf-8")
    if line is None:
        return json.dumps(_set(json.loads(text), path, new)).encode()
    lines = text.split("\n")
    lines[line - 1] = json.dumps(_set(json.loads(lines[line - 1]), path, new))
    return "\n".join(lines).encode()


def read_and_replay(name: str, data: bytes) -> list[str]:
    """Every session of the file read, measured, replayed and written; the problems of
    what could not be (a ScenarioError is an answer; anything else is a defect)."""
    problems: list[str] = []
    try:
        logs = read_sessions([(name, data)])
    except ScenarioError as exc:
        return [str(p) for p in exc.problems]
    for log in logs:
        try:
            run = run_session(name, log, scenario=None, options=None)
        except ScenarioError as exc:
            problems += [str(p) for p in exc.problems]
            continue
        write_sessions([run], "jsonl", lambda _text: None, folder=False)
    return problems


_CLAUDE = "claude/01-plain-2.1/projects/-home-user-proj/11111111-1111-4111-8111-111111111111.jsonl"
_CLAUDE_AGENT = (
    "claude/07-btw-sidechain-replay/projects/-home-user-proj/"
    "77777777-7777-4777-8777-777777777777/subagents/agent-aside_question-1a2b3c4d.jsonl"
)
_AMP = "amp/ledger/amp/threads/T-aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa.json"

#: (fixture, line or None for a document, the field, its hostile value): each ended in
#: an internal error before its fix (the reader and line named).
CASES: list[tuple[str, int | None, tuple[str | int, ...], object]] = [
    (_CLAUDE, 1, ("type",), []),  # pi.claims: `kind not in _ENTRY_TYPES`
    (_CLAUDE, 4, ("message", "content", 0, "type"), []),  # claude._thinks
    (_CLAUDE_AGENT, 1, ("message", "type"), []),  # kimi.claims: `in _WIRE_TYPES`
    (_AMP, None, ("messages", 1, "messageId"), []),  # amp: a ledger's id as a dict key
    (_AMP, None, ("usageLedger", "events"), 123),  # amp: an events list that is a number
    (_AMP, None, ("usageLedger", "events", 0, "toMessageId"), {"a": 1}),  # amp: the same
    # copilot.is_event_type, asked what an unknown document looks like.
    ("opencode/compaction-files/opencode/storage/part/msg_h01/prt_h010.json", None, ("type",), []),
]


@pytest.mark.parametrize(("fixture", "line", "path", "new"), CASES)
def test_a_field_of_the_wrong_type_is_no_internal_error(
    fixture: str, line: int | None, path: tuple[str | int, ...], new: object
) -> None:
    read_and_replay(Path(fixture).name, damaged(fixture, line, path, new))
