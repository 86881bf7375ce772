"""The replay timeline's peer lines named at their ends (issue 42): the lines crowd a
band near the window (eight of them between 150,000 and 185,000 for a 200,000-token
window) and were named only in the legend. Drawn, each is named by one label; no label
touches another, crosses a line (a peer's, K, M) or a series' segment, or leaves the
plot, at the page's 1440, 390 and 320 px widths, in both languages."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from html import unescape

import pytest

from budgetcore.charts.geometry import Box, text_box
from budgetcore.ui.events import (
    JobStep,
    LanguageChosen,
    ReplayLogLoaded,
    ReplaySourceChosen,
    ReplayToggled,
    Resized,
)
from budgetcore.ui.replay.view import render_replay
from budgetcore.ui.update import initial_state, reduce
from tests.growth_log_helpers import growing_claude_log
from tests.helpers import segment_meets_box

# (the window's width, the replay panel's inner width the shell measures there)
WIDTHS = [(1440, 1342), (390, 358), (320, 288)]

_LABEL = re.compile(
    r'<text class="ch-label rp-peer-label" data-lines="([^"]+)" x="(\d+)" y="(\d+)" '
    r'text-anchor="end">([^<]*)</text>'
)
_PEER = re.compile(r'<line class="rp-peer" data-line="([^"]+)" data-tokens="\d+" [^>]*y1="(\d+)"')
_SERIES = re.compile(r'<poly(?:line|gon) class="rp-(?:line|area) rp-(\w+)"[^>]*points="([^"]*)"')


def _timeline(lang: str, width: int, panel: int, top: int) -> str:
    state = reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))
    state = reduce(reduce(state, LanguageChosen(lang)), Resized(width, panel))
    state = reduce(state, ReplayLogLoaded(growing_claude_log(60, top), "g.jsonl"))
    return str(render_replay(reduce(state, JobStep("replay"))).html["replay-timeline"])


def _crosses(box: Box, a: tuple[int, int], b: tuple[int, int]) -> bool:
    ends = (Fraction(a[0]), Fraction(a[1])), (Fraction(b[0]), Fraction(b[1]))
    return segment_meets_box(*ends, tuple(map(Fraction, (box.x0, box.y0, box.x1, box.y1))))


@pytest.mark.parametrize(("width", "panel"), WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("top", [150_000, 190_000])
def test_every_peer_line_is_named_once_and_no_label_touches_a_line_or_a_mark(
    lang: str, width: int, panel: int, top: int
) -> None:
    svg = _timeline(lang, width, panel, top)
    plot = re.search(r'<g transform="translate\((\d+),(\d+)\)" data-plot="timeline"', svg)
    assert plot is not None
    left, above = int(plot.group(1)), int(plot.group(2))
    plot_width = int(re.search(r'data-plot-width="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    peers = {key: above + int(y) for key, y in _PEER.findall(svg)}
    assert len(peers) >= 5  # the crowded band this is for
    labels = [
        (keys.split(), text_box(int(x), int(y), unescape(text), "end"), unescape(text))
        for keys, x, y, text in _LABEL.findall(svg)
    ]
    assert labels, "the peer lines are named only in the legend"
    named = [k for keys, _, _ in labels for k in keys]
    assert sorted(named) == sorted(peers)  # each line by exactly one label
    for (_, a, at), (_, b, bt) in itertools.combinations(labels, 2):
        assert not a.overlaps(b), (at, bt)
    segments = []
    for key, points in _SERIES.findall(svg):
        xy = [tuple(int(v) for v in p.split(",")) for p in points.split()]
        segments += [
            (key, (left + p[0], above + p[1]), (left + q[0], above + q[1]))
            for p, q in itertools.pairwise(xy)
        ]
    assert {k for k, _, _ in segments} >= {"full_input", "log_context", "trigger"}
    for _, box, text in labels:
        assert left <= box.x0, text
        assert box.x1 <= left + plot_width, text
        assert above <= box.y0, text
        for key, y in peers.items():
            assert not box.y0 <= y <= box.y1, (text, key)
        for key, a, b in segments:
            assert not _crosses(box, a, b), (text, key, a, b)


def test_the_labels_are_placed_once_for_a_scrub_and_a_k_below_the_band() -> None:
    """The labels change with the model, window, width and language and with the data
    drawn near the lines, not with each redraw: a scrubbed turn and a K whose full
    input stays far below the band reuse the placement."""
    from budgetcore.ui.events import FieldTyped, ReplayScrubbed  # noqa: PLC0415
    from budgetcore.ui.replay.charts import _placed_labels  # noqa: PLC0415

    state = reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))
    state = reduce(reduce(state, Resized(1440, 1342)), FieldTyped("config.trigger_tokens", "30000"))
    state = reduce(state, ReplayLogLoaded(growing_claude_log(60, 190_000), "g.jsonl"))
    state = reduce(state, JobStep("replay"))
    first = str(render_replay(state).html["replay-timeline"])
    placed = _placed_labels.cache_info().misses
    for event in (ReplayScrubbed(7), FieldTyped("config.trigger_tokens", "31000")):
        state = reduce(reduce(state, event), JobStep("replay"))
        again = str(render_replay(state).html["replay-timeline"])
        assert _placed_labels.cache_info().misses == placed, event
        assert _LABEL.findall(again) == _LABEL.findall(first)


def test_the_clip_check_meets_what_crosses_or_touches_and_not_what_passes_by() -> None:
    """The check the label tests rely on can say both answers (a check that always said
    "clear" would pass every label)."""
    box = Box(10, 10, 20, 20)
    assert _crosses(box, (0, 0), (30, 30))  # through the middle
    assert _crosses(box, (0, 10), (10, 10))  # touching a corner
    assert _crosses(box, (12, 12), (13, 13))  # inside
    assert not _crosses(box, (0, 0), (30, 9))  # under its top edge, never in it
    assert not _crosses(box, (21, 0), (21, 30))  # beside it
