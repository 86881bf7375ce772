"""What a replay finds out about its turns whatever the scenario (replay.prepared.Known:
valid, their timeline) is a value the page's replay job keeps beside its replay and
gives to the next one (issue 38), in place of the module-level memos that matched the
turns by identity: the replay is the same with it or without it, it is used only for
turns and a timing equal to its own, and no module of budgetcore keeps such a memo."""

from __future__ import annotations

import ast
import dataclasses
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.replay.prepared import Known, same_but_k_s
from budgetcore.replay.simulate import replay, replay_known
from budgetcore.ui.events import FieldTyped, JobStep
from budgetcore.ui.update import reduce
from tests.helpers import timed_page

ROOT = Path(__file__).resolve().parent.parent / "budgetcore"


def _run(state: Any) -> Any:
    run = reduce(state, JobStep("replay")).replay.run
    assert run is not None
    assert run.result is not None
    return run


def _same(a: Any, b: Any) -> bool:
    return a.rows == b.rows and a.summary == b.summary


class TestKnown:
    def test_the_page_keeps_it_and_its_next_replay_starts_from_it(self) -> None:
        state = timed_page()
        first = _run(state)
        assert first.known is not None
        assert first.known.timeline is not None  # the clock is on: its timeline is known
        moved = reduce(state, FieldTyped("config.trigger_tokens", "30,000"))
        second = _run(dataclasses.replace(moved, replay=dataclasses.replace(
            moved.replay, run=first)))  # fmt: skip
        assert second.known.timeline is first.known.timeline  # not worked out again
        fresh = replay(moved.plan.scenario, second.source.turns, second.options)
        assert _same(second.result, fresh)

    def test_it_is_used_only_for_equal_turns_and_timing(self) -> None:
        run = _run(timed_page())
        scenario, turns, options = run.result.scenario, run.source.turns, run.options
        known = run.known
        # equal turns, another tuple: a value key, so it holds
        again, kept = replay_known(scenario, tuple(list(turns)), options, known)
        assert kept is not None
        assert kept.timeline is known.timeline
        assert _same(again, run.result)
        # other turns: it does not hold, and the replay is theirs alone
        other = turns[1:]
        shorter, found = replay_known(scenario, other, options, known)
        assert found is not None
        assert found.timeline is not known.timeline
        assert _same(shorter, replay(scenario, other, options))
        # another timing (a later gap seed): worked out again
        timing = dataclasses.replace(options.timing, gap_seed=options.timing.gap_seed + 1)
        retimed = dataclasses.replace(options, timing=timing)
        result, found = replay_known(scenario, turns, retimed, known)
        assert found is not None
        assert found.timeline is not known.timeline
        assert _same(result, replay(scenario, turns, retimed))

    def test_turns_it_holds_are_not_checked_again(self) -> None:
        run = _run(timed_page())
        bad = (dataclasses.replace(run.source.turns[0], added=-1), *run.source.turns[1:])
        # The check is what Known saves: a Known of other turns never vouches for these.
        known = Known(run.source.turns, run.known.timing, run.known.timeline)
        assert not known.holds(bad)
        with pytest.raises(ScenarioError, match=r"turns\[0\]\.added"):
            replay_known(run.result.scenario, bad, run.options, known)


def _config(scenario: Any, **values: Any) -> Any:
    return dataclasses.replace(scenario, config=dataclasses.replace(scenario.config, **values))


class TestKeptSession:
    """prepare reads neither K nor S: a Known keeps the whole session of turns that
    change no config, and the next replay at another K or S takes it (the page's input
    that moves K re-replays without preparing again); at any other change it is not."""

    @pytest.mark.parametrize(
        "change",
        [
            {"trigger_tokens": 24_000},
            {"summary_max_tokens": 2_048},
            {"trigger_tokens": 50_000, "summary_max_tokens": 16_384},
        ],
    )
    def test_another_k_or_s_reuses_it_and_replays_as_a_fresh_replay(
        self, change: dict[str, int]
    ) -> None:
        run = _run(timed_page())
        assert run.known.session is not None
        moved = _config(run.result.scenario, **change)
        again, kept = replay_known(moved, run.source.turns, run.options, run.known)
        assert kept is run.known  # the columns were not worked out again
        fresh = replay(moved, run.source.turns, run.options)
        assert _same(again, fresh)
        assert again.rows[0].scenario is moved  # the rows name the new scenario
        # the columns no K or S changes, kept by the first replay, are these very ones
        assert run.known.columns is not None
        for key, column in run.known.columns.items():
            assert again.columns[key] is column
            assert tuple(column) == tuple(fresh.columns[key])

    @pytest.mark.parametrize(
        ("section", "values"),
        [
            ("config", {"safety_margin": Decimal("0.2")}),
            ("config", {"reply_max_tokens": 4_096}),
            ("workload", {"required_tokens": 30_000}),
            ("background", {"idle_slot": False}),
        ],
    )
    def test_any_other_change_prepares_again(self, section: str, values: dict[str, Any]) -> None:
        run = _run(timed_page())
        scenario = run.result.scenario
        other = dataclasses.replace(
            scenario, **{section: dataclasses.replace(getattr(scenario, section), **values)}
        )
        assert not same_but_k_s(scenario, other)
        result, found = replay_known(other, run.source.turns, run.options, run.known)
        assert found is not run.known
        assert _same(result, replay(other, run.source.turns, run.options))
        # other options (the cache off) too
        options = dataclasses.replace(run.options, cache=not run.options.cache)
        result, found = replay_known(scenario, run.source.turns, options, run.known)
        assert found is not run.known
        assert _same(result, replay(scenario, run.source.turns, options))

    def test_turns_that_change_the_config_keep_no_session(self) -> None:
        run = _run(timed_page())
        turns = list(run.source.turns)
        turns[10] = dataclasses.replace(turns[10], changes=(("config.trigger_tokens", 12_000),))
        scenario = run.result.scenario
        _, known = replay_known(scenario, turns, run.options)
        assert known is not None
        assert known.session is None
        assert known.columns is None
        moved = _config(scenario, summary_max_tokens=2_048)
        again, _ = replay_known(moved, turns, run.options, known)
        assert _same(again, replay(moved, turns, run.options))

    def test_same_but_k_s(self) -> None:
        scenario = _run(timed_page()).result.scenario
        assert same_but_k_s(scenario, _config(scenario, trigger_tokens=1, summary_max_tokens=2))
        assert not same_but_k_s(scenario, _config(scenario, safety_margin=Decimal("0.3")))
        assert not same_but_k_s(scenario, dataclasses.replace(scenario, main_model_name="x"))


def _writes(fn: ast.AST, names: set[str]) -> bool:
    """Whether ``fn`` writes into one of the module-level containers ``names``."""
    for node in ast.walk(fn):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            if (
                isinstance(t, ast.Subscript)
                and isinstance(t.value, ast.Name)
                and t.value.id in names
            ):
                return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in names
            and node.func.attr in ("append", "extend", "insert", "update", "setdefault")
        ):
            return True
    return False


def _identity_reads(fn: ast.AST) -> list[int]:
    """Lines where ``fn`` compares something taken out of a container by identity."""
    return [
        node.lineno
        for node in ast.walk(fn)
        if isinstance(node, ast.Compare)
        and any(isinstance(op, ast.Is | ast.IsNot) for op in node.ops)
        and any(isinstance(x, ast.Subscript) for x in [node.left, *node.comparators])
    ]


def test_no_module_of_budgetcore_keeps_a_memo_it_matches_by_identity() -> None:
    """A function that writes into a module-level list or dict and compares what it
    takes out of one with ``is`` is an identity memo (the review's pattern: a result
    kept in the module for the last input object). Caches keyed by value (a date's
    text, a month's bytes) are not flagged; the page keeps its derived results in its
    model instead (ui.replay.state.ReplayRun.known)."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        containers = set()
        for node in tree.body:
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if isinstance(value, ast.List | ast.Dict) or (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id in ("list", "dict")
            ):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[union-attr]
                containers |= {t.id for t in targets if isinstance(t, ast.Name)}
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and containers and _writes(fn, containers):
                found += [f"{path.relative_to(ROOT)}:{n}" for n in _identity_reads(fn)]
    assert found == []
