"""A region's drawing carried from one render to the next, by value, with no module state.

A view that is costly to draw (the plan charts, the samples table, the peers panel, the
Tune maps) returns what it drew with the key it drew it from; the next render is handed
that (the shell keeps it in its one record, ``ui.paint.Painted``) and draws again only
when the key changed. Elm's ``Html.Lazy`` does the same by comparing a lazy node's
arguments with the previous render's. The key is the values the drawing reads,
compared with ``==`` (never ``id()``, which is reused once an object is freed);
comparing parts that are the same objects is cheap: equality tries identity first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

__all__ = ["Drawn", "reuse"]

V = TypeVar("V")

#: Each region's (key, drawing) as last drawn.
Drawn = Mapping[str, tuple[object, object]]


def reuse(
    before: Drawn | None,
    now: dict[str, tuple[object, object]],
    region: str,
    key: object,
    draw: Callable[[], V],
) -> V:
    """``region``'s drawing for ``key``: the one in ``before`` when drawn for an equal
    key, else ``draw()``; either way recorded in ``now`` for the next render.

    >>> calls = []
    >>> draw = lambda: calls.append(1) or "drawn"
    >>> now = {}
    >>> reuse(None, now, "chart", ("a", 1), draw)
    'drawn'
    >>> later = {}
    >>> reuse(now, later, "chart", ("a", 1), draw), reuse(later, {}, "chart", ("a", 2), draw)
    ('drawn', 'drawn')
    >>> len(calls)
    2
    """
    hit = before.get(region) if before is not None else None
    if hit is not None and hit[0] == key:
        now[region] = hit
        return hit[1]  # type: ignore[return-value]  # drawn by the same call site
    value = draw()
    now[region] = (key, value)
    return value
