"""The replay's repeated inputs (budgetcore/replay/turns.py ``generate``, memoised by
value; prepared.py ``check_turns`` and ``timeline_of``, no longer memoised: the page's
replay job keeps what it found in ``Known``, tests/test_replay_known.py): the same
values as computed afresh, and never a stale answer for turns that can change."""

from __future__ import annotations

import dataclasses

import pytest

from budgetcore.core.scenario import Scenario
from budgetcore.errors import ScenarioError
from budgetcore.replay.model import Turn
from budgetcore.replay.options import parse_options
from budgetcore.replay.prepared import _timeline_of
from budgetcore.replay.simulate import check_turns, replay, timeline_of
from budgetcore.replay.turns import generate, parse_generator

SPEC = {"turns": 40, "seed": 3, "added": {"dist": "uniform", "low": 500, "high": 9_000}}
TIMED = {
    "timing": {
        "gap_ms": {"dist": "uniform", "low": 1_000, "high": 60_000},
        "duration": {"fixed_s": "20"},
    }
}


def test_a_generated_session_is_the_same_tuple_and_equal_to_a_fresh_one() -> None:
    spec = parse_generator(SPEC)
    turns = generate(spec)
    assert generate(parse_generator(SPEC)) is turns
    assert generate.__wrapped__(spec) == turns


def test_the_timeline_is_the_fresh_timeline_and_follows_the_timing() -> None:
    turns = generate(parse_generator(SPEC))
    timing = parse_options(TIMED).timing
    assert timing is not None
    first = timeline_of(turns, timing)
    assert timeline_of(turns, timing) == first
    assert first == tuple(map(tuple, _timeline_of(turns, timing)))
    other = dataclasses.replace(timing, gap_seed=timing.gap_seed + 1)
    assert timeline_of(turns, other) == tuple(map(tuple, _timeline_of(turns, other)))
    assert timeline_of(turns, other) != first
    options = parse_options(TIMED)
    assert replay(Scenario(), turns, options) == replay(Scenario(), list(turns), options)


def test_a_list_of_turns_is_checked_again_after_it_changed() -> None:
    turns = [Turn(added=100), Turn(added=200)]
    check_turns(turns)
    turns[1] = Turn(added=-1)
    with pytest.raises(ScenarioError, match=r"turns\[1\]"):
        check_turns(turns)
    valid = tuple(generate(parse_generator(SPEC)))
    check_turns(valid)
    check_turns(valid)  # the same tuple, valid again
    with pytest.raises(ScenarioError):
        check_turns((*valid, Turn(added=-5)))
