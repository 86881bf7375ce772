"""A measured session kept as bytes (docs/performance.md, "A folder's sessions let go
once measured"): what a folder's read holds of each session between its measurement and
the output, at about a fifth of the memory, every value as read.

A request is a tuple of 16 Python values, most of them integers of their own (28 to 32
bytes each beside the tuple's 176 bytes): 60,000 requests held about 21 MB, and their
message ids 7.5 MB more. Here a session's requests (each series' branch and abandoned
ones), its times and its ids are each one ``marshal`` string (about 70 bytes a request;
an object met twice, such as the one model name, written once), made and read back in
C. ``marshal`` keeps every value's type and value (an ``int``, a ``str``, ``None``); a
value it cannot write (a logged cost, a ``Decimal``) leaves that part as it was read.
Reading a part back builds the same tuples, so every consumer (the output,
:func:`~budgetcore.replay.logs.usage.billed_elsewhere`, the measured usage of a session
billed elsewhere) reads the same numbers. Only this process reads the bytes back: the
format is the running interpreter's own.
"""

from __future__ import annotations

import dataclasses
import marshal
import operator
from array import array
from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter
from typing import Any, Generic, TypeVar, cast, overload

from budgetcore.replay.logs.model import LogSeries, ParsedLog, SummedCalls, new_request

__all__ = ["SMALL", "Packed", "packed"]

_T = TypeVar("_T")
_MODEL_OF = itemgetter(5)  # LogRequest.model


class Packed(Sequence[_T], Generic[_T]):
    """Values kept as one ``marshal`` string, read back as ``build`` makes each (a
    :class:`LogRequest` from its tuple; None: as stored). Reading one item reads them
    all: made for a pass over them (a count, a sum, an index built once)."""

    __slots__ = ("_blob", "_build", "_models", "_n")

    def __init__(
        self,
        blob: bytes,
        n: int,
        build: Callable[[Any], _T] | None,
        models: tuple[tuple[str | None, ...], array[int]] | None = None,
    ) -> None:
        self._blob, self._n, self._build, self._models = blob, n, build, models

    @property
    def models(self) -> Iterator[str | None] | None:
        """Each request's model in order, without reading the requests back (the
        output asks for a session's models and its main model: two passes over every
        request); None for values that are not requests."""
        if self._models is None:
            return None
        names, places = self._models
        return map(names.__getitem__, places)

    def __len__(self) -> int:
        return self._n

    def _all(self) -> list[_T]:
        items: list[Any] = marshal.loads(self._blob)
        return items if self._build is None else list(map(self._build, items))

    @overload
    def __getitem__(self, i: int) -> _T: ...
    @overload
    def __getitem__(self, i: slice) -> list[_T]: ...
    def __getitem__(self, i: int | slice) -> _T | list[_T]:
        return self._all()[i]

    def __iter__(self) -> Iterator[_T]:
        return iter(self._all())

    def __reduce__(self) -> tuple[Any, ...]:
        # A folder's runs come back from its worker processes pickled (the same
        # interpreter: the same marshal format).
        return (Packed, (self._blob, self._n, self._build, self._models))


#: Fewer values than this are kept as they are: their blob, its :class:`Packed` and
#: the model column weigh about what a few requests' tuples do, and a session of a few
#: requests (or of one totals row: Droid, Goose) was copied for nothing.
SMALL = 8


def _pack(items: Sequence[Any], as_tuples: bool, build: Callable[[Any], _T] | None) -> Any:
    """``items`` as one marshal string, or as they are when fewer than :data:`SMALL`,
    summed by their reader, or when one holds a value marshal cannot write (ValueError)."""
    if len(items) < SMALL or isinstance(items, SummedCalls):  # summed: compact already
        return items
    try:
        # marshal writes plain tuples only: a request's NamedTuple is written as its
        # tuple and made again by ``build``.
        blob = marshal.dumps(list(map(tuple, items)) if as_tuples else list(items))
    except ValueError:
        return items
    models = None
    if build is new_request:
        # Each request's model as its place among the few names (2 bytes a request).
        column = list(map(_MODEL_OF, items))
        names = tuple(dict.fromkeys(column))
        place = {name: i for i, name in enumerate(names)}
        models = (
            names,
            array("H" if len(names) < 1 << 16 else "L", map(place.__getitem__, column)),
        )
    return Packed(blob, len(items), build, models)


def _series(s: LogSeries) -> LogSeries:
    """``s`` with its parts packed; ``s`` itself when none of them is."""
    requests = _pack(s.requests, True, new_request)
    abandoned = _pack(s.abandoned, True, new_request)
    times = _pack(s.times, False, None)
    if requests is s.requests and abandoned is s.abandoned and times is s.times:
        return s
    return dataclasses.replace(s, requests=requests, abandoned=abandoned, times=times)


def packed(log: ParsedLog) -> ParsedLog:
    """``log`` with each series' requests and times, and its ids, kept as bytes: the
    same values, read back as they were read (docs/performance.md); ``log`` itself when
    nothing of it is worth packing (:data:`SMALL`)."""
    series = tuple(map(_series, log.series))
    ids = cast("Sequence[tuple[int, int, str, str]]", _pack(log.ids, True, None))
    if ids is log.ids and all(map(operator.is_, series, log.series)):
        return log
    return dataclasses.replace(log, series=series, ids=ids)
