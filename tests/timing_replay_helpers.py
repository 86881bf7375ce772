"""The replay run the way the timing oracle is fed, and the check that the replay gives
every value the oracle gives: shared by the timing property tests and their example
cases (tests/test_timing.py), so that no test module imports another."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

from budgetcore.replay.model import Replay
from budgetcore.replay.options import parse_options
from budgetcore.replay.simulate import replay
from budgetcore.replay.turns import parse_turn_lines
from budgetcore.scenario.parse import parse_scenario

__all__ = ["_replay", "assert_same"]


def _replay(data: dict[str, Any], turns: list[dict[str, Any]], opts: dict[str, Any]) -> Replay:
    parsed, problems = parse_turn_lines("\n".join(json.dumps(t) for t in turns))
    assert problems == ()
    return replay(parse_scenario(data), parsed, parse_options(opts))


def _exact(value: object) -> object:
    return Fraction(value) if isinstance(value, Decimal) else value


def assert_same(got: Replay, want: tuple[list[dict[str, Any]], dict[str, Any]]) -> None:
    """Every value the oracle gives, row by row and in the summary, is the replay's."""
    rows, summary = want
    assert len(got.rows) == len(rows)
    for row, expected in zip(got.rows, rows, strict=True):
        for key, value in expected.items():
            if key == "status":
                if value is None:  # the oracle names only statuses it models itself
                    assert row.status not in ("run", "recompress", "refused"), row.turn
                else:
                    assert row.status == value, row.turn
            else:
                assert _exact(getattr(row, key)) == value, (row.turn, key)
    for key, value in summary.items():
        assert _exact(getattr(got.summary, key)) == value, key
