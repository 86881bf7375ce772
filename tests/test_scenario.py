"""Scenario validation: every problem reported at once, each naming field, rule and value;
the link fragment keeps the page's language out of the scenario."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from budgetcore import Scenario, ScenarioError, parse_scenario, parse_scenario_json
from budgetcore.core.contracts import ModelContract
from budgetcore.core.scenario import Background, Config, Limits, Workload
from budgetcore.scenario.fields import SCENARIO_FIELDS
from budgetcore.scenario.fragment import parse_fragment, to_fragment

TOKENS_RULE = "must be an integer from 0 to 10^12"


def _error(text: str | bytes) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse_scenario_json(text)
    return info.value


class TestAccepted:
    def test_empty_object_is_the_default_scenario(self) -> None:
        assert parse_scenario_json("{}") == Scenario()

    @pytest.mark.parametrize(
        ("margin", "want"),
        [
            ('"0.10"', Decimal("0.10")),
            ("0.1", Decimal("0.1")),
            ("0", Decimal(0)),
            ('"0"', Decimal(0)),
            ("1e-1", Decimal("0.1")),
            ('"0.999999"', Decimal("0.999999")),
            ('"0.1000000000000000000000000000000000"', Decimal("0.1")),
        ],
    )
    def test_margin_forms(self, margin: str, want: Decimal) -> None:
        got = parse_scenario_json(f'{{"config": {{"safety_margin": {margin}}}}}')
        assert got.config.safety_margin == want

    @pytest.mark.parametrize("text", ["32000", "3.2e4", "32000.0", "32000E0"])
    def test_whole_numbers_with_an_integral_exponent_are_integers(self, text: str) -> None:
        got = parse_scenario_json(f'{{"config": {{"trigger_tokens": {text}}}}}')
        assert got.config.trigger_tokens == 32_000
        assert type(got.config.trigger_tokens) is int

    def test_bounds_are_inclusive(self) -> None:
        got = parse_scenario_json(
            '{"config": {"trigger_tokens": 1000000000000}, "workload": {"history_tokens": 0}}'
        )
        assert got.config.trigger_tokens == 10**12

    def test_nullable_fields_take_null(self) -> None:
        got = parse_scenario_json(
            '{"summary_model": null, "workload": {"backlog_tokens": null,'
            ' "engine_summary_tokens": null, "usage_baseline_tokens": null}}'
        )
        assert got == Scenario()

    def test_summary_model_as_its_own_contract(self) -> None:
        got = parse_scenario_json('{"summary_model": {"input_tokens": 200000}}')
        assert got.summary_contract.input_tokens == 200_000
        assert got.summary_contract.output_tokens == 65_536

    def test_utf8_bom_is_accepted(self) -> None:
        assert parse_scenario_json("\ufeff{}".encode()) == Scenario()


# (JSON text, expected one-line message)
REJECTED = [
    pytest.param(
        '{"config": {"trigger_tokens": "32k"}}',
        f'config.trigger_tokens {TOKENS_RULE}, got "32k"',
        id="k-shorthand",
    ),
    pytest.param(
        '{"config": {"trigger_tokens": -1}}',
        f"config.trigger_tokens {TOKENS_RULE}, got -1",
        id="neg",
    ),
    pytest.param(
        '{"config": {"trigger_tokens": 1000000000001}}',
        f"config.trigger_tokens {TOKENS_RULE}, got 1000000000001",
        id="above-10^12",
    ),
    pytest.param(
        '{"workload": {"history_tokens": 1.5}}',
        f"workload.history_tokens {TOKENS_RULE}, got 1.5",
        id="fraction",
    ),
    pytest.param(
        '{"workload": {"history_tokens": 1e-3}}',
        f"workload.history_tokens {TOKENS_RULE}, got 1e-3",
        id="negative-exponent",
    ),
    pytest.param(
        '{"workload": {"history_tokens": true}}',
        f"workload.history_tokens {TOKENS_RULE}, got true",
        id="bool-as-number",
    ),
    pytest.param(
        '{"workload": {"history_tokens": null}}',
        f"workload.history_tokens {TOKENS_RULE}, got null",
        id="null-where-not-nullable",
    ),
    pytest.param(
        '{"workload": {"backlog_tokens": "5"}}',
        f'workload.backlog_tokens {TOKENS_RULE} or null, got "5"',
        id="string-in-nullable",
    ),
    pytest.param(
        '{"workload": {"history_tokens": NaN}}',
        f"workload.history_tokens {TOKENS_RULE}, got NaN",
        id="NaN",
    ),
    pytest.param(
        '{"workload": {"history_tokens": -Infinity}}',
        f"workload.history_tokens {TOKENS_RULE}, got -Infinity",
        id="-Infinity",
    ),
    pytest.param(
        '{"main_model": {"input_tokens": 0}}',
        "main_model.input_tokens must be an integer from 1 to 10^12, got 0",
        id="zero-capacity",
    ),
    pytest.param(
        '{"main_model": {"reserves_output": 1}}',
        "main_model.reserves_output must be true or false, got 1",
        id="int-as-bool",
    ),
    pytest.param(
        '{"main_model": {"reserves_output": "true"}}',
        'main_model.reserves_output must be true or false, got "true"',
        id="string-as-bool",
    ),
    pytest.param(
        '{"config": {"safety_margin": 1}}',
        "config.safety_margin must be a decimal from 0 (inclusive) to 1 (exclusive), as a string"
        " or an exact JSON number, with at most 28 decimal places, got 1",
        id="margin-one",
    ),
    pytest.param(
        '{"config": {"x": 1}}',
        "config.x is not a known key (see spec §11), got 1",
        id="unknown",
    ),
    pytest.param(
        '{"extra": {}}', "extra is not a known key (see spec §11), got {}", id="unknown-top"
    ),
    pytest.param('{"config": 5}', "config must be a JSON object, got 5", id="section-not-object"),
    pytest.param("[1, 2]", "scenario must be a JSON object, got [1, 2]", id="array"),
    pytest.param('"hello"', 'scenario must be a JSON object, got "hello"', id="string"),
    pytest.param("null", "scenario must be a JSON object, got null", id="null"),
    pytest.param(
        "", "scenario is not valid JSON: Expecting value at line 1 column 1", id="empty-input"
    ),
    pytest.param(
        '{"config": {',
        "scenario is not valid JSON: Expecting property name enclosed in double quotes"
        " at line 1 column 13",
        id="truncated",
    ),
    pytest.param(
        '{"config": {"trigger_tokens": 1, "trigger_tokens": 2}}',
        "config.trigger_tokens appears more than once",
        id="duplicate-key",
    ),
    pytest.param(b"\xff\xfe{}", "scenario must be UTF-8 text (byte 1)", id="not-utf8"),
    pytest.param("[" * 100_000, "scenario is not valid JSON: nested too deeply", id="deep"),
]


@pytest.mark.parametrize(("text", "message"), REJECTED)
def test_rejected_with_a_message_naming_field_rule_and_value(text: str, message: str) -> None:
    assert str(_error(text)) == message


@pytest.mark.parametrize(
    "margin",
    [
        '"10%"',
        '"-0.1"',
        '"0.1 "',
        '" 0.1"',
        '"1"',
        '"abc"',
        '""',
        '"NaN"',
        '"Infinity"',
        "-0.5",
        '"0.' + "1" * 29 + '"',
        "true",
        "[0.1]",
    ],
)
def test_bad_margins_are_rejected(margin: str) -> None:
    err = _error(f'{{"config": {{"safety_margin": {margin}}}}}')
    assert str(err).startswith("config.safety_margin must be a decimal from 0 (inclusive)")


def test_every_problem_is_reported_at_once() -> None:
    err = _error(
        '{"config": {"trigger_tokens": "32k", "safety_margin": 2, "zzz": 0},'
        ' "workload": {"required_tokens": -5}, "main_model": []}'
    )
    paths = [p.path for p in err.problems]
    assert paths == [
        "main_model",
        "config.zzz",
        "config.trigger_tokens",
        "config.safety_margin",
        "workload.required_tokens",
    ]
    assert isinstance(err, ValueError)


def test_huge_integers_are_out_of_range_not_a_crash() -> None:
    err = _error('{"config": {"trigger_tokens": ' + "9" * 5_000 + "}}")
    assert str(err).startswith(f"config.trigger_tokens {TOKENS_RULE}, got 9999")
    assert len(str(err)) < 200


def test_huge_exponents_are_out_of_range_not_a_crash() -> None:
    # Shown as typed: the number is never evaluated (Decimal refuses exponents >= 10^18).
    err = _error('{"config": {"trigger_tokens": 1e999999999}}')
    assert str(err) == f"config.trigger_tokens {TOKENS_RULE}, got 1e999999999"


def test_field_table_covers_every_dataclass_field() -> None:
    sections = {
        "main_model": ModelContract,
        "summary_model": ModelContract,
        "config": Config,
        "workload": Workload,
        "background": Background,
        "limits": Limits,
    }
    want = [f"{s}.{f.name}" for s, cls in sections.items() for f in dataclasses.fields(cls)]
    assert [f.path for f in SCENARIO_FIELDS] == want


def test_parse_scenario_accepts_python_values_too() -> None:
    got = parse_scenario({"config": {"safety_margin": Decimal("0.2")}})
    assert got.config.safety_margin == Decimal("0.2")


class TestFragments:
    def test_language_is_page_state_not_scenario(self) -> None:
        result = parse_fragment("#lang=zh&config.trigger_tokens=1")
        assert result.ui == (("lang", "zh"),)
        assert result.scenario.config.trigger_tokens == 1
        assert to_fragment(result.scenario, lang="zh") == "config.trigger_tokens=1&lang=zh"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("pair", ["config.safety_margin=1e-999", "config.safety_margin=1"])
def test_a_links_refused_decimal_is_said_as_text_never_as_json(pair: str, lang: str) -> None:
    """The eighth walk of December 2026 (both languages): the link
    #config.safety_margin=1e-999 read "must be a decimal from 0 (inclusive) to 1
    (exclusive), as a string or an exact JSON number, ...": a link holds text, as a
    typed field does, and its rule is the typed field's."""
    from budgetcore.ui.problems import problem_sentence  # noqa: PLC0415

    (problem,) = parse_fragment(pair).problems
    said = problem_sentence(problem, lang)
    assert "JSON" not in said, said
    assert "JSON" not in str(problem)
    assert pair.split("=", 1)[1] in said
