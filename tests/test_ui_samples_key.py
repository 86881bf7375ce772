"""The pasted samples are frozen once, when pasted (``ui.main.validate.frozen_lines``),
and the scenario of every keystroke finds their samples by that value: no JSON round
trip per keystroke (issue 38, the review's "samples' JSON round trip")."""

from __future__ import annotations

import re
from pathlib import Path

from budgetcore.ui.events import ExampleSamples, FieldTyped, SamplesTyped
from budgetcore.ui.main import validate
from budgetcore.ui.main.handlers import EXAMPLE_SAMPLES
from budgetcore.ui.main.validate import frozen_lines, scenario_of
from budgetcore.ui.update import initial_state, reduce

VALIDATE = Path(validate.__file__)


def test_keystrokes_find_the_pasted_samples_by_value() -> None:
    state = reduce(initial_state(), ExampleSamples())
    validate._samples_of.cache_clear()
    first = scenario_of(state).samples
    for text in ("100", "101", "102", "100"):
        state = reduce(state, FieldTyped("main_model.output_tokens", text))
        assert scenario_of(state).samples == first
    info = validate._samples_of.cache_info()
    assert info.misses == 1
    assert info.hits >= 4  # at least the test's own four asks
    # The same text pasted again is an equal value (another object): found, not rebuilt.
    again = reduce(state, SamplesTyped(EXAMPLE_SAMPLES))
    assert again.sample_lines == state.sample_lines
    assert again.sample_lines is not state.sample_lines
    assert scenario_of(again).samples is scenario_of(state).samples
    assert validate._samples_of.cache_info().misses == 1


def test_a_frozen_paste_keeps_each_values_type_and_order() -> None:
    # 1 == True and 1 == 1.0 in Python: as keys they must still differ, as in JSON.
    assert frozen_lines({"query_ms": [1]}) != frozen_lines({"query_ms": [True]})
    assert frozen_lines({"query_ms": [1, 2]}) != frozen_lines({"query_ms": [2, 1]})
    lines = {"read": [{"ms": 38, "bytes": 9}], "query_ms": [9, 21], "text": []}
    frozen = frozen_lines(lines)
    assert hash(frozen) == hash(frozen_lines(dict(reversed(list(lines.items())))))
    assert {k: [validate._thaw(v) for v in items] for k, items in frozen} == lines


def test_the_samples_are_no_longer_keyed_through_json() -> None:
    assert "json." not in VALIDATE.read_text(encoding="utf-8")


def test_the_example_samples_are_in_the_pages_language() -> None:
    """The fifth walk (Chinese, 390 px): the made-up samples' box opened with the English
    comment "# Made-up example samples: replace them with pairs measured on your own
    store." on the Chinese page. The same samples, their comment in the page's language."""
    en = reduce(initial_state(lang="en"), ExampleSamples())
    zh = reduce(initial_state(lang="zh"), ExampleSamples())
    assert en.samples_text == EXAMPLE_SAMPLES
    first, *rest = zh.samples_text.split("\n")
    assert first.startswith("# 虚构")
    assert not re.search(r"[A-Za-z]{3,}", first), first
    assert rest == EXAMPLE_SAMPLES.split("\n")[1:]
    assert zh.sample_lines == en.sample_lines
