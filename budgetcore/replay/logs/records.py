"""A reader's records read by attribute, one shape for both decoders (docs/replay.md,
"Reading"; issue 40).

A reader declares the keys it looks at as a :class:`Shape`, and its one loop reads each
line or row as a record of those keys, by attribute: ``rec.message.payload``. Only the
decoding differs by backend:

- with msgspec (the ``fast`` extra, CPython 3.11: :mod:`.compiled`), a
  ``msgspec.Struct`` made from the shape, decoded straight from the bytes;
- without it (the page, ``BUDGETCORE_PURE_PYTHON``), and for a line the struct does not
  fit, the standard library's decode turned into the same attributes
  (:func:`record_of`).

What a record holds, either way: each key's value as the standard library decodes it
(numbers through ``read_number``), or, for a key the shape reads an object under
(:attr:`Shape.nested`), that object as a record, and None when the value is null or not
an object: a shape nests only where the reader treats the two alike. A key whose
absence the reader tells from null (:attr:`Shape.told`) is :data:`ABSENT` when missing;
every other missing key is None. ``tests/property/test_records_properties.py`` holds the
two decodings equal on generated records in each agent's real shape.

A file's lines come as records from :meth:`.tally.Tally.record_lines` (the decoder
from :func:`.reader.record_batches`); this module imports nothing of the package, so
that :mod:`.compiled` can build its structs from the shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

__all__ = ["ABSENT", "Shape", "fields_of", "record_of"]


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
    """The keys of a record a reader looks at. ``name``: the record's class name;
    ``nested``: (key, shape) for each key whose object is read as a record in turn;
    ``told``: the keys whose absence is :data:`ABSENT`, not None."""

    name: str
    keys: tuple[str, ...]
    nested: tuple[tuple[str, Shape], ...] = ()
    told: frozenset[str] = field(default_factory=frozenset)

    def under(self, key: str) -> Shape | None:
        return dict(self.nested).get(key)


def fields_of(rec: object, shape: Shape) -> tuple[object, ...]:
    """A record's values in the shape's key order, nested records as their own tuples
    (what a test compares)."""
    out: list[object] = []
    for key in shape.keys:
        value = getattr(rec, key)
        sub = shape.under(key)
        nested = sub is not None and value is not None and value is not ABSENT
        out.append(fields_of(value, sub) if nested else value)  # type: ignore[arg-type]
    return tuple(out)


# ---------------------------------------------------------------- the standard library's


@cache
def _plan(shape: Shape) -> tuple[Any, tuple[tuple[str, object, Shape | None], ...]]:
    cls = type(shape.name, (), {"__slots__": shape.keys, "__repr__": _repr})
    return cls, tuple(
        (key, ABSENT if key in shape.told else None, shape.under(key)) for key in shape.keys
    )


def _repr(self: object) -> str:
    inner = ", ".join(f"{k}={getattr(self, k)!r}" for k in type(self).__slots__)  # type: ignore[attr-defined]
    return f"{type(self).__name__}({inner})"


def record_of(value: dict[str, Any], shape: Shape) -> Any:
    """The record of a decoded JSON object, with the attributes the compiled struct
    has (the page's path, and a line the struct does not fit)."""
    cls, plan = _plan(shape)
    rec = cls.__new__(cls)
    get = value.get
    for key, missing, sub in plan:
        v = get(key, missing)
        if sub is not None and v is not missing:
            v = record_of(v, sub) if type(v) is dict else None
        setattr(rec, key, v)
    return rec
