"""Labels for horizontal lines that crowd a narrow band (the replay timeline's peers'
trigger lines: for a 200,000-token window eight of them sit between 150,000 and
185,000, named only in the legend).

Each line is labelled at its right end, just above it. Where lines sit closer than a
label needs, they share one label above the topmost, naming them and their range
("Goose; Cline 160,000–162,000"), shortened to the names that fit ("Goose and 3
more ...", then "4 systems ..."); the legend still names every line. No label
overlaps another, nor crosses a line it does not name, nor touches a mark of the data
given to it (the timeline's full input, K, M, a log's context): it shortens, slides
left along its lines or goes below them, and where no place is clear it is not drawn.
Every label lies inside the plot's width. Pure geometry in whole pixels
(``budgetcore.charts.geometry``): the renderer only draws the texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from budgetcore.charts.geometry import FONT_PX, Box, clear_runs, text_box
from budgetcore.messages import t
from budgetcore.units import format_int

__all__ = ["LineLabel", "label_lines"]

#: Between a label and the line it sits on, and around a label (a line it does not
#: name keeps this far from its box).
_GAP = 2
_CLEAR = 3


@dataclass(frozen=True, slots=True)
class LineLabel:
    keys: tuple[str, ...]  # the lines it names, top to bottom
    text: str
    x: int  # its right end (SVG text-anchor "end")
    baseline: int
    box: Box


@dataclass(frozen=True, slots=True)
class _Line:
    key: str
    name: str
    tokens: int
    y: int  # whole pixels from the plot's top


def _texts(group: Sequence[_Line], lang: str) -> list[str]:
    """The label's text, longest first: every name, then fewer names and how many
    more, then the count alone."""
    if len(group) == 1:
        (one,) = group
        return [t("chart.line-label.one", lang, name=one.name, tokens=format_int(one.tokens))]
    low = format_int(min(x.tokens for x in group))
    high = format_int(max(x.tokens for x in group))
    sep = t("msg.list-sep", lang)
    names = [x.name for x in group]
    out = [t("chart.line-label.all", lang, names=sep.join(names), low=low, high=high)]
    for shown in range(len(names) - 1, 0, -1):
        out.append(
            t(
                "chart.line-label.some",
                lang,
                names=sep.join(names[:shown]),
                more=len(names) - shown,
                low=low,
                high=high,
            )
        )
    out.append(t("chart.line-label.count", lang, n=len(names), low=low, high=high))
    # Last, the count alone: on a phone, a busy series leaves little clear room (the
    # legend and each line's tooltip give the values).
    out.append(t("chart.line-label.n", lang, n=len(names)))
    return out


def _clear_at(baseline: int, width: int, avoid: Sequence[Box]) -> list[tuple[int, int]]:
    """The x runs a text on ``baseline`` may take: the plot's width less every mark's x
    span there, grown by the margin."""
    probe = text_box(0, baseline, "", "end")
    y0, y1 = probe.y0 - _CLEAR, probe.y1 + _CLEAR
    cuts = [(b.x0 - _CLEAR, b.x1 + _CLEAR) for b in avoid if b.y0 < y1 and y0 < b.y1]
    return clear_runs(_CLEAR, width - _CLEAR, cuts)


def _free_right(
    texts: Sequence[str], baseline: int, width: int, runs: list[tuple[int, int]]
) -> tuple[str, int, Box] | None:
    """The text and right end nearest the plot's right edge at ``baseline`` that sits in
    the clear ``runs``: first the longest text that fits at the right end, then the
    rightmost place of the longest text that fits anywhere; None where nothing does."""
    if not runs:
        return None
    if runs[-1][1] == width - _CLEAR:  # the right end is clear: shorten the text there
        low = runs[-1][0]
        for text in texts:
            box = text_box(width - _CLEAR, baseline, text, "end")
            if box.x0 >= low:
                return text, width - _CLEAR, box
    for text in texts:  # else slide left: the rightmost clear run it fits in
        for low, high in reversed(runs):
            box = text_box(high, baseline, text, "end")
            if box.x0 >= low:
                return text, high, box
    return None


def _place(  # noqa: PLR0917 - label_lines' one call
    group: Sequence[_Line],
    width: int,
    height: int,
    lang: str,
    avoid: Sequence[Box],
    clear: dict[int, list[tuple[int, int]]],
) -> LineLabel | None:
    descent = (FONT_PX + 3) // 4
    above = group[0].y - _GAP - descent  # the box's descent clears the line too
    ys = [x.y for x in group]
    # Above the topmost line; else below one of its lines, clear of the others (a run
    # joined to a lone line below it can be named in the gap above that line).
    rows = [above] if above - FONT_PX >= 0 else []
    for y in dict.fromkeys(ys):
        below = y + _GAP + FONT_PX
        inside = below + descent <= height
        if inside and not any(y < v <= below + descent + _CLEAR for v in ys):
            rows.append(below)
    if not rows:  # no room anywhere: under the lowest line, as before
        rows = [group[-1].y + _GAP + FONT_PX]
    texts = _texts(group, lang)
    keys = tuple(x.key for x in group)
    if not avoid:
        box = text_box(width - _CLEAR, rows[0], texts[0], "end")
        for text in texts:
            box = text_box(width - _CLEAR, rows[0], text, "end")
            if box.x0 >= _CLEAR:
                break
        return LineLabel(keys, text, width - _CLEAR, rows[0], box)
    for baseline in rows:
        # a row's clear runs once per call of label_lines (groups share their lines' rows)
        if baseline not in clear:
            clear[baseline] = _clear_at(baseline, width, avoid)
        found = _free_right(texts, baseline, width, clear[baseline])
        if found is not None:
            text, right, box = found
            return LineLabel(keys, text, right, baseline, box)
    return None


def _conflict(labels: Sequence[LineLabel | None], groups: Sequence[Sequence[_Line]]) -> int | None:
    """The first i whose label and group i + 1's (or whose lines) touch: they merge."""
    for i, label in enumerate(labels):
        if label is None:
            continue
        b = label.box
        for j, group in enumerate(groups):
            if j == i:
                continue
            crossed = any(b.y0 - _CLEAR <= x.y <= b.y1 + _CLEAR for x in group)
            placed = labels[j]
            other = b if placed is None else placed.box
            touches = (
                placed is not None
                and b.x0 < other.x1
                and other.x0 < b.x1
                and b.y0 < other.y1
                and other.y0 < b.y1
            )
            if crossed or touches:
                return min(i, j)
    return None


def label_lines(
    lines: Sequence[tuple[str, str, int, int]],
    width: int,
    height: int,
    lang: str,
    avoid: Sequence[Box] = (),
) -> tuple[LineLabel, ...]:
    """One label per line, or per run of lines too close to label apart: ``lines`` as
    (key, name, tokens, y in whole pixels from the plot's top), the plot ``width`` and
    ``height`` px; ``avoid``: the boxes of the data's marks (the lines' segments), which
    no label touches: its text shortens at the right end, else it slides left along its
    lines, else it goes below them; a group with no clear place has no label (the
    legend names every line). Adjacent groups merge until nothing touches (at worst one
    label names them all).

    >>> [(x.keys, x.text) for x in label_lines(
    ...     [("a", "Goose", 160_000, 40), ("b", "Cline", 162_000, 38), ("c", "Codex", 90_000, 110)],
    ...     600, 200, "en")]
    [(('b', 'a'), 'Cline; Goose 160,000–162,000'), (('c',), 'Codex 90,000')]
    """
    ordered = sorted((_Line(*x) for x in lines), key=lambda x: (x.y, x.key))
    groups: list[list[_Line]] = [[x] for x in ordered]
    # Each group placed once: a merge places only the new group (placing them all again
    # on each of up to eleven merges, among a log's hundreds of segments, was about
    # 250 M instructions, a 30 ms task, each time the placement changed).
    placed: dict[tuple[str, ...], LineLabel | None] = {}
    clear: dict[int, list[tuple[int, int]]] = {}

    def place(group: list[_Line]) -> LineLabel | None:
        key = tuple(x.key for x in group)
        if key not in placed:
            placed[key] = _place(group, width, height, lang, avoid, clear)
        return placed[key]

    while True:
        labels = [place(g) for g in groups]
        i = _conflict(labels, groups)
        if i is None and None in labels and len(groups) > 1:
            # A group with no clear place joins its nearer neighbour: one label naming
            # more lines beats a line named nowhere on the chart.
            j = labels.index(None)
            near_above = j > 0 and (
                j == len(groups) - 1
                or groups[j][0].y - groups[j - 1][-1].y <= groups[j + 1][0].y - groups[j][-1].y
            )
            i = j - 1 if near_above else j
        if i is None or len(groups) == 1:
            return tuple(x for x in labels if x is not None)
        groups[i : i + 2] = [groups[i] + groups[i + 1]]
