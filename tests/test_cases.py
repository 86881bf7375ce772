"""Conformance cases (docs/spec.md §14): the shipped file, the case set, JSON Lines, plan diffs."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from budgetcore.conformance.cases import (
    DEFAULT_RANDOM_COUNT,
    DEFAULT_RANDOM_SEED,
    FORMAT_VERSION,
    REGENERATE,
    Case,
    assert_plan_matches,
    build_cases,
    default_cases,
    dump_cases,
    parse_cases,
    plan_differences,
    random_cases,
    shipped_cases_text,
)
from budgetcore.core.plan import OUTPUT_KEYS
from budgetcore.core.scenario import Limits
from budgetcore.errors import ScenarioError
from budgetcore.scenario.parse import parse_scenario
from tests.oracle import oracle_plan

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = parse_cases(shipped_cases_text()).cases
BY_NAME = {c.name: c for c in SHIPPED}
HEADER = '{"format": "budgetcore-cases", "format_version": 1}\n'
PLAN = json.dumps(SHIPPED[0].plan)


def test_shipped_file_is_what_the_code_generates() -> None:
    generated = dump_cases(default_cases())
    assert shipped_cases_text() == generated, (
        f"budgetcore/data/cases.jsonl is stale: regenerate it with `{REGENERATE}`"
    )


class TestTheSet:
    def test_names_are_unique_and_every_kind_is_there(self) -> None:
        assert len(BY_NAME) == len(SHIPPED)
        kinds = {c.tags[0] for c in SHIPPED}
        assert kinds == {"golden", "experiment", "edge", "random"}
        assert sum("random" in c.tags for c in SHIPPED) == DEFAULT_RANDOM_COUNT
        assert sum("experiment" in c.tags for c in SHIPPED) == 8

    def test_golden_is_the_specs_worked_example(self) -> None:
        p = BY_NAME["golden"].plan
        assert (p["main_safe_input"], p["summary_cap"], p["summary_safe_input"]) == (
            936_345,
            8_192,
            936_345,
        )
        assert (p["summary_work_input"], p["summary_work_total"], p["full_input"]) == (
            71_000,
            79_192,
            36_000,
        )
        assert p["trigger_reached"] is True
        assert p["admitted"] is True

    @pytest.mark.parametrize(
        ("name", "key", "value"),
        [
            ("experiment-lower_s-after", "recompress_needed", True),
            ("experiment-lower_s-after", "summary_new_raw", 0),
            ("experiment-f_above_m-after", "admitted", False),
            ("experiment-f_above_m-after", "raw_selected", 0),
            ("experiment-raise_i-after", "main_safe_input", 1_880_064),
            ("edge-margin-0", "main_safe_input", 1_040_384),
            ("edge-margin-28-places", "main_safe_input", 0),
            ("edge-k-above-m", "trigger_reached", False),
            ("edge-k-zero", "trigger_reached", True),
            ("edge-k-equals-full-input", "trigger_reached", True),
            ("edge-k-one-above-full-input", "trigger_reached", False),
            ("edge-s-above-o", "summary_cap", 65_536),
            ("edge-s-above-o", "summary_cap_clamped", True),
            ("edge-previous-summary-above-s", "recompress_needed", True),
            ("edge-previous-summary-equals-s", "recompress_needed", False),
            ("edge-f-above-m", "admitted", False),
            ("edge-f-equals-m", "admitted", True),
            ("edge-f-equals-m", "summary_adopted", 0),
            ("edge-f-plus-a-equals-m", "summary_adopted", 6_000),
            ("edge-f-plus-a-equals-m", "raw_selected", 0),
            ("edge-tiny-window", "main_safe_input", 0),
            ("edge-huge-window", "main_safe_input", 899_999_992_627),
            ("edge-summary-model-different", "summary_cap", 4_096),
            ("edge-summary-model-too-small", "summary_new_raw_budget", 0),
            ("edge-engine-drops-summary", "summary_dropped", True),
            ("edge-loader-summary-above-m", "loader_prefetch_limit", 0),
            ("edge-baseline-reaches-k", "soft_estimate", 32_000),
            ("edge-baseline-below-k", "trigger_reached", False),
            (
                "edge-samples-without-optional",
                "time",
                {
                    "records": None,
                    "sessions": None,
                    "message_pages": None,
                    "directory_pages": None,
                    "read_ms": "unknown",
                },
            ),
        ],
    )
    def test_designed_case_shows_what_it_is_named_for(
        self, name: str, key: str, value: object
    ) -> None:
        got = BY_NAME[name].plan[key]
        assert got == value
        assert type(got) is type(value)

    @pytest.mark.parametrize(
        "limit",
        [
            "token_budget",
            "raw_bson_bytes",
            "raw_records_read",
            "directory_sessions_read",
            "full_read_ms",
            "single_query_ms",
            "history",
        ],
    )
    def test_each_protection_binds_first_in_its_own_case(self, limit: str) -> None:
        case = BY_NAME[f"edge-binding-{limit.replace('_', '-')}"]
        assert case.plan["first_binding_limit"] == limit
        assert ("io" in case.tags) == (limit not in ("token_budget", "history"))

    @pytest.mark.parametrize("name", ["edge-margin-float-trap", "edge-margin-float-trap-small"])
    def test_float_trap_cases_do_catch_a_binary_float_margin(self, name: str) -> None:
        scenario = BY_NAME[name].scenario
        main, cfg = scenario["main_model"], scenario["config"]
        room = main["input_tokens"] - cfg["reply_max_tokens"]
        with_float = math.floor((1 - float(cfg["safety_margin"])) * room)
        assert BY_NAME[name].plan["main_safe_input"] == with_float + 1

    def test_spec_keys_agree_with_the_independent_oracle(self) -> None:
        # The oracle models default limits and no read samples; it checks most cases.
        checked = 0
        for case in SHIPPED:
            samples = case.scenario["samples"]
            if samples["read"] or case.scenario["limits"] != _DEFAULT_LIMITS:
                continue
            want = oracle_plan(case.scenario)
            assert {k: case.plan[k] for k in OUTPUT_KEYS} == want, case.name
            checked += 1
        assert checked >= 55

    def test_every_integer_fits_a_javascript_number(self) -> None:
        def ints(value: object) -> list[int]:
            if isinstance(value, dict):
                return [i for v in value.values() for i in ints(v)]
            if isinstance(value, list):
                return [i for v in value for i in ints(v)]
            return [value] if isinstance(value, int) and not isinstance(value, bool) else []

        assert max(i for c in SHIPPED for i in ints(c.to_json_dict())) < 2**53


_DEFAULT_LIMITS = {f.name: getattr(Limits(), f.name) for f in dataclasses.fields(Limits)}


class TestRandom:
    def test_a_seed_always_gives_the_same_cases_and_a_longer_run_extends_a_shorter(self) -> None:
        short, long = random_cases(5, 99), random_cases(12, 99)
        assert short == long[:5]
        assert random_cases(5, 98) != short

    def test_the_shipped_random_set_is_pinned(self) -> None:
        # Guards the generator against a change of Python's random module.
        first = BY_NAME[f"random-{DEFAULT_RANDOM_SEED}-000"].scenario
        assert first == random_cases(1, DEFAULT_RANDOM_SEED)[0].scenario
        assert first["main_model"] == {
            "input_tokens": _PINNED_FIRST_INPUT,
            "output_tokens": _PINNED_FIRST_OUTPUT,
            "reserves_output": _PINNED_FIRST_Q,
        }

    def test_random_cases_are_valid_and_varied(self) -> None:
        cases = random_cases(300, 3)
        for case in cases:
            parse_scenario(case.scenario)
        assert {c.plan["admitted"] for c in cases} == {True, False}
        assert {c.plan["trigger_reached"] for c in cases} == {True, False}
        assert {c.plan["recompress_needed"] for c in cases} == {True, False}
        assert len({c.plan["first_binding_limit"] for c in cases}) >= 5

    def test_build_cases_adds_only_new_names(self) -> None:
        base = default_cases()
        more = build_cases(DEFAULT_RANDOM_COUNT + 3, DEFAULT_RANDOM_SEED)
        assert more[: len(base)] == base
        assert [c.name for c in more[len(base) :]] == [
            f"random-{DEFAULT_RANDOM_SEED}-{i:03d}" for i in range(40, 43)
        ]


_PINNED_FIRST_INPUT, _PINNED_FIRST_OUTPUT, _PINNED_FIRST_Q = 262_144, 1_000_000, True


class TestFile:
    def test_round_trip(self) -> None:
        cases = random_cases(3, 1)
        assert parse_cases(dump_cases(cases)).cases == cases

    def test_header_carries_format_version_and_spec_keys(self) -> None:
        header = json.loads(shipped_cases_text().splitlines()[0])
        assert header["format"] == "budgetcore-cases"
        assert header["format_version"] == FORMAT_VERSION
        assert header["spec_output_keys"] == list(OUTPUT_KEYS)
        assert header["cases"] == len(SHIPPED)

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("", "cases is empty"),
            (HEADER, "cases has no case after its header: a conformance run needs one"),
            (
                HEADER + '{"name": "a", "scenario": {}, "plan": {}}',
                "line 2: plan lacks 18 of the 18 spec §11 output keys (main_safe_input,",
            ),
            (
                HEADER + '{"name": "a", "scenario": {"config": {"x": 1, "x": 2}}, "plan": {}}',
                "line 2: scenario.config.x appears more than once",
            ),
            (HEADER + "\u2028{", "line 2 is not valid JSON"),
            (b"\xff", "cases must be UTF-8 text (byte 1)"),
            ('{"format": "other"}\n', "line 1 must be the header"),
            (
                '{"format": "budgetcore-cases", "format_version": 2}\n',
                "line 1: format_version must be a format version this budgetcore reads",
            ),
            ('{"format": "budgetcore-cases", "format_version": 1}\n[1]\n', "line 2 must be a JSON"),
            (
                HEADER + f'{{"name": "a", "scenario": {{}}, "plan": {PLAN}}}\n'
                f'{{"name": "a", "scenario": {{}}, "plan": {PLAN}}}',
                'line 3: name appears more than once, got "a"',
            ),
            (
                '{"format": "budgetcore-cases", "format_version": 1}\n{"name": "a", "scenario": 1}',
                "line 2: scenario must be a JSON object, got 1",
            ),
            (
                '{"format": "budgetcore-cases", "format_version": 1, "cases": 2}\n'
                f'{{"name": "a", "scenario": {{}}, "plan": {PLAN}}}',
                "cases header declares 2 cases, the file has 1",
            ),
            ('{"format": "budgetcore-cases", "format_version": 1}\n{', "line 2 is not valid JSON"),
        ],
    )
    def test_a_malformed_file_is_refused_naming_the_line(
        self, text: str | bytes, message: str
    ) -> None:
        with pytest.raises(ScenarioError, match="^" + _escape(message)):
            parse_cases(text)


def _escape(text: str) -> str:
    return re.escape(text)


# ------------------------------------------------------------------ comparing plans

GOLDEN = BY_NAME["golden"]


def _spec(case: Case) -> dict[str, Any]:
    return {k: case.plan[k] for k in OUTPUT_KEYS}


class TestAssertPlanMatches:
    def test_an_equal_plan_passes_with_spec_keys_only_or_the_whole_plan(self) -> None:
        assert_plan_matches(_spec(GOLDEN), GOLDEN)
        assert_plan_matches(dict(GOLDEN.plan), GOLDEN)

    def test_every_differing_and_missing_key_is_listed_in_one_message(self) -> None:
        actual = _spec(GOLDEN)
        actual["main_safe_input"] += 1
        actual["full_input"] -= 2
        del actual["admitted"]
        with pytest.raises(AssertionError) as info:
            assert_plan_matches(actual, GOLDEN)
        text = str(info.value)
        assert text.splitlines()[0] == "case 'golden' differs from budgetcore in 3 of 18 keys"
        assert "  main_safe_input: expected 936,345, got 936,346 (+1)" in text
        assert "  full_input: expected 36,000, got 35,998 (-2)" in text
        assert "  admitted: missing, expected true" in text
        assert "reproduce: echo '{}' | python -m budgetcore plan -" in text

    def test_your_names_are_mapped_and_shown_beside_ours(self) -> None:
        actual = _spec(GOLDEN)
        actual["M"] = actual.pop("main_safe_input") - 1
        names = {"M": "main_safe_input"}
        with pytest.raises(
            AssertionError,
            match=r"main_safe_input \(yours: M\): expected 936,345, got 936,344 \(-1\)",
        ):
            assert_plan_matches(actual, GOLDEN, names=names)
        actual["M"] += 1
        assert_plan_matches(actual, GOLDEN, names=names)

    def test_types_count_a_bool_is_not_an_int_and_a_float_is_named(self) -> None:
        actual = _spec(GOLDEN)
        actual["admitted"] = 1
        actual["main_safe_input"] = 936_345.0
        diffs, compared = plan_differences(actual, GOLDEN.plan)
        assert compared == 18
        assert [d.key for d in diffs] == ["main_safe_input", "admitted"]
        assert "a float: the contract is exact" in str(diffs[0])

    def test_a_mistyped_name_mapping_is_an_error_not_a_silent_miss(self) -> None:
        message = "names['M'] = 'main_safe_inpt' is not a key of the plan (near: main_safe_input"
        with pytest.raises(ValueError, match=re.escape(message)):
            plan_differences({"M": 1}, GOLDEN.plan, names={"M": "main_safe_inpt"})

    @pytest.mark.parametrize(
        ("kwargs", "error", "message"),
        [
            (
                {"names": {"M": 1}},
                TypeError,
                "names['M'] must be a budgetcore plan key (a string such as 'main_safe_input'), "
                "got 1",
            ),
            ({"names": 42}, TypeError, "names must be a mapping of your key names to budgetcore"),
            ({"names": "M"}, TypeError, "names must be a mapping of your key names"),
            ({"names": {1: "main_safe_input"}}, TypeError, "names: the key 1 must be your key"),
            (
                {"keys": "main_safe_input"},
                TypeError,
                "keys must be a list of plan keys, not one string: use keys=['main_safe_input']",
            ),
            ({"keys": 42}, TypeError, "keys must be a list of plan keys, got 42"),
            ({"keys": [1]}, TypeError, "keys[0] must be a plan key (a string), got 1"),
            ({"keys": []}, ValueError, "keys names no key: a comparison of nothing"),
        ],
    )
    def test_every_misuse_is_one_line_naming_the_key_and_value(
        self, kwargs: dict[str, Any], error: type[Exception], message: str
    ) -> None:
        with pytest.raises(error, match="^" + re.escape(message)) as info:
            assert_plan_matches(dict(GOLDEN.plan), GOLDEN, **kwargs)
        assert "\n" not in str(info.value)

    def test_a_case_that_is_not_a_case_is_named(self) -> None:
        with pytest.raises(
            TypeError, match=r"^case must be the budget_case fixture's Case, got dict"
        ):
            assert_plan_matches(dict(GOLDEN.plan), dict(GOLDEN.plan))  # type: ignore[arg-type]

    def test_an_expected_plan_without_the_spec_keys_is_an_error_not_a_pass(self) -> None:
        with pytest.raises(ValueError, match=r"^the expected plan lacks the spec §11 keys"):
            plan_differences({}, {})

    def test_keys_limit_the_comparison_and_must_exist(self) -> None:
        assert_plan_matches({"main_safe_input": 936_345}, GOLDEN, keys=["main_safe_input"])
        with pytest.raises(ValueError, match="not keys of the expected plan: M"):
            plan_differences({}, GOLDEN.plan, keys=["M"])

    def test_added_keys_you_return_are_compared_object_by_object(self) -> None:
        case = BY_NAME["edge-samples-all"]
        actual = json.loads(json.dumps(dict(case.plan)))
        actual["io"][1]["tokens"] += 1
        actual["bytes"]["bson"]["predictions"]["full_input"]["high"] = 0
        diffs, _ = plan_differences(actual, case.plan)
        assert [d.key for d in diffs] == [
            "bytes.bson.predictions.full_input.high",
            "io[1].tokens",
        ]

    def test_a_dataclass_is_a_plan_too(self) -> None:
        fields = [(k, type(v)) for k, v in _spec(GOLDEN).items()]
        cls = dataclasses.make_dataclass("Theirs", fields)
        assert_plan_matches(cls(**_spec(GOLDEN)), GOLDEN)

    def test_a_case_with_a_non_default_scenario_prints_its_link_fragment(self) -> None:
        case = BY_NAME["edge-k-zero"]
        with pytest.raises(AssertionError) as info:
            assert_plan_matches({}, case)
        text = str(info.value)
        assert "in 18 of 18 keys" in text
        assert "reproduce: python -m budgetcore plan --fragment '#config.trigger_tokens=0'" in text


# ------------------------------------------------------------------ CLI


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "budgetcore", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


class TestCli:
    def test_cases_prints_the_shipped_set(self) -> None:
        result = _cli("cases")
        assert result.returncode == 0
        assert result.stdout == shipped_cases_text()

    def test_cases_random_adds_seeded_cases_and_out_writes_a_file(self, tmp_path: Path) -> None:
        out = tmp_path / "more.jsonl"
        result = _cli("cases", "--random", "3", "--seed", "7", "--out", str(out))
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
        cases = parse_cases(out.read_text("utf-8")).cases
        assert [c.name for c in cases[-3:]] == ["random-7-000", "random-7-001", "random-7-002"]
        assert cases[:-3] == SHIPPED

    @pytest.mark.parametrize(
        ("args", "line"),
        [
            (
                ("cases", "--random", "-1"),
                'budgetcore cases: argument --random: must be an integer from 0 to 10,000, got "-1"'
                " (see --help)",
            ),
            (
                ("cases", "--random", "10001"),
                "budgetcore cases: argument --random: must be an integer from 0 to 10,000, "
                'got "10001" (see --help)',
            ),
            (
                ("cases", "--random", "3", "--seed", "-1"),
                "budgetcore cases: argument --seed: must be an integer from 0 to 2^63 - 1, "
                'got "-1" (see --help)',
            ),
            (
                ("cases", "--random", "3", "--seed", "9" * 5_000),
                "budgetcore cases: argument --seed: is 5,000 bytes, larger than its limit of 1 KiB "
                "(1,024 bytes) (see --help)",
            ),
            (("cases", "--random", "x"), None),
            (("cases", "--out", "/nonexistent/dir/cases.jsonl"), None),
        ],
    )
    def test_bad_cases_arguments_exit_2_with_one_line(
        self, args: tuple[str, ...], line: str | None
    ) -> None:
        result = _cli(*args)
        assert result.returncode == 2
        assert result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1
        if line is not None:
            assert result.stderr.strip() == line
