"""Inputs above their size limit on the page, in CPython: a paste, samples, pasted turns or
a file refused by its length or size, saying the cap and the size, and none of its text
kept; the DOM table refuses a long box unread."""

from __future__ import annotations

import pytest

from budgetcore.inputs.text import limit_of
from budgetcore.ui.dom import Target, event_of, text_limit
from budgetcore.ui.events import (
    FileRefused,
    ImportTyped,
    JobStep,
    ReplaySourceChosen,
    ReplayToggled,
    ReplayTurnsTyped,
    SamplesTyped,
    TextRefused,
)
from budgetcore.ui.main.view.screen import render
from budgetcore.ui.update import initial_state, reduce

# ------------------------------------------------------------------ size limits


def test_a_paste_above_its_limit_is_refused_and_not_kept() -> None:
    big = "#" * (limit_of("config") + 1)
    state = reduce(initial_state(), ImportTyped(big))
    assert state.import_text == ""  # the box is emptied: no later paint carries it
    assert render(state).boxes["import-text"] == ""
    result = render(state).html["import-result"]
    assert f"{limit_of('config') + 1:,} bytes" in result
    assert "1 MiB" in result


@pytest.mark.parametrize(
    ("what", "region"),
    [("config", "import-result"), ("samples", "sample-errors")],
)
def test_a_paste_refused_by_its_length_says_the_cap_and_the_size(what: str, region: str) -> None:
    size = limit_of(what) * 5
    for lang, words in (("en", f"at least {size:,} bytes"), ("zh", f"至少有 {size:,} 字节")):
        state = reduce(initial_state(lang=lang, lang_chosen=True), TextRefused(what, size))
        screen = render(state)
        assert words in screen.html[region], screen.html[region]
        assert "1 MiB" in screen.html[region]
        assert screen.boxes[{"config": "import-text", "samples": "samples-text"}[what]] == ""


def test_samples_above_their_limit_are_refused_and_not_kept() -> None:
    big = '{"channel": "bson", "tokens": 812, "bytes": 3310}\n' * (limit_of("samples") // 40)
    state = reduce(initial_state(), SamplesTyped(big))
    assert state.samples_text == ""
    assert not state.sample_lines
    assert "1 MiB" in render(state).html["sample-errors"]


def test_pasted_turns_refused_by_their_length_are_not_kept() -> None:
    state = reduce(initial_state(), ReplayToggled(True))
    state = reduce(state, ReplaySourceChosen("turns"))
    state = reduce(state, TextRefused("page-turns", limit_of("page-turns") + 1))
    state = reduce(state, JobStep("replay"))  # the shell's next frame: the run
    from budgetcore.ui.replay.view import render_replay  # noqa: PLC0415

    screen = render_replay(state)
    shown = " ".join([*screen.html.values(), *screen.text.values()])
    assert f"at least {limit_of('page-turns') + 1:,} bytes" in shown
    assert "1 MiB" in shown
    assert state.replay.turns_text == ""


def test_pasted_turns_above_the_page_limit_are_refused_and_not_kept() -> None:
    state = reduce(initial_state(), ReplayToggled(True))
    state = reduce(state, ReplaySourceChosen("turns"))
    big = '{"added": 3000}\n' * (limit_of("page-turns") // 16 + 1)
    state = reduce(state, ReplayTurnsTyped(big))
    assert state.replay.turns_text == ""
    assert render(state).boxes["replay-turns"] == ""


def test_a_file_refused_by_its_size_says_the_cap_and_the_size() -> None:
    size = 30 * 1024 * 1024
    state = reduce(initial_state(), FileRefused("config", "huge.toml", size))
    result = render(state).html["import-result"]
    assert f"{size:,} bytes" in result
    assert "1 MiB" in result


@pytest.mark.parametrize(
    ("attr", "what"),
    [
        ("data-import-text", "config"),
        ("data-samples", "samples"),
        ("data-replay-turns", "page-turns"),
    ],
)
def test_a_paste_box_longer_than_its_limit_is_refused_by_its_length(attr: str, what: str) -> None:
    """The shell reads a box's length first; the table refuses it unread above its limit
    and takes its text within it."""
    assert text_limit({attr: ""}) == limit_of(what)
    over = Target({attr: ""}, "", kind="textarea", length=limit_of(what) + 1)
    assert event_of("input", over) == TextRefused(what, limit_of(what) + 1)
    within = Target({attr: ""}, "x", kind="textarea", length=1)
    assert not isinstance(event_of("input", within), TextRefused)
    assert text_limit({"data-input": "config.trigger_tokens"}) is None
