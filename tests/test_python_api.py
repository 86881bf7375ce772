"""The Python API as strict as the CLI (issue 41's causes): a misuse of a public function
raises one ScenarioError naming the argument, valid values still replay and tune, and the
documented ``__all__`` is the package's."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest

import budgetcore
from budgetcore import parse_scenario, plan
from budgetcore.conformance.cases import assert_plan_matches, case_of
from budgetcore.core.scenario import Scenario
from budgetcore.errors import ScenarioError
from budgetcore.replay.background import Duration, Retries, Timing
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.replay.simulate import replay
from budgetcore.tune.choice import Constraints
from budgetcore.tune.result import tune
from tests.helpers import ROOT

SC = parse_scenario({})
TURNS = [Turn(added=1_000)] * 3


def _one_line(call: Any) -> str:
    with pytest.raises(ScenarioError) as info:
        call()
    return info.value.one_line()


#: Cause 3 and 16: each misuse and the start of its one line (argument, rule, value).
API_MISUSE: list[tuple[str, Any, str]] = [
    ("tune ks=[-5]", lambda: tune(SC, [("a", TURNS)], ks=[-5], ss=[1024]), "ks[0] must be"),
    ("tune ss=[True]", lambda: tune(SC, [("a", TURNS)], ks=[8000], ss=[True]), "ss[0] must be"),
    (
        "tune repeated ks",
        lambda: tune(SC, [("a", TURNS)], ks=[8000, 8000], ss=[1024]),
        "ks must not repeat a value, got 8000",
    ),
    ("tune ks='8000'", lambda: tune(SC, [("a", TURNS)], ks="8000"), "ks must be a list"),
    ("tune sessions str", lambda: tune(SC, "abc"), "sessions must be a list"),
    ("tune sessions item", lambda: tune(SC, [TURNS]), "sessions[0] must be a (name, turns)"),
    ("tune engine", lambda: tune(SC, [("a", TURNS)], engine="gpu"), "engine must be one of"),
    ("tune options", lambda: tune(SC, [("a", TURNS)], {"cache": True}), "options must be"),  # type: ignore[arg-type]
    (
        "tune constraints",
        lambda: tune(SC, [("a", TURNS)], constraints={"max_unseen": 0}),  # type: ignore[arg-type]
        "constraints must be",
    ),
    ("tune turns", lambda: tune(SC, [("a", [Turn(added=-1)])]), "turns[0].added must be"),
    ("tune scenario", lambda: tune({}, [("a", TURNS)]), "scenario must be a Scenario"),  # type: ignore[arg-type]
    ("replay added=-5", lambda: replay(SC, [Turn(added=-5)] * 3), "turns[0].added must be an"),
    ("replay added=2.5", lambda: replay(SC, [Turn(added=2.5)]), "turns[0].added must be an"),  # type: ignore[arg-type]
    ("replay added=True", lambda: replay(SC, [Turn(added=True)]), "turns[0].added must be an"),
    (
        "replay third turn",
        lambda: replay(SC, [*TURNS, Turn(added=1, output=-1)]),
        "turns[3].output must be",
    ),
    ("replay flag", lambda: replay(SC, [Turn(added=1, idle_slot=1)]), "turns[0].idle_slot must"),  # type: ignore[arg-type]
    ("replay append", lambda: replay(SC, [Turn(added=1, append_ms=[5])]), "turns[0].append_ms"),  # type: ignore[arg-type]
    ("replay not a Turn", lambda: replay(SC, [{"added": 5}]), "turns[0] must be a Turn"),  # type: ignore[list-item]
    ("replay turns str", lambda: replay(SC, "abc"), "turns must be a list"),  # type: ignore[arg-type]
    ("replay scenario", lambda: replay({}, TURNS), "scenario must be a Scenario"),  # type: ignore[arg-type]
    ("replay options", lambda: replay(SC, TURNS, {"cache": True}), "options must be"),  # type: ignore[arg-type]
    (
        "ReplayOptions failure_rate=2",
        lambda: ReplayOptions(failure_rate=Decimal(2)),
        "ReplayOptions.failure_rate must be a decimal from 0 to 1",
    ),
    (
        "ReplayOptions failure_rate float",
        lambda: ReplayOptions(failure_rate=0.5),  # type: ignore[arg-type]
        "ReplayOptions.failure_rate must be",
    ),
    (
        "ReplayOptions start_history",
        lambda: ReplayOptions(start_history=-1),
        "ReplayOptions.start_history must be",
    ),
    (
        "ReplayOptions covered > history",
        lambda: ReplayOptions(start_covered=5),
        "ReplayOptions.start_covered (5) must be at most start_history (0)",
    ),
    ("ReplayOptions cache", lambda: ReplayOptions(cache="yes"), "ReplayOptions.cache must be"),  # type: ignore[arg-type]
    (
        "ReplayOptions seed",
        lambda: ReplayOptions(failure_seed=2**63),
        "ReplayOptions.failure_seed must be",
    ),
    (
        "ReplayOptions prices",
        lambda: ReplayOptions(main_prices={"input": "1"}),  # type: ignore[arg-type]
        "ReplayOptions.main_prices must be a Prices",
    ),
    (
        "Constraints no_rejected='no'",
        lambda: Constraints(no_rejected="no"),  # type: ignore[arg-type]
        'Constraints.no_rejected must be True or False, got "no"',
    ),
    ("Constraints max_unseen", lambda: Constraints(max_unseen=-1), "Constraints.max_unseen"),
    (
        "Constraints max_runs_per_100",
        lambda: Constraints(max_runs_per_100=Decimal(101)),
        "Constraints.max_runs_per_100 must be a decimal from 0 to 100",
    ),
    ("Retries rate", lambda: Retries(failure_rate=Decimal(2)), "Retries.failure_rate must"),
    (
        "Retries policy",
        lambda: Retries(failure_rate=Decimal(0), policy="never"),  # type: ignore[arg-type]
        "Retries.policy must be one of resend, breaker",
    ),
    ("Duration both", Duration, "Duration.prefill_tokens_per_s must"),
    (
        "Duration fixed and rates",
        lambda: Duration(fixed_s=Decimal(1), decode_tokens_per_s=Decimal(1)),
        "Duration.fixed_s gives fixed_s or the two rates",
    ),
    (
        "Timing gap",
        lambda: Timing(gap_ms=-1, duration=Duration(fixed_s=Decimal(1))),
        "Timing.gap_ms must be",
    ),
    ("plan({})", lambda: plan({}), "scenario must be a Scenario"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("name", "call", "start"), API_MISUSE, ids=[c[0] for c in API_MISUSE])
def test_the_python_api_names_the_argument_of_a_misuse(name: str, call: Any, start: str) -> None:
    assert _one_line(call).startswith(start), name


def test_valid_python_values_still_replay_and_tune() -> None:
    opts = ReplayOptions(failure_rate=Decimal("0.5"), start_history=10, start_covered=5)
    assert replay(SC, TURNS, opts).summary.turns == 3
    timed = Timing(gap_ms=1000, duration=Duration(fixed_s=Decimal(1)))
    assert replay(SC, TURNS, ReplayOptions(timing=timed)).summary.turns == 3
    result = tune(SC, [("a", TURNS)], ks=[32_000, 8_000], ss=[1024], constraints=Constraints())
    assert result.grid.ks == (8_000, 32_000)  # sorted, as the CLI's --k sorts


def test_assert_plan_matches_names_the_key_of_a_huge_value() -> None:
    """Cause 16: 10^5000 failed on Python's int-to-text limit, not on the key."""
    case = case_of("golden", "golden", "the worked example", Scenario())
    with pytest.raises(AssertionError) as info:
        assert_plan_matches(
            {**case.plan, "main_safe_input": 10**5000}, case, keys=["main_safe_input"]
        )
    assert "main_safe_input: expected 936,345, got an integer of 16,610 bits" in str(info.value)


def test_the_documented_all_is_the_package_all() -> None:
    """docs/python-api.md is the contract: its table lists exactly ``budgetcore.__all__``."""
    text = (ROOT / "docs" / "python-api.md").read_text("utf-8")
    section = text.split("## `budgetcore.__all__`")[1].split("\n## ")[0]
    documented = set(re.findall(r"^\| `([\w_]+)` \|", section, re.M))
    assert documented == set(budgetcore.__all__)
    for name in budgetcore.__all__:
        assert getattr(budgetcore, name) is not None


def test_every_number_and_flag_of_the_plan_json_is_an_attribute_of_the_same_name() -> None:
    """The README's pytest path says every key the JSON and the page show is an
    attribute of the plan of the same name. The sixth walk copied two more from
    ``plan -``'s JSON: ``result.io_token_cap`` and ``result.first_binding_limit``
    raised AttributeError (they were ``result.io.io_token_cap`` and ``.first_binding``).
    The nested reports (``bytes``, ``time``, ``io``, ``warnings``) are objects, not
    one value, and the README says so."""
    result = plan(parse_scenario({}))
    one_value = (int, str, type(None))  # io_token_cap is None without a binding protection
    scalars = {k: v for k, v in result.as_dict().items() if isinstance(v, one_value)}
    assert {"io_token_cap", "first_binding_limit", "main_safe_input"} <= scalars.keys()
    assert {k: getattr(result, k, "missing") for k in scalars} == scalars


def test_every_readout_and_lamp_of_the_page_is_an_attribute_of_the_same_name() -> None:
    """The page's key bar shows K as ``trigger_tokens`` and a lamp ``has_work``:
    ``plan(scenario).trigger_tokens``, docs/python-api.md's own example of a reviewed
    file's K, raised AttributeError (the sixth walk)."""
    from budgetcore.ui.main.view.readouts import plan_values, readout_cells  # noqa: PLC0415

    result = plan(parse_scenario({"config": {"trigger_tokens": 40_000}}))
    shown = readout_cells(result, plan_values(result), "en")
    assert {"trigger_tokens", "has_work", "main_safe_input"} <= shown.keys()
    missing = [k for k in shown if not hasattr(result, k)]
    assert missing == []
    assert result.trigger_tokens == 40_000
    assert result.has_work is True
