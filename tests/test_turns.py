"""Turn sources: the seeded generator and JSON Lines turns."""

from __future__ import annotations

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.replay.model import Turn
from budgetcore.replay.turns import (
    generate,
    parse_generator,
    parse_generator_json,
    parse_turn_lines,
)


class TestGenerator:
    def test_fixed_added(self) -> None:
        turns = generate(parse_generator({"turns": 3, "added": 4_000}))
        assert turns == (Turn(added=4_000),) * 3

    def test_golden_uniform_draws_for_seed_1(self) -> None:
        # random.Random's integer draws are stable across CPython and Pyodide versions.
        spec = {"turns": 5, "seed": 1, "added": {"dist": "uniform", "low": 1_000, "high": 9_000}}
        assert [t.added for t in generate(parse_generator(spec))] == [
            2_100,
            5_662,
            7_942,
            7_572,
            7_256,
        ]

    def test_seeds_differ(self) -> None:
        spec = {"turns": 20, "added": {"dist": "uniform", "low": 0, "high": 10**6}}
        a = generate(parse_generator({**spec, "seed": 1}))
        b = generate(parse_generator({**spec, "seed": 2}))
        assert a != b

    def test_choice_honours_zero_weights(self) -> None:
        spec = {
            "turns": 200,
            "added": {"dist": "choice", "values": [1, 2, 3], "weights": [0, 1, 0]},
        }
        assert {t.added for t in generate(parse_generator(spec))} == {2}

    def test_bursts_add_tool_output_on_some_turns(self) -> None:
        spec = {"turns": 200, "seed": 3, "added": 1_000, "burst": {"rate": "0.1", "tokens": 50_000}}
        sizes = [t.added for t in generate(parse_generator(spec))]
        assert set(sizes) == {1_000, 51_000}
        assert 5 <= sizes.count(51_000) <= 40
        never = {**spec, "burst": {"rate": 0, "tokens": 50_000}}
        assert {t.added for t in generate(parse_generator(never))} == {1_000}

    def test_required_and_output_may_be_drawn(self) -> None:
        spec = {
            "turns": 50,
            "added": 1,
            "required": {"dist": "triangular", "low": 10, "high": 20},
            "output": 7,
        }
        turns = generate(parse_generator(spec))
        assert all(10 <= (t.required or 0) <= 20 and t.output == 7 for t in turns)

    @pytest.mark.parametrize(
        ("spec", "message"),
        [
            ({"added": 1}, "generate.turns is required"),
            ({"turns": 0, "added": 1}, "generate.turns must be an integer from 1 to 100,000"),
            ({"turns": 1}, "generate.added is required"),
            ({"turns": 1, "added": {"dist": "normal"}}, "generate.added.dist must be one of fixed"),
            ({"turns": 1, "added": {"dist": "uniform", "low": 5, "high": 1}}, "must be at least"),
            ({"turns": 1, "added": 1.5}, "generate.added must be an integer"),
            ({"turns": 1, "added": 1, "burst": {"rate": "2", "tokens": 1}}, "burst.rate must be"),
            ({"turns": 1, "added": 1, "colour": 1}, "generate.colour is not a generator key"),
        ],
    )
    def test_bad_specs_name_the_field(self, spec: dict[str, object], message: str) -> None:
        with pytest.raises(ScenarioError, match=message):
            parse_generator(spec)

    def test_json_text(self) -> None:
        spec = parse_generator_json('{"turns": 2, "added": 1e3}')
        assert generate(spec) == (Turn(added=1_000),) * 2


class TestTurnLines:
    def test_valid_lines_with_changes_and_flags(self) -> None:
        text = "\n".join(
            [
                "# a comment",
                '{"added": 100}',
                "",
                '{"added": 200, "required": 5000, "output": 10, "idle_slot": false}',
                '{"added": 0, "set": {"config": {"summary_max_tokens": 8192}}}',
            ]
        )
        turns, problems = parse_turn_lines(text)
        assert problems == ()
        assert turns == (
            Turn(added=100),
            Turn(added=200, required=5_000, output=10, idle_slot=False),
            Turn(added=0, changes=(("config.summary_max_tokens", 8_192),)),
        )

    def test_bad_lines_are_listed_and_skipped(self) -> None:
        text = (
            '{"added": 1}\n{"added": -1}\n[1]\n{oops\n'
            '{"added": 2, "set": {"workload.required_tokens": 1}}\n'
        )
        turns, problems = parse_turn_lines(text)
        assert turns == (Turn(added=1),)
        assert [str(p) for p in problems] == [
            "line 2: added must be an integer from 0 to 10^12, got -1",
            "line 3 must be a JSON object, got [1]",
            # At its column in line 4: the decoder's own "line 1 column 2" read as a
            # second line number (the December walk).
            "line 4 is not valid JSON: Expecting property name enclosed in double quotes "
            "at column 2",
            "line 5: set.workload.required_tokens is not a supported override (spec §9), got 1",
        ]

    def test_no_usable_line_is_an_error(self) -> None:
        with pytest.raises(ScenarioError, match="turns has no usable turn line; line 1: added"):
            parse_turn_lines('{"added": "x"}\n')
        with pytest.raises(ScenarioError, match="turns has no usable turn line"):
            parse_turn_lines("")


def test_a_pasted_line_s_json_problem_is_at_its_column_in_that_line_in_both_languages() -> None:
    """Indented lines count their indent: the column is the line's, as an editor shows it."""
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    _turns, problems = parse_turn_lines('{"added": 1}\n   {"added": }\n')
    (problem,) = problems
    assert problem.code == "json-in-line"
    assert problem_text(problem, "en").endswith("Expecting value at column 14")
    assert "第 14 列" in problem_text(problem, "zh")
