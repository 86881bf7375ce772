"""The replay charts' SVG text made of many integers (point lists, strip marks, run
bars): each turn slot's text kept by (turns, width), so a redraw of one session at one
width looks texts up where it wrote hundreds of integers as text per input (the timed
redraw, docs/performance.md). Pure: positions in 1/100 px in, text out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from operator import add
from types import MappingProxyType

from budgetcore.charts.timeline import UNIT, slot_middles, turning_points
from budgetcore.ui.markup import Plain

__all__ = ["marks_text", "points_text", "px_texts", "slot_row", "slot_texts"]

#: No point's text kept (:func:`points_text`).
_NO_TEXTS: Mapping[int, str] = MappingProxyType({})


@lru_cache(maxsize=8)
def _px_table(tail: str) -> dict[int, str]:
    """Whole pixels 0 to 1,023, each as text with ``tail``, by value: a chart is at most
    a few hundred pixels tall, and a line or a strip writes one per turn or run (a
    look-up costs half of ``str``; a dict, never written to: a read-only view's look-up
    costs about as much as ``str``)."""
    return {v: f"{v}{tail}" for v in range(1_024)}


def px_texts(values: Sequence[int], tail: str = "") -> list[str]:
    """Whole pixels as text, each with ``tail`` (:func:`_px_table`; one off its range:
    written afresh)."""
    table = _px_table(tail)
    try:
        return list(map(table.__getitem__, values))
    except KeyError:
        return [f"{v}{tail}" for v in values]


def points_text(
    xs: Sequence[int],
    rows: Sequence[int],
    at: Mapping[int, str] = _NO_TEXTS,
    by_turn: Sequence[str] = (),
) -> Plain:
    """Points (x in 1/100 px, y in whole pixels: ``Polyline.rows``) as an SVG point
    list, x rounded half up. A point between two on the same pixel row draws nothing
    and is left out: a value held over many turns (the summary, an empty backlog, K) is
    one segment, not hundreds of points. ``at``: the "<x>," text of a point at a turn
    slot's middle, by its x (slot_texts); ``by_turn``: the same by turn
    (:func:`slot_row`), when the points are every turn's. Each point's text is two
    looked-up texts joined in C."""
    half = UNIT // 2
    keep = turning_points(rows)
    if len(by_turn) == len(rows) and 2 * len(keep) > len(rows):
        # Most turns drawn (a line that moves at every turn): each turn's text made,
        # then the kept ones picked, where picking the x and the row of each first
        # cost two passes more.
        texts = list(map(add, by_turn, px_texts(rows)))
        return Plain(" ".join(texts if len(keep) == len(rows) else map(texts.__getitem__, keep)))
    # x only for the points kept (most of a 500-turn line is flat rows)
    if len(keep) < len(rows):
        xs, rows = list(map(xs.__getitem__, keep)), list(map(rows.__getitem__, keep))
    heads = list(map(at.get, xs))
    if None in heads:  # off a slot's middle (an area's ends, K's steps): written afresh
        heads = [t or f"{(x + half) // UNIT}," for t, x in zip(heads, xs, strict=True)]
    return Plain(" ".join(map(add, heads, px_texts(rows))))


@lru_cache(maxsize=16)
def slot_row(n: int, pw: int, head: str, tail: str, shift: int = 0) -> tuple[str, ...]:
    """``head``, each turn slot's middle in whole pixels (rounded half up) plus
    ``shift``, then ``tail``, in turn order, by value (:func:`slot_texts`)."""
    half = UNIT // 2
    return tuple([f"{head}{(x + half) // UNIT + shift}{tail}" for x in slot_middles(n, pw)])


@lru_cache(maxsize=16)  # about nine texts a session and width: two of them kept
def slot_texts(n: int, pw: int, head: str, tail: str, shift: int = 0) -> dict[int, str]:
    """``head``, each turn slot's middle in whole pixels (rounded half up) plus
    ``shift``, then ``tail``: a path's or a point list's text at that slot, by the
    middle's position (1/100 px; never written to once made). By value: the same for
    every redraw of one session at one width, where the strips, the run bars and the
    lines write one per turn or run, hundreds per input (a text made of integers costs
    more than a look-up)."""
    return dict(zip(slot_middles(n, pw), slot_row(n, pw, head, tail, shift), strict=True))


def marks_text(xs: Iterable[int], tail: str, n: int, pw: int) -> Plain:
    """One strip's marks as path data: at each x (1/100 px), "M<px> 0" and ``tail`` (a
    literal path command); a mark between two slots (a log's compaction) is written
    afresh."""
    kept = slot_texts(n, pw, "M", f" 0{tail}")
    half = UNIT // 2
    return Plain("".join([kept.get(x) or f"M{(x + half) // UNIT} 0{tail}" for x in xs]))
