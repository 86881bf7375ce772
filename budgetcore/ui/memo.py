"""One remembered result per view region, keyed by value.

A region is drawn again only when what it shows changed. The key is the values the
drawing reads, compared with ``==`` (never ``id()``: an id is reused once its object is
freed, so an id key needs the object held alive and checked again). Comparing a key
whose parts are the same objects is cheap: equality tries identity first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Last"]

V = TypeVar("V")

_EMPTY = object()


class Last(Generic[V]):
    """The last (key, value) drawn: ``get(key, draw)`` returns the value for an equal key
    and otherwise draws, remembers and returns it.

    >>> last: Last[str] = Last()
    >>> calls = []
    >>> draw = lambda: calls.append(1) or "drawn"
    >>> last.get(("a", 1), draw), last.get(("a", 1), draw), last.get(("a", 2), draw)
    ('drawn', 'drawn', 'drawn')
    >>> len(calls)
    2
    """

    __slots__ = ("_key", "_value")

    def __init__(self) -> None:
        self._key: object = _EMPTY
        self._value: V | None = None

    def get(self, key: object, draw: Callable[[], V]) -> V:
        if self._key is not _EMPTY and self._key == key:
            return self._value  # type: ignore[return-value]  # set with the key
        value = draw()
        self._key, self._value = key, value
        return value
