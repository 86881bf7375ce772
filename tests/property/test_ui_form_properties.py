"""The hypothesis properties of tests/test_ui_form.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.scenario.fields import SCENARIO_FIELDS, parse_field
from budgetcore.ui.form import (
    IssueError,
    parse_text,
)
from budgetcore.ui.problems import problem_text

SPECS = {s.path: s for s in SCENARIO_FIELDS}


class TestTypedText:
    @given(st.integers(min_value=0, max_value=MAX_TOKENS))
    def test_field_and_json_agree_on_every_whole_number(self, n: int) -> None:
        for text in (str(n), f"{n:,}", f"{n}.0"):
            assert parse_text("config.trigger_tokens", text) == n
        assert parse_field(SPECS["config.trigger_tokens"], n) == n

    @given(st.text(max_size=30))
    def test_any_text_gives_a_valid_value_or_an_issue(self, text: str) -> None:
        for path in ("config.trigger_tokens", "main_model.input_tokens", "config.safety_margin"):
            try:
                value = parse_text(path, text)
            except IssueError as exc:
                issue = exc.issue
            else:
                assert parse_field(SPECS[path], value) == value
                continue
            assert issue.paths == (path,)
            assert problem_text(issue, "en")
            assert problem_text(issue, "zh")
