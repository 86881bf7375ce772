"""A reader's records read by attribute, one shape for both decoders (docs/replay.md,
"Reading"; issues 38 and 40).

A reader declares what it looks at as a :class:`Shape`, and its one loop reads each
line or row as a record of those keys, by attribute: ``rec.message.payload``. The shape
is the only copy of the reader's keys; only the decoding differs by backend:

- with msgspec (the ``fast`` extra, CPython 3.11: :mod:`.compiled`), a
  ``msgspec.Struct`` made from the shape (``compiled.record_struct``), decoded straight
  from the bytes;
- without it (the page, ``BUDGETCORE_PURE_PYTHON``), and for a line the struct does not
  fit, the standard library's decode turned into the same attributes
  (:func:`record_of`).

What a record holds, either way, by what the shape says of each key:

- any key: its value as the standard library decodes it (numbers through
  ``read_number``);
- a text (:attr:`Shape.texts`): the value when it is a string, else None;
- a key the shape reads an object under (:attr:`Shape.nested`): that object as a
  record, and None when the value is null or not an object (a shape nests only where
  the reader treats the two alike);
- an object of token counts (a nested shape with :attr:`Shape.counts`): None when null,
  else each count as :func:`counts` reads it (missing or null: 0), or the
  :class:`~budgetcore.errors.Problem` naming the first that is not one (or the value
  that is no object);
- a key whose absence the reader tells from null (:attr:`Shape.told`) is
  :data:`ABSENT` when missing; every other missing key is None (a count: 0).

The struct holds the same by its types: a text is ``str | None``, a count an ``int``
from 0 to 10^12, a nested key its shape's struct or null. msgspec is strict, so a line
whose value the types refuse (a number for a text, ``12.0`` or null for a count) is
decoded in full and made the record here: the types only choose which lines the
standard library reads. ``tests/property/test_records_properties.py`` holds the two
decodings equal on generated lines in each agent's real shape.

A file's lines come as records from :meth:`.tally.Tally.record_lines` (one at a time)
or :meth:`.tally.Tally.timed_records` (a batch with its times at once; the decoder from
:func:`.reader.record_batches`). This module imports nothing of the readers, so that
:mod:`.compiled` can build its structs from the shapes.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_TOKENS, as_whole

__all__ = ["ABSENT", "Shape", "counts", "fields_of", "record_of"]


class _Absent:
    """A key the line does not have (not null)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Shape:
    """The keys of a record a reader looks at, by the attribute it reads each as.
    ``name``: the record's class name; ``nested``: (key, shape) for each key whose
    object is read as a record in turn; ``told``: the keys whose absence is
    :data:`ABSENT`, not None; ``texts``: the keys read as a text or None; ``keyed``:
    (attribute, the key as the log writes it) where the two differ (``$set``, a name
    too long to read); ``counts``: every key a token count, the record the Problem of
    the first that is not one."""

    name: str
    keys: tuple[str, ...]
    nested: tuple[tuple[str, Shape], ...] = ()
    told: frozenset[str] = field(default_factory=frozenset)
    texts: frozenset[str] = field(default_factory=frozenset)
    keyed: tuple[tuple[str, str], ...] = ()
    counts: bool = False

    def __post_init__(self) -> None:
        # A shape is written by hand in a reader: a slip in it is a bug, said at import.
        names = {key for key, _ in self.nested} | self.told | self.texts | set(dict(self.keyed))
        if not names <= set(self.keys) or len(set(self.keys)) != len(self.keys):
            raise ValueError(f"shape {self.name}: a key named twice or not among its keys")
        if self.texts & (self.told | {key for key, _ in self.nested}):
            raise ValueError(f"shape {self.name}: a text is neither told apart nor nested")
        if self.counts and (self.nested or self.told or self.texts):
            raise ValueError(f"shape {self.name}: counts are counts only")

    def under(self, key: str) -> Shape | None:
        return dict(self.nested).get(key)

    def key_of(self, attribute: str) -> str:
        """The key the log writes for an attribute."""
        return dict(self.keyed).get(attribute, attribute)


def counts(raw: object, keys: tuple[str, ...], path: str) -> tuple[int, ...] | Problem:
    """The token counts ``keys`` of the object ``raw`` (a missing or null count is 0,
    anything else ``reader.count_of``'s rule: a whole number from 0 to 10^12), or the
    problem naming the first that is not a count."""
    if not isinstance(raw, dict):
        return Problem.of(path, raw, "log-line-counts")
    out = []
    get = raw.get
    for key in keys:
        value = get(key)
        # The common cases inline (a call per count costs a third).
        if value is None:
            value = 0
        elif type(value) is not int or not 0 <= value <= MAX_TOKENS:
            value = as_whole(value)
            if value is None:
                return Problem.of(
                    f"{path}.{key}",
                    raw[key],
                    "log-line-count",
                )
        out.append(value)
    return tuple(out)


def fields_of(rec: object, shape: Shape) -> tuple[object, ...]:
    """A record's values in the shape's key order, nested records as their own tuples
    (what a test compares)."""
    out: list[object] = []
    for key in shape.keys:
        value = getattr(rec, key)
        sub = shape.under(key)
        nested = sub is not None and value is not None and value is not ABSENT
        if nested and isinstance(value, Problem):  # counts that are none
            nested = False
        out.append(fields_of(value, sub) if nested else value)  # type: ignore[arg-type]
    return tuple(out)


# ---------------------------------------------------------------- the standard library's

# How record_of reads a key (the order of the tests in its loop).
_ANY, _TEXT, _NESTED, _COUNTS = range(4)

#: One step of a record: (attribute, key, its value when missing, how it is read, what
#: reads it (a nested key's shape; counts' record class and keys as written), its path
#: in the line).
_Step = tuple[str, str, object, int, Any, str]


@cache
def _plan(shape: Shape, at: str) -> tuple[Any, tuple[_Step, ...]]:
    """The record class of a shape and how each of its keys is read; ``at``: the path
    of the shape's object in the line ("" or ``key.``), for a count's problem."""
    if shape.counts:
        return namedtuple(shape.name, shape.keys), ()
    cls = type(shape.name, (), {"__slots__": shape.keys, "__repr__": _repr})
    steps: list[_Step] = []
    for name in shape.keys:
        key = shape.key_of(name)
        sub: Any = shape.under(name)
        how = _ANY
        if sub is not None and sub.counts:
            how, sub = _COUNTS, (_plan(sub, "")[0], tuple(map(sub.key_of, sub.keys)))
        elif sub is not None:
            how = _NESTED
        elif name in shape.texts:
            how = _TEXT
        missing = ABSENT if name in shape.told else None
        path = f"{at}{key}." if how == _NESTED else f"{at}{key}"  # the nested shape's ``at``
        steps.append((name, key, missing, how, sub, path))
    return cls, tuple(steps)


def _repr(self: object) -> str:
    inner = ", ".join(f"{k}={getattr(self, k)!r}" for k in type(self).__slots__)  # type: ignore[attr-defined]
    return f"{type(self).__name__}({inner})"


def record_of(value: dict[str, Any], shape: Shape, at: str = "") -> Any:
    """The record of a decoded JSON object, with the attributes the compiled struct
    has (the page's path, and a line the struct does not fit). ``at``: where the object
    is in the line (``key.``), for a nested count's problem."""
    cls, plan = _plan(shape, at)
    rec = cls.__new__(cls)
    get = value.get
    for name, key, missing, how, sub, path in plan:
        v = get(key, missing)
        if how and v is not missing:
            if how == _TEXT:
                if v.__class__ is not str:
                    v = None
            elif how == _NESTED:
                v = record_of(v, sub, path) if v.__class__ is dict else None
            elif v is not None:  # counts
                found = counts(v, sub[1], path)
                v = found if found.__class__ is Problem else sub[0]._make(found)
        setattr(rec, name, v)
    return rec
