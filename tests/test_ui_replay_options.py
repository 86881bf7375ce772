"""The replay panel's options (``ui.replay.state.options_of``): the last ones kept with
what they were read from, and read again whenever any of it changed."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from budgetcore.registry.prices import Prices
from budgetcore.ui.events import ReplayFieldTyped, ReplayToggled
from budgetcore.ui.replay.state import _options_of, options_of
from budgetcore.ui.update import initial_state, reduce

_PRICES = Prices(input=Decimal("0.000003"), output=Decimal("0.000015"))


def test_kept_while_nothing_read_changes_and_read_again_when_anything_does() -> None:
    state = reduce(initial_state(width=1200), ReplayToggled(True))
    state = reduce(state, ReplayFieldTyped("replay.timing", "true"))
    panel = state.replay
    first = options_of(panel)
    assert options_of(panel) is first  # kept
    assert options_of(dataclasses.replace(panel, values=dict(panel.values))) is first  # by value
    # Each input it reads, changed alone: the options are a fresh read's, not the kept.
    changed = [
        (reduce(state, ReplayFieldTyped("replay.failure_rate", "0.2")).replay, (None, None)),
        (reduce(state, ReplayFieldTyped("replay.timing", "false")).replay, (None, None)),
        (reduce(state, ReplayFieldTyped("replay.stable_prefix", "4000")).replay, (None, None)),
        (panel, (_PRICES, None)),
        (panel, (None, _PRICES)),
    ]
    for other, picked in changed:
        options = options_of(other, picked)
        assert options == _options_of(other, picked)
        assert options != first, (other.values, picked)
        assert options_of(panel) == first  # and back
