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
  that is no object); a counts object nested in one (a key of its ``nested``) is None
  when missing or null, else read the same way, after the counts beside it; an object
  of other values nested in one (pi's ``usage.cost``) is read as a nested key is
  anywhere, a record or None, after the counts beside it;
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
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from keyword import iskeyword
from typing import Any

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_TOKENS, as_whole, bound_text

__all__ = ["ABSENT", "Shape", "counts", "fields_of", "nested_counts", "record_of"]


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
    the first that is not one. A counts shape may nest counts shapes (OpenCode's
    ``tokens.cache``): each such key None when missing or null, else its own counts,
    read after the shape's own counts; and shapes of other values (pi's
    ``usage.cost``): a record, or None when null or not an object."""

    name: str
    keys: tuple[str, ...]
    nested: tuple[tuple[str, Shape], ...] = ()
    told: frozenset[str] = field(default_factory=frozenset)
    texts: frozenset[str] = field(default_factory=frozenset)
    keyed: tuple[tuple[str, str], ...] = ()
    counts: bool = False
    # record_of's function for the shape, by its place in the line: found without
    # hashing the shape (a frozen dataclass hashes every field, nested shapes too).
    plans: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A shape is written by hand in a reader: a slip in it is a bug, said at import.
        names = {key for key, _ in self.nested} | self.told | self.texts | set(dict(self.keyed))
        if not names <= set(self.keys) or len(set(self.keys)) != len(self.keys):
            raise ValueError(f"shape {self.name}: a key named twice or not among its keys")
        words = (self.name, *self.keys)
        if not all(w.isidentifier() and not iskeyword(w) for w in words):
            # record_of writes them out as a class and its attributes
            raise ValueError(f"shape {self.name}: an attribute that is no identifier")
        if self.texts & (self.told | {key for key, _ in self.nested}):
            raise ValueError(f"shape {self.name}: a text can be neither told apart nor nested")
        if self.counts and (self.told or self.texts):
            raise ValueError(f"shape {self.name}: counts are counts only")
        if self.counts and self.nested:
            # a record's fields in key order, its own counts first (nested_counts)
            tail = self.keys[len(self.keys) - len(self.nested) :]
            if tail != tuple(key for key, _ in self.nested):
                raise ValueError(f"shape {self.name}: nested counts after the counts")

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
                    high=bound_text(MAX_TOKENS),
                )
        out.append(value)
    return tuple(out)


def nested_counts(raw: object, shape: Shape, path: str) -> Any:
    """The record of a counts shape that nests shapes (``raw`` not null): its own
    counts first, then each nested object of counts (missing or null: None), or the
    Problem of the first that is not one, as the compiled struct's types refuse the
    line (then read here); a nested shape of other values is a record, or None when
    null or not an object. The page reads one per message: its plan is made once per
    shape, found without hashing the shape."""
    try:
        mine, inner, make = shape.plans["counts"]
    except KeyError:
        mine = tuple(shape.key_of(k) for k in shape.keys if shape.under(k) is None)
        inner = tuple(
            (shape.key_of(k), sub, f".{shape.key_of(k)}" + ("" if sub.counts else "."))
            for k, sub in shape.nested
        )
        make = _class(shape)._make
        # Beside record_of's plans, keyed by a place in the line ("" or "key."): apart.
        shape.plans["counts"] = (mine, inner, make)
    found = counts(raw, mine, path)
    if found.__class__ is Problem:
        return found
    values = list(found)  # type: ignore[arg-type]
    get = raw.get  # type: ignore[attr-defined]  # counts took it: a dict
    for key, sub, at in inner:
        value = get(key)
        if value is None:
            pass
        elif not sub.counts:  # other values: a record where an object is, as anywhere
            value = record_of(value, sub, path + at) if value.__class__ is dict else None
        else:
            value = nested_counts(value, sub, path + at)
            if value.__class__ is Problem:
                return value
        values.append(value)
    return make(values)


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


@cache
def _class(shape: Shape) -> Any:
    """The record class of a shape: slots for its attributes; counts a named tuple."""
    if shape.counts:
        return namedtuple(shape.name, shape.keys)
    return type(shape.name, (), {"__slots__": shape.keys, "__repr__": _repr})


def _repr(self: object) -> str:
    inner = ", ".join(f"{k}={getattr(self, k)!r}" for k in type(self).__slots__)  # type: ignore[attr-defined]
    return f"{type(self).__name__}({inner})"


def _maker(shape: Shape, at: str) -> Callable[[dict[str, Any]], Any]:
    """record_of for one shape at one place in the line (``at``: "" or ``key.``, the
    path of a count's problem), written out as a function: a loop over the shape's keys
    cost twice the time per record, and the page makes one per line. The source holds
    only the shape's own names (a reader's constants), never a log's text."""
    names: dict[str, Any] = {"new": _class(shape).__new__, "cls": _class(shape)}
    names.update(ABSENT=ABSENT, Problem=Problem, counts=counts)
    body = ["def make(value):", "    get = value.get", "    rec = new(cls)"]
    for i, name in enumerate(shape.keys):
        key = shape.key_of(name)
        sub = shape.under(name)
        told = name in shape.told
        body.append(f"    v = get({key!r}, ABSENT)" if told else f"    v = get({key!r})")
        given = "v is not None and v is not ABSENT" if told else "v is not None"
        if sub is not None and sub.counts and sub.nested:
            names[f"sub{i}"] = sub
            body.append(f"    if {given}: v = nested_counts(v, sub{i}, {at + key!r})")
        elif sub is not None and sub.counts:
            names[f"keys{i}"] = tuple(map(sub.key_of, sub.keys))
            names[f"made{i}"] = _class(sub)._make
            body += [
                f"    if {given}:",
                f"        v = counts(v, keys{i}, {at + key!r})",
                f"        if v.__class__ is not Problem: v = made{i}(v)",
            ]
        elif sub is not None:
            names[f"sub{i}"], names[f"at{i}"] = sub, f"{at}{key}."
            body.append(
                f"    if {given}: v = record_of(v, sub{i}, at{i}) if v.__class__ is dict else None"
            )
        elif name in shape.texts:
            body.append("    if v.__class__ is not str: v = None")
        body.append(f"    rec.{name} = v")
    body.append("    return rec")
    names["record_of"], names["nested_counts"] = record_of, nested_counts
    exec("\n".join(body), names)  # the shape's names only, above
    return names["make"]  # type: ignore[no-any-return]


def record_of(value: dict[str, Any], shape: Shape, at: str = "") -> Any:
    """The record of a decoded JSON object, with the attributes the compiled struct
    has (the page's path, and a line the struct does not fit). ``at``: where the object
    is in the line (``key.``), for a nested count's problem."""
    try:
        make = shape.plans[at]
    except KeyError:
        make = shape.plans[at] = _maker(shape, at)
    return make(value)
