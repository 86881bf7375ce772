"""Labels for crowded horizontal lines (budgetcore.charts.line_labels): the seventh walk
found the replay timeline's peer lines stacked, unlabelled, between 150,000 and 185,000
for a 200,000-token window, named only in the legend. Each line is named by exactly one
label; no label touches another or crosses a line it does not name; every label fits
the plot, at the page's 1440 and 390 px widths, in both languages."""

from __future__ import annotations

import itertools

import pytest

from budgetcore import parse_scenario, plan
from budgetcore.charts.line_labels import label_lines
from budgetcore.registry.peers import default_peers, peer_lines

SONNET = "claude-sonnet-4-5"
HEIGHT = 200  # the timeline's plot


def _sonnet_lines(lang: str) -> list[tuple[str, str, int, int]]:
    """The peers' lines the timeline draws for Sonnet (W 200,000, O 64,000), at the
    timeline's y for an axis up to W."""
    sc = parse_scenario({"main_model": {"model": SONNET}})
    w, o = sc.main_model.input_tokens, sc.main_model.output_tokens
    view = peer_lines(w, o, plan(sc), default_peers(), model=SONNET)
    rows = [r for r in view.rows if r.for_model and r.tokens is not None and not r.beyond_window]
    return [(r.data_key, r.peer.name, r.tokens, (w - r.tokens) * HEIGHT // w) for r in rows]


@pytest.mark.parametrize("width", [1440 - 96, 390 - 70])  # the plot inside its gutters
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_peer_line_is_named_and_no_label_touches(width: int, lang: str) -> None:
    lines = _sonnet_lines(lang)
    crowded = [x for x in lines if 150_000 <= x[2] <= 185_000]
    assert len(crowded) >= 5  # the walk's band: the case this is for
    labels = label_lines(lines, width, HEIGHT, lang)
    named = [k for label in labels for k in label.keys]
    assert sorted(named) == sorted(x[0] for x in lines)  # each line, once
    for a, b in itertools.combinations(labels, 2):
        assert not a.box.overlaps(b.box), (a.text, b.text)
    y_of = {x[0]: x[3] for x in lines}
    for label in labels:
        assert label.box.x0 >= 0, label.text
        assert label.box.x1 <= width, label.text
        assert label.box.y0 >= 0, label.text
        assert label.box.y1 <= HEIGHT, label.text
        for key, y in y_of.items():  # no line crosses a label (its own, below it)
            assert not label.box.y0 <= y <= label.box.y1, (label.text, key)
            if key not in label.keys:
                assert not label.box.y0 - 3 <= y <= label.box.y1 + 3, (label.text, key)
    # a label of several lines says their range
    for label in labels:
        if len(label.keys) > 1:
            tokens = sorted(x[2] for x in lines if x[0] in label.keys)
            assert f"{tokens[0]:,}–{tokens[-1]:,}" in label.text


def test_a_lone_line_is_named_with_its_tokens() -> None:
    (label,) = label_lines([("codex", "OpenAI Codex CLI", 180_000, 20)], 600, HEIGHT, "en")
    assert label.text == "OpenAI Codex CLI 180,000"
    assert label.box.y1 < 20  # above its line, clear of it


def test_names_shorten_to_fit_a_narrow_plot() -> None:
    lines = [(f"p{i}", f"System number {i}", 160_000 + i, 40 + i) for i in range(6)]
    (wide,) = label_lines(lines, 2000, HEIGHT, "en")
    assert wide.text.startswith("System number 0; System number 1;")
    (narrow,) = label_lines(lines, 320, HEIGHT, "en")
    assert narrow.box.x0 >= 0
    assert "more" in narrow.text or narrow.text.startswith("6 systems")


def test_a_label_shortens_to_keep_off_the_datas_marks() -> None:
    """Drawn on the timeline (a trial wiring, Sonnet at 1440 px), the run's label named
    nine systems across the plot and crossed the full-input line: given the data's marks,
    it says fewer names where more would sit on them."""
    from budgetcore.charts.geometry import Box  # noqa: PLC0415

    lines = [(f"p{i}", f"System number {i}", 160_000 + i, 40 + i) for i in range(6)]
    (free,) = label_lines(lines, 1000, HEIGHT, "en")
    mark = Box(free.box.x0, free.box.y0, free.box.x0 + 40, free.box.y1)  # its left end
    (kept,) = label_lines(lines, 1000, HEIGHT, "en", avoid=[mark])
    assert kept.keys == free.keys
    assert not kept.box.overlaps(mark, 3)
    assert len(kept.text) < len(free.text)


def test_a_label_keeps_off_every_mark_by_sliding_then_going_below_or_joining() -> None:
    """Wired into the timeline, the shortest text at the right end still crossed a busy
    series, and M across the band left the topmost lines with no clear place: a label
    now slides left along its lines, else goes below them, else its lines join a
    neighbour's label; it never touches a mark."""
    from budgetcore.charts.geometry import Box  # noqa: PLC0415

    line = [("a", "Codex", 180_000, 60)]
    right_end = Box(560, 40, 600, 60)  # a series' spike at the right end, above the line
    (slid,) = label_lines(line, 600, HEIGHT, "en", avoid=[right_end])
    assert slid.text == "Codex 180,000"
    assert slid.box.y1 < 60
    assert not slid.box.overlaps(right_end, 3)
    band = Box(0, 40, 600, 45)  # a horizontal line (M) right above it, across the plot
    (under,) = label_lines(line, 600, HEIGHT, "en", avoid=[band])
    assert under.box.y0 > 60
    assert not under.box.overlaps(band, 3)
    # two lines at the plot's top, M between them and the next: they share a label
    lines = [("a", "pi", 183_617, 7), ("b", "Codex", 180_000, 11), ("c", "Cline", 162_000, 29)]
    m = Box(0, 18, 600, 18)
    labels = label_lines(lines, 600, HEIGHT, "en", avoid=[m])
    assert sorted(k for x in labels for k in x.keys) == ["a", "b", "c"]
    assert all(not x.box.overlaps(m, 3) for x in labels)
