"""Helpers of the hostile-values tests (tests/test_log_hostile_values.py and its
property): a fixture with one field set to a value of the wrong type, and the read,
measure, replay and write every session of it goes through."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

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
