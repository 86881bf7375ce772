"""The hypothesis properties of tests/test_ui_state.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from budgetcore.ui.events import (
    LinkOpened,
)
from budgetcore.ui.form import FIELDS
from budgetcore.ui.update import reduce
from tests.profiles import examples
from tests.ui_state_helpers import assert_consistent, fresh

LIMIT_PATHS = [p for p in FIELDS if p.startswith("limits.")]


class TestLinks:
    @settings(max_examples=examples(60), deadline=None)
    @given(
        st.lists(
            st.tuples(st.sampled_from(LIMIT_PATHS), st.integers(min_value=1, max_value=10**6)),
            max_size=5,
        )
    )
    def test_limit_links_always_plan(self, pairs: list[tuple[str, int]]) -> None:
        fragment = "#" + "&".join(f"{p}={v}" for p, v in pairs)
        state = reduce(fresh(), LinkOpened(fragment, "en"))
        assert_consistent(state)
