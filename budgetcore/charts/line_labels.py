"""Labels for horizontal lines that crowd a narrow band (the replay timeline's peers'
trigger lines: for a 200,000-token window eight of them sit between 150,000 and
185,000, named only in the legend).

Each line is labelled at its right end, just above it. Where lines sit closer than a
label needs, they share one label above the topmost, naming them and their range
("Goose; Cline 160,000–162,000"), shortened to the names that fit ("Goose and 3
more ...", then "4 systems ..."); the legend still names every line. No label
overlaps another, nor crosses a line it does not name, and every label lies inside the
plot's width. Pure geometry in whole pixels (``budgetcore.charts.geometry``): the
renderer only draws the texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from budgetcore.charts.geometry import FONT_PX, Box, text_box
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
    return out


def _place(
    group: Sequence[_Line], width: int, height: int, lang: str, avoid: Sequence[Box]
) -> LineLabel:
    top, bottom = group[0].y, group[-1].y
    above = top - _GAP - (FONT_PX + 3) // 4  # the box's descent clears the line too
    # Above the topmost line; below the lowest where the plot's top would cut it.
    baseline = (
        above
        if above - FONT_PX >= 0 or bottom + _GAP + FONT_PX > height
        else (bottom + _GAP + FONT_PX)
    )
    right = width - _CLEAR
    texts = _texts(group, lang)
    # The longest text that fits the plot and sits on none of the data's marks; where
    # none does, the shortest.
    for text in texts:
        box = text_box(right, baseline, text, "end")
        if box.x0 >= _CLEAR and not any(box.overlaps(m, _CLEAR) for m in avoid):
            break
    return LineLabel(tuple(x.key for x in group), text, right, baseline, box)


def _conflict(labels: Sequence[LineLabel], groups: Sequence[Sequence[_Line]]) -> int | None:
    """The first i whose label and group i + 1's (or whose lines) touch: they merge."""
    for i, label in enumerate(labels):
        b = label.box
        for j, group in enumerate(groups):
            if j == i:
                continue
            crossed = any(b.y0 - _CLEAR <= x.y <= b.y1 + _CLEAR for x in group)
            other = labels[j].box
            touches = b.x0 < other.x1 and other.x0 < b.x1 and b.y0 < other.y1 and other.y0 < b.y1
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
    ``height`` px; ``avoid``: the boxes of the data's marks, which a label's text
    shortens to keep clear of where it can. Adjacent groups merge until nothing touches
    (at worst one label names them all).

    >>> [(x.keys, x.text) for x in label_lines(
    ...     [("a", "Goose", 160_000, 40), ("b", "Cline", 162_000, 38), ("c", "Codex", 90_000, 110)],
    ...     600, 200, "en")]
    [(('b', 'a'), 'Cline; Goose 160,000–162,000'), (('c',), 'Codex 90,000')]
    """
    ordered = sorted((_Line(*x) for x in lines), key=lambda x: (x.y, x.key))
    groups: list[list[_Line]] = [[x] for x in ordered]
    while True:
        labels = [_place(g, width, height, lang, avoid) for g in groups]
        i = _conflict(labels, groups)
        if i is None or len(groups) == 1:
            return tuple(labels)
        groups[i : i + 2] = [groups[i] + groups[i + 1]]
